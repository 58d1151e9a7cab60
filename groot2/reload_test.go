package groot2

import (
	"bytes"
	"testing"

	"github.com/gobt/bt"
	"github.com/gobt/bt/btlog"
)

// A client connected to a reloaded tree sees a new tree: a new UUID in the replies,
// the new XML, statuses by the new UIDs; a hook follows its node to its new UID.
func TestReload(t *testing.T) {
	tree, n, _, c := serve(t, Options{}, mainTree(`<Sequence><Count name="a"/><Count name="b"/></Sequence>`))
	before := c.raw(requestHeader(reqFullTree))
	c.request(reqHookInsert, hookBody(3, replace, pre, false)) // b fails
	tick(t, tree, bt.Failure)
	r, err := tree.Reload(n.factory(t, mainTree(`<Sequence><Count name="x"/><Count name="a"/><Count name="b"/></Sequence>`)), "")
	if err != nil || r.NewUID(3) != 4 {
		t.Fatalf("reload: %v, %v", r, err)
	}
	after := c.raw(requestHeader(reqFullTree))
	var want bytes.Buffer
	if err := btlog.WriteTreeXML(&want, tree); err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(before[0][requestHeaderSize:], after[0][requestHeaderSize:]) {
		t.Error("the UUID did not change")
	}
	if len(after) != 2 || string(after[1]) != want.String() || !bytes.Contains(after[1], []byte(`name="x"`)) {
		t.Errorf("FULLTREE after the reload: %q, want %q", after, want.String())
	}
	if dump := c.request(reqHooksDump); !bytes.Contains(dump[0], []byte(`"uid":4`)) {
		t.Errorf("HOOKS_DUMP %s: the hook did not follow b to UID 4", dump[0])
	}
	tick(t, tree, bt.Failure)
	if n.get("x") != 1 || n.get("a") != 2 || n.get("b") != 0 {
		t.Errorf("counts x %d a %d b %d: b's hook should replace it", n.get("x"), n.get("a"), n.get("b"))
	}
	if st := c.request(reqStatus); len(st) != 1 || len(st[0]) != 3*4 {
		t.Errorf("STATUS %v: want 4 nodes", st)
	}
}
