package bt

import (
	"fmt"
	"slices"
	"time"
)

// Observing a tree, a byte store while nobody subscribes: see docs/architecture.md, "Observing".

// StatusChange is a status change of one node, as Subscribe gives it.
type StatusChange struct {
	Node     *Node
	Previous Status
	Status   Status
	// Time is the tree's clock when the tick began (or Halt, or the batch: see
	// SubscribeBatch), not when the change was made: the clock is read once per tick.
	Time time.Time
}

// Change is a status change as a Batch gives it, packed in four bytes: the node's UID
// (Tree.Node finds the node) and its previous and new statuses.
type Change uint32

// MakeChange returns the Change of node uid from prev to s.
func MakeChange(uid uint16, prev, s Status) Change {
	return Change(uint32(uid) | uint32(prev)<<16 | uint32(s)<<24)
}

// UID returns the UID of the node that changed.
func (c Change) UID() uint16 { return uint16(c) }

// Previous returns the status the node had.
func (c Change) Previous() Status { return Status(c >> 16) }

// Status returns the status the node has.
func (c Change) Status() Status { return Status(c >> 24) }

func (c Change) String() string {
	return fmt.Sprintf("%d: %v -> %v", c.UID(), c.Previous(), c.Status())
}

// Batch is the status changes a tree hands its batch subscribers (SubscribeBatch), in
// the order they were made.
type Batch struct {
	// Changes are valid only during the call: the tree reuses their memory.
	Changes []Change
	// Time is the tree's clock when the batch began: when the tick or the Halt that
	// made the changes began, or when the batch before it in the same tick was handed
	// over. Every change was made at Time or after it, and before the batch was handed
	// over; a logger that needs a time per change gives each the batch's Time.
	Time time.Time
	// End tells that the tick or the Halt that made the changes is over: the tree is
	// between ticks. The last batch of each TickOnce or TickExactlyOnce call has End
	// set, and may be empty (Tree.Ticks counts the tick already); so has the batch of
	// a Halt that changed anything.
	End bool
}

// A batch starts with room for minBatch changes and doubles, up to maxBatch, when a tick
// fills it (the tree has subscribers, and a tick makes more changes than it held).
// With maxBatch changes, the batch is handed over within the tick: a tree bigger than
// that (a node makes up to three changes a tick), or a loop within a tick, makes
// several batches of a tick.
const (
	minBatch = 1 << 10
	maxBatch = 1 << 16
)

// observation is what a tree keeps while it has subscribers.
type observation struct {
	// The batch under way is buf[:n]. Tree.record appends to it while there is room in
	// quick, which is buf — or nothing while subscribers of Subscribe must be called,
	// which sends every change to notify.
	n     int
	quick []Change
	buf   []Change

	// A run of a Sequence or Fallback whose children are leaves (sequence.tickLeaves)
	// writes its changes when it completes: while it runs, openUID is its node's UID
	// (whose idx is the child being ticked). When the batch must be handed over before,
	// Tree.settle writes the changes so far: then settled is set, and openDone is the
	// number of children whose change is written. A run that ends puts them back.
	openUID  uint16
	openDone uint16
	settled  bool

	each    []*subscriber // those of Subscribe, in the order they subscribed
	batch   []*subscriber // those of SubscribeBatch
	time    time.Time     // when the batch under way began
	ticking bool          // a tick is under way (a batch handed over is not its end)
}

type subscriber struct {
	each  func(StatusChange)
	batch func(Batch)
}

// Subscribe registers fn to be called, on the ticking goroutine, for every status
// change of every node of the tree, as the change is made, and returns a function that
// cancels the subscription. Observers must not tick or halt the tree. The order of the
// changes is BehaviorTree.CPP's (see the package doc's node lifecycle); their Time is
// read once per tick. Subscribe and the cancel function must not be called during a
// tick, except from a function given to Tree.Do. Subscribing nil does nothing.
//
// A call per change costs the tick more than a batch per tick: loggers, which need not
// hear of a change before the tick ends, use SubscribeBatch.
func (t *Tree) Subscribe(fn func(StatusChange)) (cancel func()) {
	if fn == nil {
		return func() {}
	}
	return t.subscribe(&subscriber{each: fn})
}

// SubscribeBatch registers fn to be called, on the ticking goroutine, with the status
// changes of the tree in batches, and returns a function that cancels the
// subscription. The changes are the ones Subscribe gives, in the same order. A batch is
// handed over:
//
//   - when a tick ends (TickOnce, TickExactlyOnce), also a tick that returned an error:
//     End is set, and the batch may be empty;
//   - when Halt ends, if it changed anything: End is set;
//   - within a tick, when the batch holds 65,536 changes, before a node's tick function
//     runs (Node.SetPreTick, SetPostTick: a debugger that pauses the tick there has
//     heard of every change so far), before a Log node logs, when Flush is called, and
//     when a subscription is added or canceled (from a function given to Do).
//
// The changes of a tick are recorded at a few stores each and the clock is read once
// per batch, which is what makes observing a tree cheap. fn must not tick or halt the
// tree, nor keep Batch.Changes past the call. A panic in fn during a tick stops it as
// an error (see TickOnce); at the end of a tick or Halt, the call returns it as an
// error. SubscribeBatch and the cancel function must not be called during a tick,
// except from a function given to Tree.Do. Subscribing nil does nothing.
func (t *Tree) SubscribeBatch(fn func(Batch)) (cancel func()) {
	if fn == nil {
		return func() {}
	}
	return t.subscribe(&subscriber{batch: fn})
}

func (t *Tree) subscribe(s *subscriber) (cancel func()) {
	o := t.obs
	if o == nil {
		o = &observation{buf: make([]Change, minBatch), time: t.cfg.clock.Now()}
		t.obs = o
		t.markObserved(true)
	}
	t.Flush() // what the others have not heard yet is not for s
	if s.each != nil {
		o.each = append(slices.Clip(o.each), s)
	} else {
		o.batch = append(slices.Clip(o.batch), s)
	}
	o.sorted()
	return func() { t.unsubscribe(s) }
}

func (t *Tree) unsubscribe(s *subscriber) {
	o := t.obs
	if o == nil {
		return
	}
	t.Flush() // s hears of everything up to its cancel
	drop := func(subs []*subscriber) []*subscriber {
		if i := slices.Index(subs, s); i >= 0 {
			return slices.Delete(slices.Clone(subs), i, i+1)
		}
		return subs
	}
	o.each, o.batch = drop(o.each), drop(o.batch)
	o.sorted()
	if len(o.each) == 0 && len(o.batch) == 0 {
		t.obs = nil
		t.markObserved(false)
	}
}

// markObserved switches every node between the store-only and the notifying path. A
// subscriber of SubscribeBatchWhen may switch a tree at each tick: the loops are
// apart, so that each is a load, a mask and a store per node.
func (t *Tree) markObserved(on bool) {
	st := t.status
	if on {
		for i := range st {
			st[i].observe(true)
		}
		return
	}
	for i := range st {
		st[i].observe(false)
	}
}

// sorted chooses the path of the changes after the subscribers changed.
func (o *observation) sorted() {
	o.quick = o.buf
	if len(o.each) > 0 {
		o.quick = nil
	}
}

// record records a change of n's status: in the batch, or through notify.
func (t *Tree) record(n *Node, prev, s Status) {
	if !t.obs.add(n.meta.uid, prev, s) {
		t.notify(n, prev, s)
	}
}

// add appends a change to the batch under way if it has room and no subscriber of
// Subscribe must be told of it (see quick); otherwise it reports false, and the change
// goes to Tree.notify.
func (o *observation) add(uid uint16, prev, s Status) bool {
	if i := o.n; i < len(o.quick) {
		o.quick[i] = MakeChange(uid, prev, s)
		o.n = i + 1
		return true
	}
	return false
}

// tryRecord is Node.storeStatus (and Node.set) in its common case for an observed tree: c's
// observers see it as it is, s (not Skipped) is to be stored, and the change fits in
// the batch. It stores s, records the change and reports true; otherwise it does
// nothing and reports false, and the caller takes Node.set's general path. It is
// inlined in the paths that make most changes: Node.set, and the loops of Sequence and
// Fallback.
func (o *observation) tryRecord(c *Node, s Status) bool {
	b, i := *c.st, o.n
	if b&flagBits != observedBit || i >= len(o.quick) {
		return false
	}
	if nb := statusByte(s) | observedBit; b != nb {
		*c.st = nb // (a status byte writer of its own: through a method it would not inline)
		o.quick[i] = MakeChange(c.meta.uid, Status(b&^observedBit), s)
		o.n = i + 1
	}
	return true
}

// notify records a change when the batch is full or subscribers of Subscribe must be
// told of it. (One that panics while a node is halted is reported as a failure of that
// node's halt.)
func (t *Tree) notify(n *Node, prev, s Status) {
	o := t.obs
	switch {
	case o.n < len(o.buf):
	case len(o.buf) < maxBatch:
		o.buf = append(o.buf, make([]Change, len(o.buf))...)
		o.sorted()
	default:
		t.handOver(false)
	}
	o.buf[o.n] = MakeChange(n.meta.uid, prev, s)
	o.n++
	if len(o.each) > 0 {
		ev := StatusChange{Node: n, Previous: prev, Status: s, Time: o.time}
		for _, sub := range o.each {
			sub.each(ev)
		}
	}
}

// Flush hands the changes made so far in the tick under way to the subscribers of
// SubscribeBatch at once, instead of when the tick ends. A node's code calls it before
// it writes output of its own that must come after those changes in a log (then the
// logger's own Flush, as btlog's loggers have). Like every method of a tree, it must
// be called on the goroutine that ticks the tree. It does nothing when the tree has no
// subscribers or no change is waiting.
func (t *Tree) Flush() {
	if o := t.obs; o != nil {
		if o.openUID != 0 {
			t.settle()
		}
		if o.n > 0 {
			t.handOver(false)
		}
	}
}

// handOver hands the batch under way to the batch subscribers, and begins the next:
// end tells that the tick or Halt is over.
func (t *Tree) handOver(end bool) {
	o := t.obs
	if o.openUID != 0 {
		t.settle()
	}
	b := Batch{Changes: o.buf[:o.n], Time: o.time, End: end}
	o.n = 0
	if !end && o.ticking {
		o.time = t.cfg.clock.Now()
	}
	o.hand(b)
}

// hand hands b to the batch subscribers. A tree has one, most often (a logger or a
// monitor), which is called without the loop's copies of b.
func (o *observation) hand(b Batch) {
	if len(o.batch) == 1 {
		o.batch[0].batch(b)
		return
	}
	for _, s := range o.batch {
		s.batch(b)
	}
}

// beginBatch reads the clock for the changes a tick or a Halt is about to make.
func (t *Tree) beginBatch(ticking bool) {
	if o := t.obs; o != nil {
		o.time, o.ticking = t.cfg.clock.Now(), ticking
		o.endRun()
	}
}

// settle writes the changes of the run of sequence.tickLeaves under way, if any, made
// so far: its node going Running, and each child that passed before the one being
// ticked. The run goes on.
func (t *Tree) settle() {
	o := t.obs
	if o == nil || o.openUID == 0 {
		return
	}
	uid := o.openUID
	o.openUID, o.settled = 0, true // (a change that does not fit hands the batch over, which settles)
	n := t.Node(uid)
	q := n.core().(*sequence)
	if n.st.status() == Idle {
		n.set(Running)
	}
	// The children that passed, Idle and observed as they are, written in a run when
	// the batch has room for them all (as recordReset does), else one by one.
	kids, st := q.nodes[o.openDone:q.idx], q.status[o.openDone:q.idx]
	if w, rec := o.n, o.quick; len(rec)-w >= len(kids) {
		pu := MakeChange(0, Idle, q.pass)
		st = st[:len(kids)]
		for j := range kids {
			st[j] = observedByte(q.pass)
			rec[w+j] = Change(kids[j].meta.uid) | pu
		}
		o.n = w + len(kids)
	} else {
		for j := range kids {
			kids[j].set(q.pass)
		}
	}
	o.openDone, o.openUID = uint16(q.idx), uid
}

// closeRun ends the run of sequence.tickLeaves of q, if it is under way, when child k
// is being ticked: what it has not written yet is written (Tree.settle).
func (t *Tree) closeRun(q *sequence, k int) {
	o := t.obs
	if o == nil || o.openUID == 0 || t.Node(o.openUID).core() != any(q) {
		return
	}
	q.idx = uint32(k)
	t.settle()
	o.endRun()
}

// endRun notes that no run of sequence.tickLeaves is under way.
func (o *observation) endRun() { o.openUID, o.openDone, o.settled = 0, 0, false }

// endBatch hands over what a tick or a Halt changed (for a Halt, if anything), and
// returns err with what a subscriber that panicked raised.
func (t *Tree) endBatch(tick bool, err error) (e error) {
	o := t.obs
	if o == nil || (!tick && o.n == 0) {
		return err
	}
	o.ticking = false
	defer func() {
		o.endRun()
		if r := recover(); r != nil {
			e = t.subscriberPanicked(err, r)
		}
	}()
	t.handOver(true)
	return err
}

// subscriberPanicked returns the error of a tick or Halt that ended with err when a
// batch subscriber panicked with r as it was handed the last batch; under
// WithRepanic the panic goes on up.
func (t *Tree) subscriberPanicked(err error, r any) error {
	if t.repanic {
		panic(r)
	}
	return joinErrors(appendErr(appendErr(nil, err), fmt.Errorf("bt: a batch subscriber: %w", newPanicError(r))))
}
