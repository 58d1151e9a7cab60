package btxml_test

import (
	"testing"

	"github.com/gobt/bt/btxml"
)

// TestValidPortName checks the port-name rules against the cases of
// BehaviorTree.CPP's gtest_name_validation (IsAllowedPortName).
func TestValidPortName(t *testing.T) {
	for _, ok := range []string{"input", "output_value", "myPort123", "Port_With_Underscore", "kebab-name", "Tür_öffnen", "root"} {
		if err := btxml.ValidPortName(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for name, want := range map[string]string{
		"":           "empty port name",
		"1port":      `port name "1port" starts with a digit`,
		"123":        `port name "123" starts with a digit`,
		"_private":   `port name "_private" must start with a letter`,
		"проверка":   `port name "проверка" must start with a letter`,
		"name":       `port name "name" is reserved: every node has that attribute`,
		"ID":         `port name "ID" is reserved: every node has that attribute`,
		"_autoremap": `port name "_autoremap" is reserved: every node has that attribute`,
		"_failureIf": `port name "_failureIf" is reserved: every node has that attribute`,
		"_successIf": `port name "_successIf" is reserved: every node has that attribute`,
		"_skipIf":    `port name "_skipIf" is reserved: every node has that attribute`,
		"_while":     `port name "_while" is reserved: every node has that attribute`,
		"_onSuccess": `port name "_onSuccess" is reserved: every node has that attribute`,
		"_onFailure": `port name "_onFailure" is reserved: every node has that attribute`,
		"_onHalted":  `port name "_onHalted" is reserved: every node has that attribute`,
		"_post":      `port name "_post" is reserved: every node has that attribute`,
		"port name":  `port name "port name": contains ' '`,
		"port.name":  `port name "port.name": contains '.'`,
		"port<T>":    `port name "port<T>": contains '<'`,
		"a\tb":       `port name "a\tb": contains control character U+0009`,
		"a:b":        `port name "a:b": contains ':'`,
	} {
		if err := btxml.ValidPortName(name); err == nil || err.Error() != want {
			t.Errorf("%q: %v, want %s", name, err, want)
		}
	}
}

// TestSubTreeModelPortNames: the ports a TreeNodesModel declares for a subtree are
// checked as BehaviorTree.CPP's validatePortName does, with their positions; the
// entry of the SubTree node itself keeps its _autoremap.
func TestSubTreeModelPortNames(t *testing.T) {
	_, err := btxml.Parse("m.xml", []byte(`<root BTCPP_format="4"><TreeNodesModel>
<SubTree ID="Nav"><input_port name="goal.x"/><output_port name="2nd"/><input_port name="ok"/></SubTree>
<SubTree ID="SubTree"><input_port name="_autoremap" type="bool"/></SubTree>
<Action ID="Move"><input_port name="port name"/></Action>
</TreeNodesModel></root>`))
	want := "m.xml:2:37: port name \"goal.x\": contains '.'\nm.xml:2:65: port name \"2nd\" starts with a digit"
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
}

// FuzzPortName checks that IsPortName, the engine's allocation-free test, agrees
// with ValidPortName.
func FuzzPortName(f *testing.F) {
	for _, s := range []string{"goal", "port name", "_skipIf", "ID", "a\x7f", "Tür", "a\xffb", "2nd", "x.y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if ok, err := btxml.IsPortName(s), btxml.ValidPortName(s); ok != (err == nil) {
			t.Errorf("%q: IsPortName %v, ValidPortName %v", s, ok, err)
		}
	})
}
