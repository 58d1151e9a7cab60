package bt

import (
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/gobt/bt/blackboard"
)

// TestLoadedTreeSizes checks the node counts a Factory records when it loads a
// document against counting the nodes of each tree, subtrees expanded.
func TestLoadedTreeSizes(t *testing.T) {
	f := NewFactory()
	err := f.LoadString("sizes.xml", `<root BTCPP_format="4" main_tree_to_execute="Main">
	<BehaviorTree ID="Main">
		<Sequence>
			<SubTree ID="Mid"/>
			<AlwaysSuccess/>
			<SubTree ID="Leaf" _autoremap="true"/>
			<SubTree ID="Mid"/>
		</Sequence>
	</BehaviorTree>
	<BehaviorTree ID="Mid">
		<Fallback><SubTree ID="Leaf"/><SubTree ID="Leaf"/><AlwaysFailure/></Fallback>
	</BehaviorTree>
	<BehaviorTree ID="Leaf"><Inverter><AlwaysSuccess/></Inverter></BehaviorTree>
</root>`)
	if err != nil {
		t.Fatal(err)
	}
	// A second document may instantiate the trees of the first.
	if err := f.LoadString("more.xml", `<root BTCPP_format="4">
	<BehaviorTree ID="Top"><Sequence><SubTree ID="Main"/><SubTree ID="Leaf"/></Sequence></BehaviorTree>
</root>`); err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"Leaf": 2, "Mid": 2 + 2*3, "Main": 2 + 2*9 + 3, "Top": 1 + 24 + 3}
	for id, n := range want {
		d, err := f.definition(id)
		if err != nil {
			t.Fatal(err)
		}
		counted := d.defs.size(d.root)
		if d.size != n || counted != n {
			t.Errorf("%s: recorded %d nodes, counted %d, want %d", id, d.size, counted, n)
		}
		tree, err := f.NewTree(id)
		if err != nil {
			t.Fatal(err)
		}
		if tree.Len() != n {
			t.Errorf("%s: built %d nodes, want %d", id, tree.Len(), n)
		}
	}
}

// TestScriptValueErrors checks the error of a script whose value is not a truth
// value: it quotes the script, whether the script is a literal (the node's ticker is
// then its program), comes from the blackboard, or is a pre-condition.
func TestScriptValueErrors(t *testing.T) {
	for _, tc := range []struct{ name, xml, want string }{
		{"literal", `<ScriptCondition code="'abc'"/>`, `script "'abc'": the string "abc" is not a boolean`},
		{"blackboard", `<ScriptCondition code="{src}"/>`, `script "'xyz'": the string "xyz" is not a boolean`},
		{"hook", `<AlwaysSuccess _skipIf="'no'"/>`, `script "'no'": the string "no" is not a boolean`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := NewFactory()
			if err := f.LoadString("t.xml", `<root BTCPP_format="4"><BehaviorTree ID="M">`+tc.xml+`</BehaviorTree></root>`); err != nil {
				t.Fatal(err)
			}
			tree, err := f.NewTree("")
			if err != nil {
				t.Fatal(err)
			}
			if err := tree.Blackboard().Entry("src").Set(blackboard.String("'xyz'")); err != nil {
				t.Fatal(err)
			}
			_, err = tree.TickOnce()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error with %q", err, tc.want)
			}
		})
	}
}

// TestLiteralScriptsTickWithoutAllocating checks Script and ScriptCondition nodes, whose
// literal scripts are their tickers, beside one that reads its script from the
// blackboard.
func TestLiteralScriptsTickWithoutAllocating(t *testing.T) {
	f := NewFactory()
	if err := f.LoadString("t.xml", `<root BTCPP_format="4"><BehaviorTree ID="M"><Sequence>
		<Script code="x := 0"/><ScriptCondition code="x &lt; 3"/><ScriptCondition code="{c}"/>
	</Sequence></BehaviorTree></root>`); err != nil {
		t.Fatal(err)
	}
	tree, err := f.NewTree("")
	if err != nil {
		t.Fatal(err)
	}
	if err := tree.Blackboard().Entry("c").Set(blackboard.String("x == 0")); err != nil {
		t.Fatal(err)
	}
	if s, err := tree.TickOnce(); err != nil || s != Success {
		t.Fatalf("got %v, %v; want SUCCESS", s, err)
	}
	if a := testing.AllocsPerRun(100, func() { tree.TickOnce() }); a != 0 {
		t.Errorf("%v allocations per tick, want 0", a)
	}
}

// TestDefinition checks that a factory's definition builds with NewTree, that a tree
// built from an edited copy of it has the copy's nodes, and that the factory's own trees
// keep theirs.
func TestDefinition(t *testing.T) {
	f := NewFactory()
	if err := f.LoadString("t.xml", `<root BTCPP_format="4"><BehaviorTree ID="M">
		<Sequence name="top"><Fallback><AlwaysFailure/><AlwaysSuccess/></Fallback><AlwaysSuccess/></Sequence>
	</BehaviorTree></root>`); err != nil {
		t.Fatal(err)
	}
	root, err := f.Definition("M")
	if err != nil {
		t.Fatal(err)
	}
	if root.Name() != "top" || root.Model().ID != "Sequence" || len(root.Children()) != 2 || root.Pos().String() != "t.xml:2:3" {
		t.Errorf("definition: %s %q with %d children at %s", root.Model().ID, root.Name(), len(root.Children()), root.Pos())
	}
	edited := root.Model().Spec(Sequence(AlwaysSuccess(), AlwaysSuccess(), Inverter(AlwaysFailure())), root.Children()[1]).Named(root.Name())
	for _, tc := range []struct {
		name  string
		build func() (*Tree, error)
		want  int
	}{
		{"definition", func() (*Tree, error) { return NewTree(root) }, 5},
		{"edited copy", func() (*Tree, error) { return NewTree(edited) }, 1 + 5 + 1},
		{"factory", func() (*Tree, error) { return f.NewTree("M") }, 5},
	} {
		tree, err := tc.build()
		if err != nil {
			t.Fatal(err)
		}
		if tree.Len() != tc.want {
			t.Errorf("%s: built %d nodes, want %d", tc.name, tree.Len(), tc.want)
		}
		if tree.Root().Spec() != root && tc.name != "edited copy" {
			t.Errorf("%s: the root's Spec is not the definition's", tc.name)
		}
		if s, err := tree.TickOnce(); err != nil || s != Success {
			t.Errorf("%s: got %v, %v; want SUCCESS", tc.name, s, err)
		}
	}
}

// bareDecorator is a decorator written as a plain ticker, as builtin decorators were
// before decoratorNode: its tick ends without putting its child back.
type bareDecorator struct{}

func (bareDecorator) tick(n *Node) Status { return n.Child(0).Tick() }

// passDecorator is the body of a decorator that returns its child's status.
type passDecorator struct{}

func (passDecorator) decorate(n *Node) Status { return n.Child(0).Tick() }

// TestDecoratorNeedsDecoratorNode checks that a builtin decorator (or SubTree) model
// whose build function returns a ticker of its own, not a decoratorNode, fails to build
// with an error that says so, and that the same decorator built through decorates
// puts its completed child back to Idle and stores its own status.
func TestDecoratorNeedsDecoratorNode(t *testing.T) {
	for _, k := range []Kind{KindDecorator, KindSubTree} {
		bare := &Model{ID: "Bare", Kind: k, build: func(*NodeConfig) (ticker, error) { return bareDecorator{}, nil }}
		_, err := NewTree(bare.Spec(AlwaysSuccess()))
		want := "builtin " + k.String() + " Bare is not built into a decoratorNode"
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%v: NewTree: %v, want an error containing %q", k, err, want)
		}
	}
	wrapped := &Model{ID: "Wrapped", Kind: KindDecorator,
		build: decorates(resetThenStore, func(*NodeConfig) (decorator, error) { return passDecorator{}, nil })}
	tree, err := NewTree(wrapped.Spec(AlwaysSuccess()))
	if err != nil {
		t.Fatal(err)
	}
	root := tree.Root()
	if s := root.t.tick(root); s != Success { // the dispatch alone, without Node.Tick's store
		t.Fatalf("tick: %v, want SUCCESS", s)
	}
	if s, c := root.Status(), root.Child(0).Status(); s != Success || c != Idle {
		t.Errorf("after a tick the decorator is %v, its child %v; want SUCCESS and IDLE", s, c)
	}
}

// TestTreesShareTheirLayout checks that the trees built from one definition share the
// index of their nodes by UID, which a crowd of trees would otherwise keep once per
// tree (issue 31), and that each tree's Node finds its own node by it, subtrees
// included — also after a reload gave one of them a new definition.
func TestTreesShareTheirLayout(t *testing.T) {
	f := NewFactory()
	err := f.LoadString("crowd.xml", `<root BTCPP_format="4" main_tree_to_execute="Main">
	<BehaviorTree ID="Main">
		<Sequence><SubTree ID="Sub"/><Fallback><AlwaysFailure/><SubTree ID="Sub"/></Fallback></Sequence>
	</BehaviorTree>
	<BehaviorTree ID="Sub"><Inverter><AlwaysFailure/></Inverter></BehaviorTree>
</root>`)
	if err != nil {
		t.Fatal(err)
	}
	var trees []*Tree
	for range 3 {
		tree, err := f.NewTree("Main")
		if err != nil {
			t.Fatal(err)
		}
		trees = append(trees, tree)
	}
	for i, tree := range trees {
		if &tree.byUID()[0] != &trees[0].byUID()[0] {
			t.Errorf("tree %d has an index of its own", i)
		}
	}
	sub, err := f.NewTree("Sub")
	if err != nil {
		t.Fatal(err)
	}
	if len(sub.byUID()) != 2 || &sub.byUID()[0] == &trees[0].byUID()[0] {
		t.Errorf("the tree Sub shares Main's index: %v", sub.byUID())
	}
	if _, err := trees[1].Reload(f, "Sub"); err != nil {
		t.Fatal(err)
	}
	for i, tree := range append(trees, sub) {
		for uid := range uint16(tree.Len()) {
			if n := tree.Node(uid + 1); n == nil || n.UID() != uid+1 || n.Tree() != tree {
				t.Errorf("tree %d: Node(%d) is %v", i, uid+1, n)
			}
		}
	}
}

// TestCrowdSizes keeps what every tree of a crowd keeps to its size class (issue 31:
// heap per agent, bench/README.md): a byte more puts each in the next class.
func TestCrowdSizes(t *testing.T) {
	for _, c := range []struct {
		name      string
		size, max uintptr
	}{
		{"Tree", unsafe.Sizeof(Tree{}), 176},
		{"Node", unsafe.Sizeof(Node{}), 32},
		{"nodeMeta", unsafe.Sizeof(nodeMeta{}), 16},
		{"scope", unsafe.Sizeof(scope{}), 48},
		{"sequence", unsafe.Sizeof(sequence{}), 64},
	} {
		if c.size > c.max {
			t.Errorf("a %s takes %d bytes, more than %d", c.name, c.size, c.max)
		}
	}
}

// TestTreesShareTheirConfig checks that the trees a Factory builds without options
// share their configuration (issue 31: a crowd keeps one), and that an option changes
// only its own tree's.
func TestTreesShareTheirConfig(t *testing.T) {
	f := NewFactory()
	if err := f.LoadString("c.xml", `<root BTCPP_format="4" main_tree_to_execute="M"><BehaviorTree ID="M"><AlwaysSuccess/></BehaviorTree></root>`); err != nil {
		t.Fatal(err)
	}
	clock := bttestClock{}
	var trees [4]*Tree
	for i, opts := range [][]Option{nil, {WithOwner(1)}, {WithClock(clock), WithHaltTimeout(time.Second)}, nil} {
		tree, err := f.NewTree("M", opts...)
		if err != nil {
			t.Fatal(err)
		}
		trees[i] = tree
	}
	if trees[0].cfg != trees[1].cfg || trees[0].cfg != trees[3].cfg || trees[2].cfg == trees[0].cfg {
		t.Error("the trees without options do not share their configuration, or the one with options shares it")
	}
	if trees[2].Clock() != clock || trees[2].cfg.haltTimeout != time.Second || trees[2].cfg.enums == nil {
		t.Errorf("the tree with options has clock %v, halt timeout %v", trees[2].Clock(), trees[2].cfg.haltTimeout)
	}
	for _, i := range []int{0, 1, 3} {
		if _, ok := trees[i].Clock().(systemClock); !ok || trees[i].cfg.haltTimeout != 0 {
			t.Errorf("tree %d has clock %v, halt timeout %v", i, trees[i].Clock(), trees[i].cfg.haltTimeout)
		}
	}
}

// bttestClock is a Clock that is not the system's (bttest imports bt).
type bttestClock struct{ systemClock }
