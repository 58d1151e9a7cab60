package bt

import "unsafe"

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
	_, ok := n.t.(*hookedNode)
	return ok
}
