package bt

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gobt/bt/blackboard"
)

// mover is a node type implemented by a struct with port fields.
type mover struct {
	Speed  In[float64] `port:"speed" default:"0.5" help:"metres per tick"`
	Target In[string]  `port:"target"`
	Moved  Out[int]    `port:"moved"`
	ticks  int
}

func (m *mover) Tick(n *Node) Status {
	speed, err := m.Speed.Get()
	if err != nil {
		n.Abort(err)
	}
	if _, err := m.Target.Get(); err != nil {
		n.Abort(err)
	}
	m.ticks++
	if err := m.Moved.Set(m.ticks * int(speed*10)); err != nil {
		n.Abort(err)
	}
	return Success
}

func TestModelOfStructPorts(t *testing.T) {
	m := ModelOf[mover]("Move", KindAction)
	want := "input speed : double = 0.5; input target : std::string; output moved : int"
	var got []string
	for _, p := range m.XML().Ports {
		s := p.Dir + " " + p.Name + " : " + p.Type
		if p.HasDefault {
			s += " = " + p.Default
		}
		got = append(got, s)
	}
	if g := strings.Join(got, "; "); g != want {
		t.Errorf("ports: %s", g)
	}
	f := NewFactory()
	if err := f.Register(m); err != nil {
		t.Fatal(err)
	}
	err := f.LoadString("t.xml", `<root BTCPP_format="4"><BehaviorTree ID="T">
		<Move target="{goal}" moved="{out}"/></BehaviorTree></root>`)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := f.NewTree("")
	if err != nil {
		t.Fatal(err)
	}
	tree.Blackboard().Entry("goal").Set(blackboard.String("kitchen"))
	tree.TickOnce()
	tree.TickOnce()
	if v, err := blackboard.Get[int](tree.Blackboard().Entry("out")); err != nil || v != 10 {
		t.Errorf("moved = %v, %v", v, err)
	}
	if a := testing.AllocsPerRun(100, func() { tree.TickOnce() }); a != 0 {
		t.Errorf("reading ports in a tick: %v allocations", a)
	}
}

func TestModelOfErrors(t *testing.T) {
	type noTag struct {
		X In[int]
		Behavior
	}
	m := NewFactory().Register(ModelOf[noTag]("Bad", KindAction))
	if m == nil || !strings.Contains(m.Error(), "field X has no `port:\"name\"` tag") {
		t.Errorf("got %v", m)
	}
}

func TestFuncPorts(t *testing.T) {
	var seen []int
	count := NewAction("Count", func(n *Node) Status {
		v, err := Get[int](n, "n")
		if err != nil {
			n.Abort(err)
		}
		seen = append(seen, v)
		return Success
	}, InputPort[int]("n", "a number").WithDefault("7"))
	f := NewFactory()
	f.Register(count)
	if err := f.LoadString("t.xml", `<root BTCPP_format="4"><BehaviorTree ID="T"><Sequence>
		<Count n="3"/><Count/><Script code="k := 41"/><Count n="{k}"/></Sequence></BehaviorTree></root>`); err != nil {
		t.Fatal(err)
	}
	tree, _ := f.NewTree("")
	if _, err := tree.TickOnce(); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 3 || seen[0] != 3 || seen[1] != 7 || seen[2] != 41 {
		t.Errorf("seen %v", seen)
	}
	seen = seen[:0]
	if a := testing.AllocsPerRun(50, func() { tree.TickOnce(); seen = seen[:0] }); a != 0 {
		t.Errorf("Get in a tick: %v allocations", a)
	}
}

func TestPortErrorsNameNodePortKeyAndTypes(t *testing.T) {
	f := NewFactory()
	f.Register(NewAction("Need", func(n *Node) Status {
		if _, err := Get[int](n, "n"); err != nil {
			n.Abort(err)
		}
		return Success
	}, InputPort[int]("n", "")))
	f.LoadString("t.xml", `<root BTCPP_format="4"><BehaviorTree ID="T"><Need n="{k}"/></BehaviorTree></root>`)
	bb := blackboard.New()
	bb.Entry("k").Assign(blackboard.String("many")) // a generic entry: the port cannot type it
	tree, err := f.NewTree("", WithBlackboard(bb))
	if err != nil {
		t.Fatal(err)
	}
	_, err = tree.TickOnce()
	var ne *NodeError
	if !errors.As(err, &ne) || ne.ID != "Need" || !strings.Contains(err.Error(), `port "n"`) || !strings.Contains(err.Error(), `"many"`) || !strings.Contains(err.Error(), "int") {
		t.Errorf("got %v", err)
	}
}

// TestModelOfBadDefault: a default tag that is not a value of its field's type is an
// error when the model is registered (or used in Go), naming the type and the field.
func TestModelOfBadDefault(t *testing.T) {
	type badDefault struct {
		Speed In[float64] `port:"speed" default:"fast"`
		Count In[uint8]   `port:"count" default:"300"`
		Color In[int]     `port:"color" default:"Green"` // an enum of the factory
		Behavior
	}
	want := `bt: node "Bad": the tag default:"fast" of field Speed of bt.badDefault: port "speed": cannot parse "fast" as float64: invalid syntax` + "\n" +
		`node "Bad": the tag default:"300" of field Count of bt.badDefault: port "count": cannot parse "300" as uint8: out of range`
	f := NewFactory()
	if err := f.RegisterEnum("Green", 2); err != nil {
		t.Fatal(err)
	}
	if err := f.Register(ModelOf[badDefault]("Bad", KindAction)); err == nil || err.Error() != want {
		t.Errorf("Register: got\n%v\nwant\n%s", err, want)
	}
	if _, ok := f.Model("Bad"); ok {
		t.Error("a model with a bad default was registered")
	}
	_, err := NewTree(ModelOf[badDefault]("Bad", KindAction).Spec())
	if err == nil || !strings.Contains(err.Error(), `node Bad::1 (Bad): node "Bad": the tag default:"fast" of field Speed of bt.badDefault`) {
		t.Errorf("NewTree: got %v", err)
	}
	bad := NewAction("Plain", func() Status { return Success }, InputPort[int]("n", "").WithDefault("x"))
	want = `bt: node "Plain": the default "x" of port "n": port "n": cannot parse "x" as int: invalid syntax`
	if err := NewFactory().Register(bad); err == nil || err.Error() != want {
		t.Errorf("Register: got\n%v\nwant\n%s", err, want)
	}
}

// counter counts its ticks per run: OnStart starts a run, Tick continues it.
type counter struct {
	N     In[int] `port:"n" default:"2"`
	ticks int
	log   *[]string
}

func (c *counter) OnStart(n *Node) Status {
	c.ticks = 0
	*c.log = append(*c.log, "start")
	return c.Tick(n)
}

func (c *counter) Tick(n *Node) Status {
	c.ticks++
	*c.log = append(*c.log, "tick")
	if limit, _ := c.N.Get(); c.ticks < limit {
		return Running
	}
	return Success
}

func (c *counter) Halt(*Node) { *c.log = append(*c.log, "halt") }

// TestModelOfOnStart: a struct node with OnStart learns of every (re)start — its first
// tick, after it completed and after it was halted — and Tick serves the others.
func TestModelOfOnStart(t *testing.T) {
	var log []string
	m := ModelOf[counter]("Count", KindAction)
	inner := m.New
	m.New = func(c *NodeConfig) (Behavior, error) { // give the node the log
		b, err := inner(c)
		b.(starting).beh.(*counter).log = &log
		return b, err
	}
	tree, err := NewTree(m.Spec())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []Status{Running, Success, Running} {
		if s, err := tree.TickOnce(); s != want || err != nil {
			t.Fatalf("tick: %v %v, want %v", s, err, want)
		}
	}
	tree.Halt()
	tree.TickOnce()
	if got, want := strings.Join(log, " "), "start tick tick start tick halt start tick"; got != want {
		t.Errorf("calls: %s\nwant:  %s", got, want)
	}
}

// TestBehaviorOfStarter: Node.Behavior returns the user's own struct also for a
// ModelOf type with OnStart, whose node runs it through a wrapper.
func TestBehaviorOfStarter(t *testing.T) {
	var log []string
	m := ModelOf[counter]("Count", KindAction)
	tree, err := NewTree(m.Spec())
	if err != nil {
		t.Fatal(err)
	}
	c, ok := tree.Root().Behavior().(*counter)
	if !ok {
		t.Fatalf("Behavior() is a %T, want *counter", tree.Root().Behavior())
	}
	c.log = &log
	tree.TickOnce()
	if c.ticks != 1 || len(log) != 2 {
		t.Errorf("the struct Behavior returned is not the node's: ticks %d, log %v", c.ticks, log)
	}
}

// TestGetUndeclaredPort: reading a port the model does not declare is an error that
// says which port was meant and how to declare one.
func TestGetUndeclaredPort(t *testing.T) {
	say := NewAction("Say", func(n *Node) (Status, error) {
		_, err := Get[string](n, "mesage")
		return Success, err
	}, InputPort[string]("message", ""))
	tree, err := NewTree(say.Spec().With("message", "hi"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = tree.TickOnce()
	want := `node Say::1 (Say): Say has no port "mesage" (a node reads and writes only the ports its model declares, as NewAction(id, fn, bt.InputPort[T]("mesage", …)) does); did you mean "message"?`
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
	m := ModelOf[mover]("Move", KindAction)
	tree, err = NewTree(m.Spec().With("target", "x"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Get[float64](tree.Root(), "speed")
	if want := `Move keeps its ports in the fields of bt.mover: read port "speed" with its field's Get method`; err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
}

// TestPortsTypeEntriesParentFirst: the ports of a node type the entries they name
// before its children's do, as BehaviorTree.CPP creates a node before its children; so
// LoopString's string output types {k}, and Repeat's int input may then read it (a
// string entry takes any port), as in the reference.
func TestPortsTypeEntriesParentFirst(t *testing.T) {
	statuses, bb := runXML(t, `<root BTCPP_format="4"><BehaviorTree ID="Main">
		<Sequence>
			<Script code="c := 0"/>
			<LoopString queue="2;3" value="{k}">
				<Repeat num_cycles="{k}"><Script code="c += 1"/></Repeat>
			</LoopString>
		</Sequence>
	</BehaviorTree></root>`, 5)
	if statuses != "RUNNING RUNNING SUCCESS" || bb["c"] != float64(5) || bb["k"] != "3" {
		t.Errorf("statuses %s, blackboard %v; want RUNNING RUNNING SUCCESS, c 5 and k \"3\"", statuses, bb)
	}
}

// point2D is tutorial 12's Point2D: text "x,y".
type point2D struct{ X, Y int }

func (p *point2D) UnmarshalText(b []byte) error {
	_, err := fmt.Sscanf(string(b), "%d,%d", &p.X, &p.Y)
	return err
}

func (p point2D) MarshalText() ([]byte, error) { return fmt.Appendf(nil, "%d,%d", p.X, p.Y), nil }

// opaque has no text form.
type opaque struct{ secret int }

// TestInputPortDefault: a port's default may be a Go value of the port's type
// (BehaviorTree.CPP's InputPort<Point2D>("pointA", Point2D{1, 2}, …), tutorial 12),
// besides text to parse and an entry; TreeNodesModel shows it as text where the type
// has one.
func TestInputPortDefault(t *testing.T) {
	type got struct {
		a, b, c, d, in point2D
		o              opaque
		speed          float64
		floors         []int
		wait           time.Duration
	}
	var seen []got
	read := func(n *Node) (Status, error) {
		var g got
		var errs []error
		for name, dst := range map[string]*point2D{"pointA": &g.a, "pointB": &g.b, "pointC": &g.c, "pointD": &g.d, "input": &g.in} {
			v, err := Get[point2D](n, name)
			*dst, errs = v, append(errs, err)
		}
		var err1, err2, err3, err4 error
		g.o, err1 = Get[opaque](n, "opaque")
		g.speed, err2 = Get[float64](n, "speed")
		g.floors, err3 = Get[[]int](n, "floors")
		g.wait, err4 = Get[time.Duration](n, "wait")
		seen = append(seen, g)
		return Success, errors.Join(append(errs, err1, err2, err3, err4)...)
	}
	m := NewAction("NodeWithDefaultPoints", read,
		InputPort[point2D]("input", "no default value"),
		InputPortDefault("pointA", point2D{1, 2}, "default value is [1,2]"),
		InputPort[point2D]("pointB", "default value inside blackboard {point}").WithDefault("{point}"),
		InputPort[point2D]("pointC", "default value is [5,6]").WithDefault("5,6"),
		InputPort[point2D]("pointD", "default value inside blackboard {pointD}").WithDefault("{=}"),
		InputPortDefault("opaque", opaque{7}, "no text"),
		InOutPortDefault("speed", 0.5, ""),
		InputPortDefault("floors", []int{1, 2, 3}, ""),
		InputPortDefault("wait", 1500*time.Millisecond, ""))
	f := NewFactory()
	if err := f.Register(m); err != nil {
		t.Fatal(err)
	}
	if err := f.LoadString("t12.xml", `<root BTCPP_format="4"><BehaviorTree ID="T"><Sequence>
		<NodeWithDefaultPoints input="-1,-2"/>
		<NodeWithDefaultPoints input="0,0" pointA="8,9" speed="{v}"/>
	</Sequence></BehaviorTree></root>`); err != nil {
		t.Fatal(err)
	}
	tree, err := f.NewTree("")
	if err != nil {
		t.Fatal(err)
	}
	bb := tree.Blackboard()
	for k, v := range map[string]point2D{"point": {3, 4}, "pointD": {7, 8}} {
		if err := blackboard.Put(bb.Entry(k), v); err != nil {
			t.Fatal(err)
		}
	}
	blackboard.Put(bb.Entry("v"), 2.0)
	if s, err := tree.TickOnce(); s != Success || err != nil {
		t.Fatalf("tick: %v %v", s, err)
	}
	want := []got{
		{point2D{1, 2}, point2D{3, 4}, point2D{5, 6}, point2D{7, 8}, point2D{-1, -2}, opaque{7}, 0.5, []int{1, 2, 3}, 1500 * time.Millisecond},
		{point2D{8, 9}, point2D{3, 4}, point2D{5, 6}, point2D{7, 8}, point2D{0, 0}, opaque{7}, 2, []int{1, 2, 3}, 1500 * time.Millisecond},
	}
	if fmt.Sprint(seen) != fmt.Sprint(want) {
		t.Errorf("read\n%v\nwant\n%v", seen, want)
	}
	var out strings.Builder
	if err := f.WriteModels(&out, false); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		`<input_port name="pointA" type="bt.point2D" default="1,2">default value is [1,2]</input_port>`,
		`<input_port name="opaque" type="bt.opaque">no text</input_port>`,
		`<inout_port name="speed" type="double" default="0.5"/>`,
		`<input_port name="floors" type="std::vector&lt;int&gt;" default="1;2;3"/>`,
		`<input_port name="wait" type="std::chrono::milliseconds" default="1500"/>`,
	} {
		if !strings.Contains(out.String(), line) {
			t.Errorf("the model has no line\n%s\n%s", line, out.String())
		}
	}
}

// anyValues are what anyWriter writes, one a tick.
var anyValues = []any{5, "five", point{1, 2}}

// anyWriter writes, on each tick, the next of anyValues into a port of type any.
type anyWriter struct {
	Out   Out[any] `port:"out"`
	ticks int
}

func (w *anyWriter) Tick(n *Node) Status {
	if err := w.Out.Set(anyValues[w.ticks%len(anyValues)]); err != nil {
		n.Abort(err)
	}
	w.ticks++
	return Success
}

// A port of type any names an entry of type any, which holds values of any type: no
// write fixes its type (BT.CPP's BT::Any ports).
func TestPortOfTypeAny(t *testing.T) {
	f := NewFactory()
	f.Register(ModelOf[anyWriter]("Write", KindAction))
	if err := f.LoadString("t.xml", `<root BTCPP_format="4"><BehaviorTree ID="T">
		<Write out="{x}"/></BehaviorTree></root>`); err != nil {
		t.Fatal(err)
	}
	tree, err := f.NewTree("")
	if err != nil {
		t.Fatal(err)
	}
	e := tree.Blackboard().Entry("x")
	for i, want := range anyValues {
		if s, err := tree.TickOnce(); s != Success || err != nil {
			t.Fatalf("tick %d: %v, %v", i+1, s, err)
		}
		if got := e.Load().Any(); got != want {
			t.Errorf("tick %d: x = %v, want %v", i+1, got, want)
		}
	}
	if typ := e.Type(); typ != reflect.TypeFor[any]() {
		t.Errorf("the entry's type is %v, want interface {}", typ)
	}
	// A model's port of type any, for a node built from a function, likewise.
	i := 0
	f.Register(NewAction("WriteFn", func(n *Node) (Status, error) {
		i++
		return Success, Set(n, "out", anyValues[i%len(anyValues)])
	}, OutputPort[any]("out", "")))
	if err := f.LoadString("fn.xml", `<root BTCPP_format="4"><BehaviorTree ID="F">
		<WriteFn out="{y}"/></BehaviorTree></root>`); err != nil {
		t.Fatal(err)
	}
	if tree, err = f.NewTree("F"); err != nil {
		t.Fatal(err)
	}
	for range anyValues {
		if _, err := tree.TickOnce(); err != nil {
			t.Fatal(err)
		}
	}
	if got := tree.Blackboard().Entry("y").Load().Any(); got != anyValues[0] {
		t.Errorf("y = %v", got)
	}
	// Models name the type as BehaviorTree.CPP names BT::Any.
	if typ := ModelOf[anyWriter]("Write", KindAction).Ports[0].XMLType(); typ != "BT::Any" {
		t.Errorf("XMLType = %s", typ)
	}
}

type point struct{ X, Y int }

type animal interface{ Name() string }
type cat struct{ name string }
type sphynx struct{ cat }
type dog struct{}

func (c *cat) Name() string { return c.name }
func (dog) Name() string    { return "dog" }

// createCat writes a *cat into a port of that type; createAnimal writes a dog into a
// port of type animal; sayHi reads an animal, pet a *cat.
type createCat struct {
	Out Out[*cat] `port:"animal"`
}
type createAnimal struct {
	Out Out[animal] `port:"animal"`
}
type sayHi struct {
	In In[animal] `port:"animal"`
}

// heard is what sayHi nodes said.
var heard []string

type pet struct {
	In In[*cat] `port:"animal"`
}

func (c *createCat) Tick(n *Node) Status {
	c.Out.Set(&cat{"Tom"})
	return Success
}
func (c *createAnimal) Tick(n *Node) Status {
	c.Out.Set(dog{})
	return Success
}
func (s *sayHi) Tick(n *Node) Status {
	a, err := s.In.Get()
	if err != nil {
		n.Abort(err)
	}
	heard = append(heard, "Hi! I am "+a.Name())
	return Success
}
func (p *pet) Tick(n *Node) Status {
	if _, err := p.In.Get(); err != nil {
		n.Abort(err)
	}
	return Success
}

// Ports of assignable types share an entry, as BT.CPP's polymorphic ports (tutorial
// 19): an output of type *cat feeds an input of type animal; an input of type *cat
// reads an entry of type animal when it holds a *cat, and says both types otherwise.
func TestPolymorphicPorts(t *testing.T) {
	heard = nil
	f := NewFactory()
	for _, m := range []*Model{ModelOf[createCat]("CreateCat", KindAction),
		ModelOf[createAnimal]("CreateAnimal", KindAction),
		ModelOf[sayHi]("SayHi", KindAction), ModelOf[pet]("Pet", KindAction)} {
		if err := f.Register(m); err != nil {
			t.Fatal(err)
		}
	}
	err := f.LoadString("t.xml", `<root BTCPP_format="4">
		<BehaviorTree ID="Cat"><Sequence>
			<CreateCat animal="{pet}"/> <SayHi animal="{pet}"/> <Pet animal="{pet}"/>
		</Sequence></BehaviorTree>
		<BehaviorTree ID="Dog"><Sequence>
			<SayHi animal="{pet}"/> <CreateAnimal animal="{pet}"/> <SayHi animal="{pet}"/> <Pet animal="{pet}"/>
		</Sequence></BehaviorTree></root>`)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := f.NewTree("Cat")
	if err != nil {
		t.Fatal(err)
	}
	if s, err := tree.TickOnce(); s != Success || err != nil {
		t.Fatalf("Cat: %v, %v", s, err)
	}
	if tree, err = f.NewTree("Dog"); err != nil {
		t.Fatal(err)
	}
	tree.Blackboard().Entry("pet").Set(blackboard.ValueOf(&sphynx{cat{"Sphynx"}}))
	_, err = tree.TickOnce()
	want := `node Pet::5 (Pet): port "animal": entry "pet": cannot read bt.dog {} as *bt.cat`
	if err == nil || err.Error() != want {
		t.Errorf("Dog: %v; want %s", err, want)
	}
	if got := strings.Join(heard, ", "); got != "Hi! I am Tom, Hi! I am Sphynx, Hi! I am dog" {
		t.Errorf("heard %s", got)
	}
}

// pushInto appends its value to a vector through InOut.Update, as BT.CPP's tutorial 13
// does through getLockedPortContent.
type pushInto struct {
	Vector InOut[[]int] `port:"vector"`
	Value  In[int]      `port:"value"`
}

func (p *pushInto) Tick(n *Node) Status {
	x := p.Value.mustGet(n)
	if err := p.Vector.Update(func(v []int) []int { return append(v, x) }); err != nil {
		n.Abort(err)
	}
	return Success
}

func TestInOutUpdate(t *testing.T) {
	f := NewFactory()
	if err := f.Register(ModelOf[pushInto]("PushIntoVector", KindAction)); err != nil {
		t.Fatal(err)
	}
	err := f.LoadString("t.xml", `<root BTCPP_format="4"><BehaviorTree ID="T"><Sequence>
		<PushIntoVector vector="{vect}" value="3"/>
		<PushIntoVector vector="{vect}" value="5"/>
		<PushIntoVector vector="{vect}" value="7"/>
		<PushIntoVector vector="1;2" value="9"/>
	</Sequence></BehaviorTree></root>`)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := f.NewTree("")
	if err != nil {
		t.Fatal(err)
	}
	_, err = tree.TickOnce()
	if want := `port "vector" is not connected to a blackboard entry`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("a literal vector: %v, want %s", err, want)
	}
	if v, err := blackboard.Get[[]int](tree.Blackboard().Entry("vect")); err != nil || !slices.Equal(v, []int{3, 5, 7}) {
		t.Errorf("vect = %v, %v", v, err)
	}
}
