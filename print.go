package bt

import (
	"io"
	"strings"
)

// printRule is the line BehaviorTree.CPP's printTreeRecursively writes before and
// after the tree.
const printRule = "----------------\n"

// Print writes the tree as BehaviorTree.CPP's printTreeRecursively does: a rule of
// sixteen dashes, each node's name (Node.Name) on a line of its own, indented three
// spaces a level, depth-first — a SubTree's line is followed by the nodes of its tree —
// and the rule again:
//
//	----------------
//	Sequence
//	   Fallback
//	      IsDoorClosed
//	      OpenDoor
//	----------------
//
// Call it between ticks, not while another goroutine ticks the tree.
func (t *Tree) Print(w io.Writer) error { return t.print(w, false) }

// PrintStatus is Print with each node's status after its name, "OpenDoor (RUNNING)":
// where a tree that runs has got to.
func (t *Tree) PrintStatus(w io.Writer) error { return t.print(w, true) }

func (t *Tree) print(w io.Writer, status bool) error {
	var b strings.Builder
	b.WriteString(printRule)
	t.Walk(func(n *Node, depth int) bool {
		b.WriteString(strings.Repeat("   ", depth))
		b.WriteString(n.Name())
		if status {
			b.WriteString(" (" + n.Status().String() + ")")
		}
		b.WriteByte('\n')
		return true
	})
	b.WriteString(printRule)
	_, err := io.WriteString(w, b.String())
	return err
}
