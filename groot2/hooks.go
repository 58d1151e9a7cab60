package groot2

import (
	"cmp"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/gobt/bt"
)

// Hooks live in the publisher's maps, which the request handlers change under p.mu.
// A node with a hook gets the publisher's tick function (bt.Node.SetPreTick or
// SetPostTick), which looks its hook up each time it runs; the functions are set and
// removed on the ticking goroutine (sync, syncHooks), as bt requires, from the list of
// nodes whose hooks changed (dirty):
//
//   - at the start of the next tick, through bt.Tree.Do;
//   - and when a hook returns, so that hooks set while the tree was paused at a
//     breakpoint apply to the rest of that tick, as in BehaviorTree.CPP.
//
// A tick function whose hook is gone by the time it runs does nothing.

// insertHooks inserts (or changes) the hooks of a HOOK_INSERT request: a hook, or an
// array of hooks, as JSON. All are checked before any is inserted.
func (p *Publisher) insertHooks(body []byte) error {
	objs, err := parseJSON(body, true)
	if err != nil {
		return err
	}
	hooks := make([]*hook, len(objs))
	for i, o := range objs {
		if hooks[i], err = parseHook(o); err != nil {
			return err
		}
		if p.tree.Node(hooks[i].uid) == nil {
			return errors.New(errNodeNotFound)
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed { // a request read before Close closed the socket: the tree keeps no hook
		return errClosed
	}
	for _, h := range hooks {
		old := p.hooks[h.position][h.uid]
		if old == nil {
			p.hooks[h.position][h.uid] = h
			p.changedHook(hookKey{h.uid, h.position})
			continue
		}
		// Changed in place, as BehaviorTree.CPP's from_json does, so that a node paused
		// at it sees the change: a breakpoint that becomes a replacement lets it go with
		// the new desired status, and so does one disabled.
		if old.mode == breakpoint && h.mode == replace {
			old.ready = true
		}
		old.enabled, old.once, old.mode, old.desired = h.enabled, h.once, h.mode, h.desired
		p.wake.Broadcast()
	}
	return nil
}

// removeHook removes the hook of a HOOK_REMOVE request ({"uid":…,"position":…}).
func (p *Publisher) removeHook(body []byte) error {
	objs, err := parseJSON(body, false)
	if err != nil {
		return err
	}
	uid, err := objs[0].uid()
	if err != nil {
		return err
	}
	pos, err := objs[0].position()
	if err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.hooks[pos][uid] == nil {
		return errors.New(errNodeNotFound)
	}
	p.dropHook(hookKey{uid, pos})
	p.wake.Broadcast()
	return nil
}

// dropHook removes a hook, disabled first so that a node paused at it goes on. p.mu
// is held; the caller wakes the paused nodes.
func (p *Publisher) dropHook(k hookKey) {
	p.hooks[k.pos][k.uid].enabled = false
	delete(p.hooks[k.pos], k.uid)
	p.changedHook(k)
}

func (p *Publisher) removeAllHooks() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for pos := range p.hooks {
		for uid := range p.hooks[pos] {
			p.dropHook(hookKey{uid, position(pos)})
		}
	}
	p.wake.Broadcast()
}

// enableAllHooks enables or disables every hook; disabled breakpoints let their
// nodes go on.
func (p *Publisher) enableAllHooks(on bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.enableAll(on)
}

func (p *Publisher) enableAll(on bool) {
	for _, hooks := range p.hooks {
		for _, h := range hooks {
			h.enabled = on
		}
	}
	p.wake.Broadcast()
}

// unlockBreakpoint sets the outcome of a hook (BREAKPOINT_UNLOCK) and lets a node paused
// at it go on: with SUCCESS or FAILURE it is not ticked and returns that status, with
// any other status it resumes. A breakpoint unlocked before it is reached lets the
// next pass go through at once.
func (p *Publisher) unlockBreakpoint(body []byte) error {
	objs, err := parseJSON(body, false)
	if err != nil {
		return err
	}
	u, err := parseUnlock(objs[0])
	if err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	h := p.hooks[u.position][u.uid]
	if h == nil {
		return errors.New(errNodeNotFound)
	}
	h.desired = u.desired
	h.once = h.once || u.remove
	if h.mode == breakpoint {
		h.ready = true
		p.wake.Broadcast()
	}
	return nil
}

// dumpHooks is the HOOKS_DUMP reply: a JSON array of the hooks, those before a tick
// then those after, each by UID.
func (p *Publisher) dumpHooks() []byte {
	p.mu.Lock()
	list := []hookJSON{}
	for _, hooks := range p.hooks {
		first := len(list)
		for _, h := range hooks {
			list = append(list, h.json())
		}
		slices.SortFunc(list[first:], func(a, b hookJSON) int { return cmp.Compare(a.UID, b.UID) })
	}
	p.mu.Unlock()
	b, _ := json.Marshal(list) // plain fields: it cannot fail
	return b
}

// runHook is the tick function of a node with a hook at pos, on the ticking goroutine
// (BehaviorTree.CPP's runHook). It tells subscribers the hook is reached; a
// breakpoint then waits until it is unlocked, disabled or removed. It returns the
// hook's desired status, which replaces the node's when it is SUCCESS or FAILURE, or
// Idle (nothing replaced) when the hook is gone or disabled.
func (p *Publisher) runHook(pos position, n *bt.Node) bt.Status {
	uid := n.UID()
	p.mu.Lock()
	h := p.hooks[pos][uid]
	if h == nil || !h.enabled || p.closed {
		p.mu.Unlock()
		return bt.Idle
	}
	p.mu.Unlock()
	if p.pub != nil {
		notice := header{typ: breakpointReached, id: rand.Uint32()}.append(nil)
		p.pub.publish([][]byte{notice, strconv.AppendUint(nil, uint64(uid), 10)})
	}

	p.mu.Lock()
	if h.mode == breakpoint {
		for !h.ready && h.enabled && !p.closed {
			p.wake.Wait()
		}
		h.ready = false
	}
	desired := bt.Idle
	if h.enabled && !p.closed {
		desired = h.desired
		if h.once {
			h.enabled = false // a tick function still set must not run it again
			if p.hooks[pos][uid] == h {
				p.dropHook(hookKey{uid, pos})
			}
		}
	}
	dirty := len(p.dirty) > 0
	p.mu.Unlock()
	if dirty {
		p.syncHooks()
	}
	return desired
}

// changedHook notes that the tick function of a node must follow its hooks. p.mu is
// held.
func (p *Publisher) changedHook(k hookKey) {
	if !slices.Contains(p.dirty, k) {
		p.dirty = append(p.dirty, k)
	}
	p.queueSync()
}

// queueSync has sync run before the next tick. p.mu is held.
func (p *Publisher) queueSync() {
	if !p.queued {
		p.queued = true
		p.tree.Do(p.sync)
	}
}

// sync, on the ticking goroutine before a tick, starts or stops observing the tree
// and sets the tick functions of the nodes whose hooks changed.
func (p *Publisher) sync() {
	p.mu.Lock()
	p.queued = false
	on := p.connected && !p.closed
	closed := p.closed
	p.mu.Unlock()
	if closed && p.unreload != nil {
		p.unreload()
		p.unreload = nil
	}
	p.observe(on)
	p.syncHooks()
}

// syncHooks sets or removes the tick functions of the nodes whose hooks changed, on
// the ticking goroutine.
func (p *Publisher) syncHooks() {
	p.mu.Lock()
	dirty := p.dirty
	p.dirty = nil
	set := make([]bool, len(dirty))
	for i, k := range dirty {
		set[i] = p.hooks[k.pos][k.uid] != nil
	}
	p.mu.Unlock()
	for i, k := range dirty {
		n := p.tree.Node(k.uid)
		switch {
		case k.pos == pre && set[i]:
			n.SetPreTick(p.preTick)
		case k.pos == pre:
			n.SetPreTick(nil)
		case set[i]:
			n.SetPostTick(p.postTick)
		default:
			n.SetPostTick(nil)
		}
	}
}

// touch notes a request: Groot2 is there. After the heartbeat without one, check
// takes it for gone: every hook is disabled, so that no node stays paused, and the
// tree is no longer observed; the next request enables them again, as BehaviorTree.CPP
// does when the heartbeat comes back.
func (p *Publisher) touch() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	p.last = p.clock.Now()
	if p.connected {
		return
	}
	p.connected = true
	p.enableAll(true)
	p.queueSync()
	if p.timer == nil {
		p.timer = p.clock.AfterFunc(p.heartbeat, p.checkHeartbeat)
	} else {
		p.timer.Reset(p.heartbeat)
	}
}

// checkHeartbeat runs when the heartbeat may have run out since the last request.
func (p *Publisher) checkHeartbeat() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || !p.connected {
		return
	}
	if left := p.heartbeat - p.clock.Now().Sub(p.last); left > 0 {
		p.timer.Reset(left)
		return
	}
	p.connected = false
	p.enableAll(false)
	p.queueSync()
}
