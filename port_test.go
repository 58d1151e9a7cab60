package bt

import (
	"errors"
	"strings"
	"testing"

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
