package btlog

import (
	"time"

	"github.com/gobt/bt"
)

// NodeInfo describes a node of a logged tree: what the loggers print, taken from the
// tree when a logger attaches to it, or from the XML of a .btlog file.
type NodeInfo struct {
	UID    uint16
	Parent uint16 // the parent's UID; 0 for the root
	ID     string // the node's type: "Sequence", a registered action's ID, "SubTree"
	Name   string // the instance name (the ID when the XML gives none; for a SubTree, its tree's ID)
	Path   string // the full path, as bt.Node.Path writes it: "nav/Sequence::7"
	Kind   bt.Kind
}

// Transition is one status change of a node: Offset after the log started (the time
// the logger attached to the tree, or a .btlog file's first timestamp), the node's UID,
// and its status before and after.
type Transition struct {
	Offset   time.Duration
	UID      uint16
	Previous bt.Status
	Status   bt.Status
}

// nodesOf describes the nodes of t, indexed by UID-1.
func nodesOf(t *bt.Tree) []NodeInfo {
	nodes := make([]NodeInfo, t.Len())
	t.Walk(func(n *bt.Node, _ int) bool {
		i := n.UID() - 1 // its Parent is set: parents come first
		nodes[i] = NodeInfo{UID: n.UID(), Parent: nodes[i].Parent, ID: n.ID(), Name: n.Name(), Path: n.Path(), Kind: n.Kind()}
		for i := range n.NumChildren() {
			nodes[n.Child(i).UID()-1].Parent = n.UID()
		}
		return true
	})
	return nodes
}
