package bt_test

import (
	"log/slog"
	"strings"
	"testing"

	. "github.com/gobt/bt"
)

// quietFactory is a factory that keeps its notes without logging them.
func quietFactory() *Factory {
	f := NewFactory()
	f.SetLogger(slog.New(slog.DiscardHandler))
	return f
}

// notes returns the notes of f, one per line.
func notes(f *Factory) string {
	var b strings.Builder
	for _, n := range f.Notes() {
		b.WriteString(n.String() + "\n")
	}
	return b.String()
}

// TestUserNodeHidesBehaviacBuiltin: a program migrating from BehaviorTree.CPP may have
// node types named as the builtins bt adds (behaviac's Log, Loop …); registering one
// hides the builtin, with a note. BehaviorTree.CPP's own builtin IDs stay reserved.
func TestUserNodeHidesBehaviacBuiltin(t *testing.T) {
	f := quietFactory()
	var logged []string
	logAction := NewAction("Log", func(n *Node) Status {
		msg, _ := Get[string](n, "msg")
		logged = append(logged, msg)
		return Success
	}, InputPort[string]("msg", "what to log"))
	if err := f.Register(logAction, NewCondition("AlwaysRunning", func() bool { return false })); err != nil {
		t.Fatal(err)
	}
	if got, want := notes(f), `node type "Log" hides the builtin Decorator Log (not a BehaviorTree.CPP node)
node type "AlwaysRunning" hides the builtin Action AlwaysRunning (not a BehaviorTree.CPP node)
`; got != want {
		t.Errorf("notes:\n%s\nwant\n%s", got, want)
	}
	if m, _ := f.Model("Log"); m != logAction {
		t.Errorf("Model(Log) is not the user's")
	}
	if err := f.LoadString("t.xml", `<root BTCPP_format="4"><BehaviorTree ID="T">
<Fallback><AlwaysRunning/><Log msg="hello"/></Fallback></BehaviorTree></root>`); err != nil {
		t.Fatal(err)
	}
	tree, err := f.NewTree("")
	if err != nil {
		t.Fatal(err)
	}
	if s, err := tree.TickOnce(); s != Success || err != nil || len(logged) != 1 || logged[0] != "hello" {
		t.Errorf("tick: %v %v, logged %q", s, err, logged)
	}
	for _, id := range []string{"Log", "Sequence", "Inverter", "SubTree", "LoopInt", "SequenceStar"} {
		if err := f.Register(NewAction(id, func() Status { return Success })); err == nil ||
			err.Error() != `bt: node "`+id+`" is already registered` {
			t.Errorf("register %s: %v", id, err)
		}
	}
}

// TestRegisterChecksPortNames: a model's port names follow BehaviorTree.CPP's
// IsAllowedPortName, checked when the model is registered.
func TestRegisterChecksPortNames(t *testing.T) {
	for name, want := range map[string]string{
		"port name":  `bt: node "N": port name "port name": contains ' '`,
		"port.name":  `bt: node "N": port name "port.name": contains '.'`,
		"port<T>":    `bt: node "N": port name "port<T>": contains '<'`,
		"2nd":        `bt: node "N": port name "2nd" starts with a digit`,
		"ID":         `bt: node "N": port name "ID" is reserved: every node has that attribute`,
		"_onHalted":  `bt: node "N": port name "_onHalted" is reserved: every node has that attribute`,
		"_autoremap": `bt: node "N": port name "_autoremap" is reserved: every node has that attribute`,
	} {
		err := NewFactory().Register(NewAction("N", func() Status { return Success }, InputPort[int](name, "")))
		if err == nil || err.Error() != want {
			t.Errorf("%q: %v, want %s", name, err, want)
		}
	}
	err := NewFactory().Register(ModelOf[badPortTag]("B", KindAction))
	if err == nil || !strings.Contains(err.Error(), `field Goal: port name "goal.x": contains '.'`) {
		t.Errorf("ModelOf: %v", err)
	}
}

type badPortTag struct {
	Goal In[int] `port:"goal.x"`
}

func (*badPortTag) Tick(*Node) Status { return Success }
