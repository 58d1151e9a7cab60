package blackboard

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"
)

// tree builds root ← sub (explicit remaps) ← auto (autoremap) ← deep (no autoremap).
func tree() (root, sub, auto, deep *Blackboard) {
	root = New()
	sub = root.NewChild(false)
	sub.Remap("in", "x")
	sub.Remap("out", "y")
	sub.Remap("glob", "@g")
	auto = sub.NewChild(true)
	auto.Remap("alias", "in")
	deep = auto.NewChild(false)
	return
}

func TestResolution(t *testing.T) {
	root, sub, auto, deep := tree()
	sub.Local("lit") // a SubTree literal: local even though autoremap is on below
	auto.Local("own")
	scopes := map[string]*Blackboard{"root": root, "sub": sub, "auto": auto, "deep": deep}
	cases := []struct {
		scope, key string
		owner      string // the scope whose storage holds the entry
		ownerKey   string
	}{
		{"root", "x", "root", "x"},
		{"root", "@x", "root", "x"},
		{"sub", "in", "root", "x"},               // explicit remap
		{"sub", "out", "root", "y"},              //
		{"sub", "glob", "root", "g"},             // remap onto a root key
		{"sub", "other", "sub", "other"},         // not remapped, no autoremap: private
		{"sub", "@x", "root", "x"},               // @ reaches the root from anywhere
		{"auto", "in", "root", "x"},              // autoremap, then the parent's remap
		{"auto", "alias", "root", "x"},           // remap onto a remapped key
		{"auto", "lit", "sub", "lit"},            // autoremap finds the parent's local literal
		{"auto", "other", "sub", "other"},        // autoremap lands in the parent
		{"auto", "own", "auto", "own"},           // local entries win over autoremap
		{"auto", "_private", "auto", "_private"}, // '_' keys never autoremap
		{"deep", "in", "deep", "in"},             // no autoremap: private again
		{"deep", "@in", "root", "in"},            // the root's own "in", not sub's remap
	}
	for _, c := range cases {
		b := scopes[c.scope]
		e := b.Entry(c.key)
		want := scopes[c.owner].Local(c.ownerKey)
		if e != want {
			t.Errorf("%s.Entry(%q) resolved to %q, want %s's %q", c.scope, c.key, e.Key(), c.owner, c.ownerKey)
		}
		if e.Key() != c.ownerKey {
			t.Errorf("%s.Entry(%q).Key() = %q, want %q", c.scope, c.key, e.Key(), c.ownerKey)
		}
		if again := b.Entry(c.key); again != e {
			t.Errorf("%s.Entry(%q): second call gives another handle", c.scope, c.key)
		}
	}
}

// A write through a child lands where the parent reads.
func TestWritesLandWhereReadsLook(t *testing.T) {
	root, sub, auto, _ := tree()
	mustSet(t, sub.Entry("out"), ValueOf(3))
	if v, err := Get[int](root.Entry("y")); err != nil || v != 3 {
		t.Errorf("root y = %v, %v", v, err)
	}
	if err := auto.Entry("calls").Assign(Int(1)); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(sub.Keys(), []string{"calls"}) || len(auto.Keys()) != 0 {
		t.Errorf("sub keys %v, auto keys %v", sub.Keys(), auto.Keys())
	}
	if !slices.Equal(root.Keys(), []string{"y"}) {
		t.Errorf("root keys %v", root.Keys())
	}
}

func TestLookup(t *testing.T) {
	root, sub, auto, _ := tree()
	if _, ok := sub.Lookup("in"); ok {
		t.Error("Lookup of an absent key succeeded")
	}
	if len(root.storage) != 0 || len(sub.storage) != 0 {
		t.Error("Lookup reserved an entry")
	}
	root.Entry("x") // reserved, still absent
	if _, ok := auto.Lookup("in"); ok {
		t.Error("Lookup found a reserved entry")
	}
	mustSet(t, root.Entry("x"), Int(1))
	e, ok := auto.Lookup("in")
	if !ok || e != root.Entry("x") {
		t.Errorf("Lookup(in) = %v, %v", e, ok)
	}
	if e, ok := auto.Lookup("@x"); !ok || e != root.Entry("x") {
		t.Errorf("Lookup(@x) = %v, %v", e, ok)
	}
	if _, ok := auto.Lookup(""); ok {
		t.Error("Lookup of an invalid key succeeded")
	}
	// a reserved local entry shadows the remap, for Lookup as for Entry
	sub.Local("in")
	if _, ok := sub.Lookup("in"); ok {
		t.Error("Lookup went past a local entry")
	}
}

func TestUnset(t *testing.T) {
	root, sub, _, _ := tree()
	x := root.Entry("x")
	mustSet(t, x, ValueOf(1))
	sub.Unset("in") // not in sub's own storage: nothing happens
	if !x.Exists() {
		t.Fatal("Unset followed a remap")
	}
	sub.Entry("in").Unset() // through the handle: the resolved entry
	if x.Exists() || !x.Load().IsEmpty() {
		t.Fatal("entry still exists")
	}
	if !slices.Equal(root.Keys(), []string{}) {
		t.Errorf("keys after unset: %v", root.Keys())
	}
	mustSet(t, sub.Entry("in"), Float(2))
	if x.Type() != tFloat64 || x.Load().Float() != 2 {
		t.Errorf("revived entry: %v %s", x.Type(), x.Load())
	}
	sub.Unset("@x")
	if x.Exists() {
		t.Error(`Unset("@x") did not reach the root`)
	}
	root.Unset("never")
	root.Unset("")
	if _, ok := root.storage["never"]; ok {
		t.Error("Unset reserved an entry")
	}
}

func TestInvalidKeys(t *testing.T) {
	bb := New()
	for _, key := range []string{"", "@", "@@x"} {
		e, err := bb.Resolve(key)
		if !errors.Is(err, ErrInvalidKey) || e == nil {
			t.Errorf("Resolve(%q) = %v, %v", key, e, err)
			continue
		}
		for _, ent := range []*Entry{e, bb.Entry(key), bb.Local(key)} {
			if err := ent.Set(Int(1)); !errors.Is(err, ErrInvalidKey) {
				t.Errorf("%q: Set: %v", key, err)
			}
			if err := ent.Assign(Int(1)); !errors.Is(err, ErrInvalidKey) {
				t.Errorf("%q: Assign: %v", key, err)
			}
			if err := ent.Declare(nil); !errors.Is(err, ErrInvalidKey) {
				t.Errorf("%q: Declare: %v", key, err)
			}
			if _, err := Get[int](ent); !errors.Is(err, ErrInvalidKey) {
				t.Errorf("%q: Get: %v", key, err)
			}
			ent.Unset()
			if ent.Exists() || !ent.Load().IsEmpty() {
				t.Errorf("%q: exists", key)
			}
		}
	}
	if len(bb.storage) != 0 {
		t.Errorf("invalid keys were stored: %v", bb.Keys())
	}
	// a remap onto an invalid key gives the invalid handle too
	child := bb.NewChild(false)
	child.Remap("a", "")
	if _, err := child.Resolve("a"); !errors.Is(err, ErrInvalidKey) {
		t.Errorf("remap onto \"\": %v", err)
	}
}

func TestScopes(t *testing.T) {
	root, sub, auto, deep := tree()
	if root.Parent() != nil || sub.Parent() != root || deep.Parent() != auto {
		t.Error("Parent")
	}
	for _, b := range []*Blackboard{root, sub, auto, deep} {
		if b.Root() != root {
			t.Error("Root")
		}
	}
}

// Children share the root's clock and enums.
func TestChildInheritsOptions(t *testing.T) {
	at := time.Unix(50, 0)
	root := New(WithClock(func() time.Time { return at }), WithEnums(testEnums))
	child := root.NewChild(false).NewChild(false)
	e := child.Entry("lvl")
	if err := e.Declare(tLevel); err != nil {
		t.Fatal(err)
	}
	mustSet(t, e, String("LOW"))
	if v, _ := Get[level](e); v != 1 || !e.Stamp().Equal(at) {
		t.Errorf("got %v at %v", v, e.Stamp())
	}
}

func TestKeysSortedAndExistingOnly(t *testing.T) {
	bb := New()
	for _, k := range []string{"b", "a", "c"} {
		mustSet(t, bb.Entry(k), Int(1))
	}
	bb.Entry("reserved")
	if err := bb.Entry("declared").Declare(nil); err != nil {
		t.Fatal(err)
	}
	bb.Unset("c")
	if got := bb.Keys(); !slices.Equal(got, []string{"a", "b", "declared"}) {
		t.Errorf("Keys = %v", got)
	}
}

func TestCloneAndCopyInto(t *testing.T) {
	at := time.Unix(10, 0)
	bb := New(WithClock(func() time.Time { return at }))
	x, s := bb.Entry("x"), bb.Entry("s")
	mustSet(t, x, ValueOf(1))
	mustSet(t, s, String("a"))
	if err := bb.Entry("empty").Declare(tInt); err != nil {
		t.Fatal(err)
	}
	bb.Entry("reserved")

	backup := bb.Clone()
	if !slices.Equal(backup.Keys(), []string{"empty", "s", "x"}) {
		t.Fatalf("backup keys %v", backup.Keys())
	}
	bx := backup.Entry("x")
	if bx == x || bx.Seq() != 1 || !bx.Stamp().Equal(at) || bx.Type() != tInt || bx.Load().Int() != 1 {
		t.Errorf("cloned x: %v %d %v %s", bx.Type(), bx.Seq(), bx.Stamp(), bx.Load())
	}
	if backup.Root() != backup || backup.Entry("empty").Type() != tInt {
		t.Error("clone of a root")
	}

	at = time.Unix(20, 0)
	mustSet(t, x, ValueOf(2))
	mustSet(t, bb.Entry("new"), Bool(true))
	bb.Unset("s")
	backup.CopyInto(bb)
	if !slices.Equal(bb.Keys(), []string{"empty", "s", "x"}) {
		t.Errorf("restored keys %v", bb.Keys())
	}
	if x.Load().Int() != 1 || x.Seq() != 3 || !x.Stamp().Equal(at) {
		t.Errorf("restored x through the old handle: %s seq %d", x.Load(), x.Seq())
	}
	if s.Load().Str() != "a" || s.Type() != nil {
		t.Errorf("restored s: %s %v", s.Load(), s.Type())
	}
	bb.CopyInto(bb) // no-op
	if len(bb.Keys()) != 3 {
		t.Error("CopyInto itself")
	}

	child := bb.NewChild(true)
	child.Remap("a", "b")
	cc := child.Clone()
	if cc.Parent() != bb || cc.Root() != bb || !cc.auto || !reflect.DeepEqual(cc.remaps, child.remaps) {
		t.Error("clone of a child")
	}
}

// AppendEntries lists the scope's own entries sorted by key, unset ones included, and
// allocates nothing when the slice has room.
func TestAppendEntries(t *testing.T) {
	root := New()
	b := root.NewChild(true)
	root.Entry("parent").Set(Int(1))
	b.Local("b").Set(Int(2))
	b.Local("a").Set(String("x"))
	b.Local("c").Set(Int(3))
	b.Unset("c")
	var keys []string
	list := b.AppendEntries(make([]*Entry, 0, 8))
	for _, e := range list {
		keys = append(keys, fmt.Sprintf("%s:%v", e.Key(), e.Exists()))
	}
	if b.Len() != 3 {
		t.Errorf("Len: %d, want 3", b.Len())
	}
	if got := strings.Join(keys, " "); got != "a:true b:true c:false" {
		t.Errorf("AppendEntries: %s", got)
	}
	if c := b.Clone(); c.Len() != 2 { // the existing entries
		t.Errorf("the clone's Len: %d, want 2", c.Len())
	}
	if n := testing.AllocsPerRun(100, func() { list = b.AppendEntries(list[:0]) }); n != 0 {
		t.Errorf("AppendEntries into a slice with room: %v allocations", n)
	}
}

// TestScopeIsSmall keeps a scope that is never written to its 64 bytes, with no map:
// a crowd of small trees keeps one per tree (issue 31). Its root is still found from
// any depth, and the first entry makes the map.
func TestScopeIsSmall(t *testing.T) {
	if size := unsafe.Sizeof(Blackboard{}); size > 64 {
		t.Errorf("a Blackboard takes %d bytes, more than 64", size)
	}
	root := New()
	if root.storage != nil {
		t.Error("New made the map of entries")
	}
	deep := root.NewChild(false).NewChild(true)
	if deep.Root() != root || root.Root() != root {
		t.Error("Root did not find the root scope")
	}
	mustSet(t, deep.Entry("@x"), Int(1))
	if e, ok := root.Lookup("x"); !ok || e.Load().Int() != 1 || root.Len() != 1 {
		t.Errorf("@x written from a grandchild: %v, %v, len %d", e, ok, root.Len())
	}
}
