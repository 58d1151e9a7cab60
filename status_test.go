package bt_test

import (
	"encoding/json"
	"strings"
	"testing"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/blackboard"
)

// TestKindText: a Kind reads and writes as the name BehaviorTree.CPP uses in XML, as a
// Status does, also through encoding/json; an unknown name is an error.
func TestKindText(t *testing.T) {
	for _, k := range []Kind{KindAction, KindCondition, KindControl, KindDecorator, KindSubTree} {
		text, err := k.MarshalText()
		if err != nil || string(text) != k.String() {
			t.Errorf("%v.MarshalText() = %q, %v", k, text, err)
		}
		var back Kind
		if err := back.UnmarshalText(text); err != nil || back != k {
			t.Errorf("UnmarshalText(%q) = %v, %v; want %v", text, back, err, k)
		}
	}
	var k Kind
	if err := json.Unmarshal([]byte(`"Decorator"`), &k); err != nil || k != KindDecorator {
		t.Errorf(`json "Decorator" = %v, %v`, k, err)
	}
	if js, err := json.Marshal(map[string]Kind{"k": KindSubTree}); err != nil || string(js) != `{"k":"SubTree"}` {
		t.Errorf("json = %s, %v", js, err)
	}
	err := k.UnmarshalText([]byte("action"))
	if want := `"action" is not a node kind (want Action, Condition, Control, Decorator or SubTree)`; err == nil || err.Error() != want {
		t.Errorf("UnmarshalText(action): %v, want %s", err, want)
	}
}

// TestKindPort: a port of type Kind is written in XML by its name.
func TestKindPort(t *testing.T) {
	var got []Kind
	f := NewFactory()
	if err := f.Register(NewAction("Classify", func(n *Node) (Status, error) {
		k, err := Get[Kind](n, "kind")
		got = append(got, k)
		return Success, err
	}, InputPort[Kind]("kind", ""))); err != nil {
		t.Fatal(err)
	}
	if err := f.LoadString("t.xml", `<root BTCPP_format="4">
		<BehaviorTree ID="T"><Sequence><Classify kind="Action"/><Classify kind="{k}"/></Sequence></BehaviorTree></root>`); err != nil {
		t.Fatal(err)
	}
	tree, err := f.NewTree("T")
	if err != nil {
		t.Fatal(err)
	}
	if err := tree.Blackboard().Entry("k").Assign(blackboard.String("Control")); err != nil {
		t.Fatal(err)
	}
	if s, err := tree.TickOnce(); err != nil || s != Success || len(got) != 2 || got[0] != KindAction || got[1] != KindControl {
		t.Errorf("got %v, %v, kinds %v; want SUCCESS, [Action Control]", s, err, got)
	}
	err = f.LoadString("bad.xml", `<root BTCPP_format="4"><BehaviorTree ID="Bad"><Classify kind="Decorater"/></BehaviorTree></root>`)
	if want := `bad.xml:1:63: port "kind": cannot parse "Decorater" as bt.Kind: "Decorater" is not a node kind`; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("got %v, want an error containing %s", err, want)
	}
}
