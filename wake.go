package bt

import (
	"context"
	"math"
	"sync/atomic"
	"time"
)

// Wake-ups, and why halting a node takes its wake-up back: see docs/architecture.md, "Wake-ups".

// maxPending bounds the count of pending wake-ups (a tree ticked with TickExactlyOnce
// never consumes them), so that it never spills into the epoch.
const maxPending = 1<<31 - 1

// post records a wake-up, rings the doorbell and returns the wake-up's epoch.
func (t *Tree) post() uint32 { return t.postN(1) }

// postN records n wake-ups (up to maxPending pending), rings the doorbell and returns
// their epoch.
func (t *Tree) postN(n uint32) uint32 {
	for {
		v := t.wakes.Load()
		pending := min(uint64(uint32(v))+uint64(n), maxPending)
		w := v&^math.MaxUint32 | pending // the epoch and the new count
		if t.wakes.CompareAndSwap(v, w) {
			if bell := t.bell.Load(); bell != nil {
				select {
				case *bell <- struct{}{}:
				default:
				}
			}
			return uint32(v >> 32)
		}
	}
}

// revoke takes back a wake-up of epoch e, if that epoch still runs.
func (t *Tree) revoke(e uint32) {
	for {
		v := t.wakes.Load()
		if uint32(v>>32) != e || uint32(v) == 0 || t.wakes.CompareAndSwap(v, v-1) {
			return
		}
	}
}

// woken consumes the pending wake-ups and reports whether there were any; the next
// epoch begins.
func (t *Tree) woken() bool {
	for {
		v := t.wakes.Load()
		if uint32(v) == 0 {
			return false
		}
		if t.wakes.CompareAndSwap(v, (v>>32+1)<<32) {
			return true
		}
	}
}

// wakeClaim is the last wake-up a node asked for, which halting the node takes back.
// (The epoch of a wake-up is kept in 32 bits, and 0 means none: the rare wake-up of
// the epoch 2³²-1 is not taken back, which costs one tick.)
type wakeClaim struct {
	epoch atomic.Uint32 // the wake-up's epoch + 1; 0: none
}

// post asks t for a wake-up on behalf of the node. A node has at most one pending per
// epoch, so that taking it back leaves none.
func (c *wakeClaim) post(t *Tree) {
	e := t.post() + 1
	if c.epoch.Swap(e) == e && e != 0 {
		t.revoke(e - 1)
	}
}

// revoke takes back the node's wake-up, if it is still pending.
func (c *wakeClaim) revoke(t *Tree) {
	if e := c.epoch.Swap(0); e != 0 {
		t.revoke(e - 1)
	}
}

// WakeUp asks the tree to tick again without waiting: TickOnce re-ticks a Running
// root at once and TickWhileRunning cuts its sleep short. It is safe to call from any
// goroutine. Nodes call Node.WakeUp instead, so that halting them takes it back.
func (t *Tree) WakeUp() { t.post() }

// WakeUp asks the tree to tick again soon, on behalf of the node: see Tree.WakeUp. It
// is safe to call from any goroutine, such as an async action's. When the node is
// halted before the tree acted on the wake-up, the wake-up is dropped.
//
// It reads only what never changes once the tree is built — the node's tree and UID —
// and atomics: the node's dispatch, which tick functions (SetPreTick) and pre/post
// conditions wrap and unwrap between ticks, is the ticking goroutine's.
func (n *Node) WakeUp() { n.claim(true).post(n.Tree()) }

// claim returns where the node's last wake-up is kept, for its halt to take it back:
// in the tree's claims, by UID. The first node to ask for a wake-up makes them
// (create); most trees never need them, and then claim returns nil. (Builtin nodes
// that yield keep a claim of their own, saved in their state.)
func (n *Node) claim(create bool) *wakeClaim {
	t := n.Tree()
	cs := t.claims.Load()
	if cs == nil {
		if !create {
			return nil
		}
		fresh := make([]wakeClaim, len(t.nodes))
		t.claims.CompareAndSwap(nil, &fresh) // WakeUp may be called from any goroutine
		cs = t.claims.Load()
	}
	return &(*cs)[n.meta.uid-1]
}

// revokeWake takes back the wake-up the node asked for, if it is still pending. Every
// halt of a running node does (see Node.halt).
func (n *Node) revokeWake() {
	if c := n.claim(false); c != nil {
		c.revoke(n.Tree())
	}
}

// saveWake saves, as the field "wake", whether the wake-up the node asked for with
// WakeUp is pending, so that the restored tree takes it back on halt too.
func (n *Node) saveWake(w *stateWriter) {
	if c := n.claim(false); c != nil {
		c.saveState(w, "wake")
	}
}

// restoreWake asks again for the wake-up that was pending; the node's claim is made
// then, as WakeUp makes it.
func (n *Node) restoreWake(r *stateReader) {
	if r.flag("wake") && r.applying() {
		n.claim(true).post(n.Tree())
	}
}

// user returns the userNode that runs n's behavior, or nil for a builtin node.
func (n *Node) user() *userNode {
	u, _ := n.core().(*userNode)
	return u
}

// doorbell returns the channel rung at each wake-up (see post), made by the first
// goroutine that waits for one: a tree that is only ticked with TickOnce needs none.
// It is made before the waiter looks for a pending wake-up, so that a wake-up posted
// after that look rings it.
func (t *Tree) doorbell() chan struct{} {
	if bell := t.bell.Load(); bell != nil {
		return *bell
	}
	c := make(chan struct{}, 1)
	t.bell.CompareAndSwap(nil, &c)
	return *t.bell.Load()
}

// Sleep waits until d has elapsed on the tree's clock, a wake-up arrives (woken is then
// true; the wake-up is consumed) or ctx is done (err is ctx's error). Use it to write
// your own tick loop: tick, then Sleep until the next tick is due.
func (t *Tree) Sleep(ctx context.Context, d time.Duration) (woken bool, err error) {
	switch {
	case ctx == nil:
		return false, errNilContext
	case t.cfg == nil: // the zero Tree
		return false, ErrEmptyTree
	}
	var sl sleeper
	defer sl.stop()
	return sl.sleep(ctx, t, d)
}

// sleeper is an interruptible sleep whose timer is reused across calls.
type sleeper struct {
	timer Timer
	ring  chan struct{}
}

func (sl *sleeper) sleep(ctx context.Context, t *Tree, d time.Duration) (woken bool, err error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	bell := t.doorbell()
	if t.woken() {
		return true, nil
	}
	deadline := t.cfg.clock.Now().Add(d)
	if sl.timer == nil {
		ring := make(chan struct{}, 1)
		sl.ring = ring
		sl.timer = t.cfg.clock.AfterFunc(d, func() {
			select {
			case ring <- struct{}{}:
			default:
			}
		})
	} else {
		sl.timer.Reset(d)
	}
	defer func() {
		sl.timer.Stop()
		select { // a timer that fired as we were woken must not shorten the next sleep
		case <-sl.ring:
		default:
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case <-bell:
			if t.woken() { // else the wake-up was taken back
				return true, nil
			}
		case <-sl.ring:
			if !t.cfg.clock.Now().Before(deadline) { // else the late ring of an earlier sleep
				return false, nil
			}
		}
	}
}

func (sl *sleeper) stop() {
	if sl.timer != nil {
		sl.timer.Stop()
	}
}

// pending reports whether the node's wake-up is still pending: asked for in the epoch
// that runs, and neither consumed nor taken back since.
func (c *wakeClaim) pending(t *Tree) bool {
	e, v := c.epoch.Load(), t.wakes.Load()
	return e != 0 && e-1 == uint32(v>>32) && uint32(v) != 0
}

// saveState saves, as the field name, whether the node's wake-up is pending: a yield
// that TickOnce has not acted on yet (after TickExactlyOnce), or the ring of a timer.
func (c *wakeClaim) saveState(w *stateWriter, name string) {
	if c.pending(w.tree) {
		w.flag(name, true)
		w.claims++
	}
}

// restoreState asks again for the wake-up the field name says was pending.
func (c *wakeClaim) restoreState(r *stateReader, name string) {
	if r.flag(name) && r.applying() {
		c.post(r.n.Tree())
	}
}
