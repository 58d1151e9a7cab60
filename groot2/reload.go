package groot2

import (
	"bytes"
	"crypto/rand"

	"github.com/gobt/bt"
	"github.com/gobt/bt/btlog"
)

// A tree reloaded with a new definition (bt.Tree.Reload) is a new tree to Groot2, as
// when a BehaviorTree.CPP program attaches a new tree to a new publisher: the
// publisher takes a new UUID, which Groot2 sees in the next reply and answers by
// asking for the tree again (FULLTREE), and serves the new tree's XML, statuses and
// blackboards. The hooks of the nodes that a node of the new tree matches (see
// ReloadReport.NewUID) move to it; the others go, as do the recorded transitions,
// whose UIDs named the old nodes.

// newUUID returns a version 4 UUID, as BehaviorTree.CPP makes it.
func newUUID() (u [16]byte) {
	rand.Read(u[:])
	u[6] = u[6]&0x4f | 0x40
	u[8] = u[8]&0xbf | 0x80
	return u
}

// reloaded follows a reload of the tree (see bt.Tree.OnReload), on the ticking
// goroutine, between ticks: no breakpoint is paused.
func (p *Publisher) reloaded(r *bt.ReloadReport) {
	var xml bytes.Buffer
	err := btlog.WriteTreeXML(&xml, p.tree)
	p.mu.Lock()
	if err == nil { // (it writes any tree that was built)
		p.xml = xml.Bytes()
	}
	p.uuid = newUUID()
	p.scopes, p.offset, p.status = nil, nil, nil
	p.layout()
	if p.cancel != nil { // observing: the statuses are followed from here
		for n := range p.tree.Nodes() {
			p.status[p.offset[n.UID()-1]] = byte(n.Status())
		}
	}
	p.dirty = p.dirty[:0]
	for pos := range p.hooks {
		moved := map[uint16]*hook{}
		for uid, h := range p.hooks[pos] {
			if h.uid = r.NewUID(uid); h.uid != 0 {
				moved[h.uid] = h
				p.dirty = append(p.dirty, hookKey{h.uid, position(pos)}) // a node re-created lost its tick function
			}
		}
		p.hooks[pos] = moved
	}
	p.recorded, p.next = p.recorded[:0], 0
	p.mu.Unlock()
	p.syncHooks()
}
