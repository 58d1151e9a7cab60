package blackboard

import (
	"errors"
	"maps"
	"strings"
	"testing"
)

func TestDump(t *testing.T) {
	root := New()
	root.Entry("parent_value").Set(Int(42))
	root.Entry("declared").Declare(tInt8)
	root.Entry("generic").Declare(nil)
	root.Entry("anything").Declare(tAny)
	root.Entry("anything").Set(Float(2.5))
	root.Entry("reserved") // not created: not shown
	root.Entry("gone").Set(Bool(true))
	root.Unset("gone")
	child := root.NewChild(true)
	child.Remap("local_name", "parent_value") // BT.CPP issue 408: the parent's type is shown
	child.Remap("later", "not_yet")
	var b strings.Builder
	if err := root.Dump(&b); err != nil {
		t.Fatal(err)
	}
	if err := child.Dump(&b); err != nil {
		t.Fatal(err)
	}
	want := `anything (any) = 2.5
declared (int8) = <empty>
generic (any) = <empty>
parent_value (int64) = 42
[later] remapped to port of parent tree [not_yet]
[local_name] remapped to port of parent tree [parent_value] (int64) = 42
_autoremap: keys not stored here and not starting with '_' are the parent tree's
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	if got := child.Remappings(); !maps.Equal(got, map[string]string{"local_name": "parent_value", "later": "not_yet"}) {
		t.Errorf("Remappings = %v", got)
	}
	if !child.AutoRemap() || root.AutoRemap() || root.Remappings() != nil {
		t.Error("root and child: wrong AutoRemap or Remappings")
	}
	if err := root.Dump(failingWriter{}); err == nil {
		t.Error("a failing writer: no error")
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }
