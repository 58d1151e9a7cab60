package bt_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/blackboard"
	"github.com/gobt/bt/btxml"
)

// Item 6 of issue 13: nil and zero values given to the API are errors (naming the node
// where there is one), never panics.
func TestNilArgumentsAreErrors(t *testing.T) {
	noAction := (func() Status)(nil)
	noCondition := (func(*Node) (bool, error))(nil)
	tree := func(s *Spec, opts ...Option) func() error {
		return func() error { _, err := NewTree(s, opts...); return err }
	}
	var empty Tree
	for _, c := range []struct {
		name string
		call func() error
		want string
	}{
		{"NewAction", tree(NewAction("A", noAction).Spec()), `node A::1 (A): NewAction("A") was given a nil function`},
		{"Condition", tree(Condition("C", noCondition)), `node C::1 (C): NewCondition("C") was given a nil function`},
		{"NewStateful", tree(Stateful("S", nil)), `node S::1 (S): NewStateful("S") was given a nil function`},
		{"NewAsync", tree(Async("W", nil)), `node W::1 (W): NewAsync("W") was given a nil function`},
		{"Register", func() error { return NewFactory().Register(NewStateful("S", nil)) }, `bt: NewStateful("S") was given a nil function`},
		{"Pre", tree(AlwaysSuccess().Pre(SkipIf, nil)), "node AlwaysSuccess::1 (AlwaysSuccess): _skipIf: no function"},
		{"Post", tree(AlwaysSuccess().Post(OnHalted, nil)), "node AlwaysSuccess::1 (AlwaysSuccess): _onHalted: no function"},
		{"nil model", tree(Sequence((*Model)(nil).Spec())), "bt: a spec has no model (the Spec of a nil *Model, or a Spec not made with Model.Spec or the functions of package bt)"},
		{"zero model", tree(Sequence((&Model{New: func(*NodeConfig) (Behavior, error) { return passBehavior{}, nil }}).Spec())),
			"node ::2 (): Kind(0) is not a kind of node\nnode ::2 (): the node type has no ID"},
		{"nil Option", tree(AlwaysSuccess(), nil), "bt: a nil Option"},
		{"WithClock", tree(AlwaysSuccess(), WithClock(nil)), "bt: WithClock: the clock is nil"},
		{"WithContext", tree(AlwaysSuccess(), WithContext(nil)), "bt: WithContext: the context is nil"},
		{"WithHaltTimeout", tree(AlwaysSuccess(), WithHaltTimeout(-time.Second)), "bt: WithHaltTimeout: the timeout -1s is negative"},
		{"TickWhileRunning", func() error {
			_, err := mustTree(t, AlwaysRunning()).TickWhileRunning(nil, 0) //nolint:staticcheck // the nil is the test
			return err
		}, "bt: nil context"},
		{"Sleep", func() error { _, err := mustTree(t, AlwaysRunning()).Sleep(nil, 0); return err }, "bt: nil context"}, //nolint:staticcheck
		{"Sleep on the zero Tree", func() error { _, err := empty.Sleep(context.Background(), 0); return err }, ErrEmptyTree.Error()},
		{"Abort", func() error {
			_, err := mustTree(t, Action("A", func(n *Node) Status { n.Abort(nil); return Success })).TickOnce()
			return err
		}, "node A::1 (A): aborted"},
		{"LoadDocument", func() error { return NewFactory().LoadDocument(nil) }, "bt: LoadDocument: the document is nil"},
		{"Load", func() error { return NewFactory().Load(nil, "x.xml") }, "btxml: Load: the file system is nil"},
		{"WriteModels", func() error { return NewFactory().WriteModels(nil, true) }, "bt: WriteModels: the writer is nil"},
		{"RegisterEnums", func() error { return RegisterEnums[Kind](nil, KindAction) }, "bt: RegisterEnums: the factory is nil"},
		{"btxml.WriteModels", func() error { return btxml.WriteModels(nil, nil) }, "btxml: nil writer"},
		{"blackboard.New", func() error { return blackboard.New(nil).Local("x").Set(blackboard.Int(1)) }, "<nil>"},
	} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s: panic: %v", c.name, r)
				}
			}()
			if err := c.call(); fmt.Sprint(err) != c.want {
				t.Errorf("%s: got %v\nwant %s", c.name, err, c.want)
			}
		}()
	}
	// Nothing to do, nothing to fail.
	tr := mustTree(t, AlwaysSuccess())
	tr.Walk(nil)
	tr.Subscribe(nil)()
	if s, err := tr.TickOnce(); s != Success || err != nil {
		t.Errorf("after nil visitors: %v %v", s, err)
	}
	if empty.Context() == nil {
		t.Error("the zero Tree's Context is nil")
	}
}
