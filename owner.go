package bt

// WithOwner makes v the tree's owner: what its nodes act for — the game entity, the
// robot, the user session. A leaf reads it with Owner, so one definition (a Factory's
// tree, or one Spec, with its leaf models made once) serves any number of trees, each
// with its own owner:
//
//	isAlive := bt.NewCondition("IsAlive", func(n *bt.Node) bool {
//		return bt.Owner[*Agent](n).HP > 0
//	})
//	…
//	tree, err := factory.NewTree("Agent", bt.WithOwner(agent))
//
// Reading the owner is a few loads and a type comparison: no map, no blackboard entry,
// no port. A tree built without WithOwner has none.
func WithOwner(v any) Option { return func(t *Tree) { t.owner = v } }

// Owner returns the owner of n's tree (WithOwner) as a T. It is a type assertion,
// inlined where it is called: when the tree has no owner, or one of another type, it
// panics, which stops the tick with a *NodeError that names the node and both types
// (or goes on under WithRepanic).
func Owner[T any](n *Node) T {
	return n.meta.scope.tree.owner.(T)
}

// Owner returns the tree's owner (WithOwner), or nil.
func (t *Tree) Owner() any { return t.owner }
