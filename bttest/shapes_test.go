package bttest

import (
	"testing"

	"github.com/gobt/bt"
)

func TestShapes(t *testing.T) {
	for _, c := range []struct {
		name string
		spec *bt.Spec
		len  int
	}{{"flat", Flat(1000), 1001}, {"deep", Deep(10), 2047}} {
		tree, err := bt.NewTree(c.spec)
		if err != nil {
			t.Fatal(err)
		}
		visited := map[uint16]bool{}
		tree.Subscribe(func(ev bt.StatusChange) { visited[ev.Node.UID()] = true })
		if s, err := tree.TickOnce(); s != bt.Success || err != nil {
			t.Errorf("%s: %v, %v; want SUCCESS", c.name, s, err)
		}
		if tree.Len() != c.len || len(visited) != c.len {
			t.Errorf("%s: %d nodes, %d visited; want %d of each", c.name, tree.Len(), len(visited), c.len)
		}
	}
}
