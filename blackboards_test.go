package bt_test

import (
	"context"
	"strings"
	"testing"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/blackboard"
)

// The tree of BehaviorTree.CPP's tutorial 17 (blackboard backup).
const t17XML = `<root BTCPP_format="4">
  <BehaviorTree ID="MainTree">
    <Sequence>
      <Script code="val_A:= 'john' "/>
      <Script code="val_B:= 42 "/>
      <SaySomething message="{val_A}" />
      <SaySomething message="hello world" />
      <SubTree ID="Sub" val="{val_A}" _autoremap="true" />
      <SaySomething message="{reply}" />
    </Sequence>
  </BehaviorTree>
  <BehaviorTree ID="Sub">
    <Sequence>
      <SaySomething message="{val}" />
      <SaySomething message="{val_B}" />
      <Script code="reply:= 'done' "/>
    </Sequence>
  </BehaviorTree>
</root>`

// t17Tree builds tutorial 17's tree; said collects what SaySomething says.
func t17Tree(t *testing.T, said *[]string) *Tree {
	t.Helper()
	f := NewFactory()
	say := NewAction("SaySomething", func(n *Node) (Status, error) {
		msg, err := Get[string](n, "message")
		*said = append(*said, msg)
		return Success, err
	}, InputPort[string]("message", ""))
	if err := f.Register(say); err != nil {
		t.Fatal(err)
	}
	if err := f.LoadString("t17.xml", t17XML); err != nil {
		t.Fatal(err)
	}
	tree, err := f.NewTree("MainTree")
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// Tutorial 17: the blackboards of every scope backed up before a run and restored
// after it, then exported to JSON and imported into another tree.
func TestBlackboardBackupRestoreJSON(t *testing.T) {
	var said []string
	tree := t17Tree(t, &said)
	scopes := tree.Subtrees()
	if len(scopes) != 2 || scopes[0].InstanceName != "" || scopes[0].TreeID != "MainTree" ||
		scopes[1].InstanceName != "Sub::6" || scopes[1].TreeID != "Sub" {
		t.Fatalf("Subtrees: %+v", scopes)
	}
	keysBefore := [][]string{scopes[0].Blackboard.Keys(), scopes[1].Blackboard.Keys()}
	backup := BlackboardBackup(tree)
	run := func() {
		t.Helper()
		if s, err := tree.TickWhileRunning(context.Background(), 0); s != Success || err != nil {
			t.Fatalf("run: %v, %v", s, err)
		}
	}
	run()
	if err := BlackboardRestore(backup, tree); err != nil {
		t.Fatal(err)
	}
	for i, s := range tree.Subtrees() {
		if got := strings.Join(s.Blackboard.Keys(), " "); got != strings.Join(keysBefore[i], " ") {
			t.Errorf("scope %d after the restore: keys %q, want %q", i, got, keysBefore[i])
		}
	}
	if v := tree.Blackboard().Entry("val_A").Load(); !v.IsEmpty() {
		t.Errorf("val_A holds %v after the restore", v)
	}
	run()
	if got := strings.Join(said, ", "); got != "john, hello world, john, 42, done, john, hello world, john, 42, done" {
		t.Errorf("said %s", got)
	}

	data, err := ExportTreeToJSON(tree)
	if err != nil {
		t.Fatal(err)
	}
	// An empty scope is null, as BehaviorTree.CPP writes it.
	want := `{"MainTree":{"reply":"done","val_A":"john","val_B":42},"Sub::6":null}`
	if string(data) != want {
		t.Errorf("ExportTreeToJSON:\n%s\nwant\n%s", data, want)
	}
	other := t17Tree(t, &said)
	if err := ImportTreeFromJSON(data, other); err != nil {
		t.Fatal(err)
	}
	if v, err := blackboard.Get[int](other.Blackboard().Entry("val_B")); err != nil || v != 42 {
		t.Errorf("imported val_B = %v, %v", v, err)
	}
	if again, _ := ExportTreeToJSON(other); string(again) != want {
		t.Errorf("export of the imported tree: %s", again)
	}

	for _, c := range []struct{ json, err string }{
		{`{"MainTree": {}}`, `bt: ImportTreeFromJSON: the blackboards do not match the tree's: missing ["Sub::6"], unknown []`},
		{`{"MainTree": {}, "Sub::6": null, "Sub::9": {}}`, `unknown ["Sub::9"]`},
		{`{"MainTree": {"x": [1, "a"}}`, `bt: ImportTreeFromJSON: invalid character`},
		{`null`, `want an object of blackboards, got null`},
		{`{"MainTree": {"@": 1}, "Sub::6": null}`, `bt: ImportTreeFromJSON: MainTree: invalid blackboard key "@"`},
	} {
		if err := ImportTreeFromJSON([]byte(c.json), other); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("import %s: %v, want %s", c.json, err, c.err)
		}
	}
	if err := BlackboardRestore(backup[:1], other); err == nil || err.Error() != "bt: BlackboardRestore: the backup has 1 blackboards, the tree 2" {
		t.Errorf("a backup of another tree: %v", err)
	}
}
