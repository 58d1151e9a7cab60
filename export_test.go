package bt

import (
	"reflect"
	"runtime"
	"slices"
	"strings"
	"unsafe"
)

// Internals that the tests of package bt_test (which use package bttest) need.

// TakeWakeUp consumes the tree's pending wake-ups and reports whether there were any.
func TakeWakeUp(t *Tree) bool { return t.woken() }

// Wildcard is wildcard, the matching of substitution rules' path patterns.
func Wildcard(pattern, text string) bool { return wildcard(pattern, text) }

// NumSubstitutions returns the number of substitution rules of f.
func NumSubstitutions(f *Factory) int { return len(f.subst) }

// PendingWakeUps returns the number of wake-ups the tree has not consumed.
func PendingWakeUps(t *Tree) uint32 { return uint32(t.wakes.Load()) }

// SizeofNodeMeta is the size of a node's meta (see TestNodeSizes).
const SizeofNodeMeta = unsafe.Sizeof(nodeMeta{})

// Catalogue returns the builtin catalogue: the IDs of the nodes each file implements.
func Catalogue() map[string][]string {
	files := map[string][]string{}
	for _, c := range catalogue {
		for _, m := range c.models {
			files[c.file] = append(files[c.file], m.ID)
		}
	}
	return files
}

// Dispatch returns what a tick of n calls, to compare before and after tick functions
// are set and removed.
func Dispatch(n *Node) any { return n.t }

// HasConditions reports whether n's dispatch runs its pre/post conditions.
func HasConditions(n *Node) bool {
	_, ok := n.t.(*condNode)
	return ok
}

// PanicSiteFrames returns the names of the frames panicSite stops at, sorted, and the
// names the runtime gives the functions they are meant to be (see TestPanicSiteFrames).
func PanicSiteFrames() (names, functions []string) {
	for name := range siteFrames {
		names = append(names, name)
	}
	pkg := reflect.TypeFor[Tree]().PkgPath() + "."
	for _, f := range []any{
		action0.tick, action1.tick, action2.tick, cond0.tick, cond1.tick, cond2.tick,
		(*userNode).tick, (*userNode).Halt, (*Node).callPre, (*Node).callPost, (*Node).guardCond,
		(*Node).protect, (*family).resetFrom, (*Tree).TickOnce, (*Tree).tickRoot, (*Tree).halt, (*Tree).notify, (*Tree).handOver,
	} {
		name := runtime.FuncForPC(reflect.ValueOf(f).Pointer()).Name()
		functions = append(functions, strings.TrimPrefix(name, pkg))
	}
	slices.Sort(names)
	slices.Sort(functions)
	return names, functions
}

// Observed reports whether the tree records its changes for subscribers: it has an
// observation, and its status bytes are marked (all of them, or none when it has none).
func Observed(t *Tree) bool {
	for i := range t.status {
		if t.status[i].observed() != (t.obs != nil) {
			panic("a status byte disagrees with the tree's observation")
		}
	}
	return t.obs != nil
}
