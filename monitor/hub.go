package monitor

import (
	"encoding/json"
	"io"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gobt/bt"
)

// frame is one step of a tree's history: one tick of a live tree (or what changed
// between ticks, see Feed.Sync), a burst of changes of a replay. A keyframe gives
// every node's status; any other frame gives the changes since the frame before.
type frame struct {
	Tick     uint64      `json:"tick"`
	Time     float64     `json:"time"`               // milliseconds since the Unix epoch
	Statuses statuses    `json:"statuses,omitempty"` // a keyframe's: every node's, by UID-1
	Changes  changes     `json:"changes,omitempty"`  // in the order they happened
	BB       []scopeJSON `json:"bb,omitempty"`       // the scopes whose entries changed
}

// changes are status changes of nodes, each written [uid, previous, status].
type changes []bt.Change

func (cs changes) MarshalJSON() ([]byte, error) {
	return jsonArray(cs, func(b []byte, c bt.Change) []byte {
		b = append(strconv.AppendUint(append(b, '['), uint64(c.UID()), 10), ',')
		b = append(strconv.AppendUint(b, uint64(c.Previous()), 10), ',')
		return append(strconv.AppendUint(b, uint64(c.Status()), 10), ']')
	}), nil
}

// statuses are the statuses of every node, by UID-1; written as numbers (encoding/json
// would write a byte slice as base64).
type statuses []bt.Status

func (s statuses) MarshalJSON() ([]byte, error) {
	return jsonArray(s, func(b []byte, st bt.Status) []byte { return strconv.AppendUint(b, uint64(st), 10) }), nil
}

// jsonArray writes s as a JSON array, each element by item.
func jsonArray[T any](s []T, item func([]byte, T) []byte) []byte {
	b := []byte{'['}
	for i, v := range s {
		if i > 0 {
			b = append(b, ',')
		}
		b = item(b, v)
	}
	return append(b, ']')
}

// scopeJSON is the entries of one blackboard scope, as Blackboard.MarshalJSON writes them.
type scopeJSON struct {
	Scope   int             `json:"scope"`
	Entries json.RawMessage `json:"entries"`
}

// millis turns a time into the frames' milliseconds.
func millis(t time.Time) float64 { return float64(t.UnixMicro()) / 1000 }

// hub holds what the page shows of one tree — its description, the last frames and
// the state before them — and the browsers connected to it, whom it sends every new
// frame. Frames come from a Feed (see Feed for the hand-off) or, for a replay, all at
// once.
type hub struct {
	info   []byte // the treeInfo, as JSON
	live   bool
	limit  int // frames kept; 0: all (a replay)
	buffer int // messages a client may have waiting before it is resynchronised

	want   atomic.Bool   // a Feed should observe its tree: clients are connected, or always
	always bool          // observe even with no client (ObserveAlways)
	done   chan struct{} // closed when the tree is removed
	wake   func()        // tells the Feed that want changed (nil for a replay)
	replay *replay       // a recorded run's steps (nil for a live tree, whose are frames)

	// build lets one client at a time build the snapshot of a live tree, outside mu;
	// the clients that join before the next frame share it (snap, at version).
	build sync.Mutex

	mu      sync.Mutex
	clients map[*client]struct{}
	base    frame   // the state before frames[0], as a keyframe (Statuses nil: unknown)
	frames  []frame // a ring of at most limit frames, the oldest at frames[first]
	first   int
	synced  bool // base and frames follow the tree's changes (false: the feed stopped observing)
	removed bool
	version uint64 // counts the changes of base, frames and synced
	snap    []byte // the snapshot's JSON at snapVer; nil: none built
	snapVer uint64

	// The queue of records a Feed hands over, drained by a goroutine of its own; the batches the records carried come
	// back to the Feed through free, so that a tick allocates nothing.
	qmu      sync.Mutex
	queue    []*batch
	spare    []*batch
	free     []*batch
	draining bool
	drainer  func()   // h.drain
	lastBB   [][]byte // the drain's: the JSON of each scope last sent
	statuses statuses // the drain's: every node's status after the last frame (see frameOf)
}

func newHub(info *treeInfo, limit, buffer int, always bool) *hub {
	info.Limit = limit
	js, err := json.Marshal(info)
	if err != nil { // strings and numbers only
		panic(err)
	}
	h := &hub{info: js, live: info.Live, limit: limit, buffer: buffer, always: always,
		done: make(chan struct{}), clients: map[*client]struct{}{},
		lastBB: make([][]byte, len(info.Scopes))}
	h.base.BB = make([]scopeJSON, len(info.Scopes))
	for i := range h.base.BB {
		h.base.BB[i] = scopeJSON{Scope: i, Entries: json.RawMessage("{}")}
	}
	h.drainer = h.drain
	h.want.Store(always)
	return h
}

// recordKind says what a batch the Feed hands the hub gives: a frame, or the news that
// the feed stopped observing (recStop). (b.info is set when the tree was reloaded: see
// reload.go.)
type recordKind uint8

const (
	recDelta   recordKind = iota // the changes since the frame before
	recKey                       // every node's status, in b.statuses (nil: not followed; see reload.go)
	recCatchUp                   // every node's status, from the last status of each node changes not sent changed, in b.changes
	recStop                      // no frame: the feed stopped observing
)

// enqueue hands b to the hub without waiting for it and returns a batch for the next
// frame (one the hub is done with, or a new one). ok is false if the queue is full (the
// hub is that far behind): b is still the feed's, and the feed must send every status
// next. A stop is always taken, and so are a keyframe (the statuses that the frames
// after it change) and a reload's.
func (h *hub) enqueue(b *batch, max int) (next *batch, ok bool) {
	h.qmu.Lock()
	if len(h.queue) >= max && b.kind != recStop && b.kind != recKey {
		h.qmu.Unlock()
		return nil, false
	}
	h.queue = append(h.queue, b)
	if n := len(h.free) - 1; n >= 0 {
		next, h.free = h.free[n], h.free[:n] // (the feed holds it: the array may too)
	}
	start := !h.draining
	h.draining = true
	h.qmu.Unlock()
	if start {
		go h.drainer() // a func value made once: a go statement with a method value would allocate
	}
	if next == nil {
		next = &batch{}
	}
	return next, true
}

// drain applies the queued batches until the queue is empty.
func (h *hub) drain() {
	for {
		h.qmu.Lock()
		q := h.queue
		h.queue, h.spare = h.spare[:0], nil
		if len(q) == 0 {
			h.spare = q
			h.draining = false
			h.qmu.Unlock()
			return
		}
		h.qmu.Unlock()
		for _, b := range q {
			h.apply(b)
		}
		h.qmu.Lock()
		for _, b := range q {
			b.reset()
			h.free = append(h.free, b)
		}
		clear(q) // drop the references to the frames
		h.spare = q[:0]
		h.qmu.Unlock()
	}
}

// apply adds the frame of a batch to the history and sends it to the clients.
func (h *hub) apply(b *batch) {
	info := b.info
	if info != nil {
		h.lastBB = make([][]byte, len(info.Scopes))
	}
	var fr frame
	if b.kind != recStop {
		fr = h.frameOf(b)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.removed {
		return
	}
	h.version++ // the snapshot changes, or nothing is sent
	if info != nil {
		h.reloaded(info, fr)
		return
	}
	if b.kind == recStop {
		h.synced = false
		h.broadcast(message("stale", []byte("{}")))
		return
	}
	if fr.Statuses != nil {
		h.synced = true
	}
	if !h.synced { // a delta without the keyframe before it: cannot happen, but it would mislead
		return
	}
	h.push(fr)
	js, err := json.Marshal(fr)
	if err != nil {
		panic(err) // numbers, and blackboards Blackboard.MarshalJSON wrote
	}
	h.broadcast(message("tick", js))
}

// follow applies changes to the statuses after the last frame (see frameOf).
func (h *hub) follow(cs []bt.Change) {
	st := h.statuses
	for _, c := range cs {
		if i := int(c.UID()) - 1; i < len(st) {
			st[i] = c.Status()
		}
	}
}

// push appends f to the history; the oldest frame beyond the limit goes into the base.
func (h *hub) push(f frame) {
	if h.limit == 0 || len(h.frames) < h.limit {
		h.frames = append(h.frames, f)
		return
	}
	old := &h.frames[h.first]
	h.base = fold(h.base, *old)
	*old = f
	h.first = (h.first + 1) % len(h.frames)
}

// fold returns the state after f, from the state s before it.
func fold(s, f frame) frame {
	s.Tick, s.Time = f.Tick, f.Time
	if f.Statuses != nil {
		s.Statuses = append(s.Statuses[:0], f.Statuses...)
	}
	for _, c := range f.Changes {
		if int(c.UID()) <= len(s.Statuses) {
			s.Statuses[c.UID()-1] = c.Status()
		}
	}
	for _, b := range f.BB {
		s.BB[b.Scope] = b
	}
	return s
}

// history returns a copy of the frames, in order; h.mu is held.
func (h *hub) history() []frame {
	return append(append(make([]frame, 0, len(h.frames)), h.frames[h.first:]...), h.frames[:h.first]...)
}

// snapshot is everything a page needs to draw the tree at any frame of its history.
type snapshot struct {
	Info   json.RawMessage `json:"info"`
	Synced bool            `json:"synced"` // the last frame is the tree's state now
	Base   frame           `json:"base"`   // the state before Frames[0]
	Frames []frame         `json:"frames"`
}

// testHookBuild, when set, runs while a snapshot is built (a test stops it there).
var testHookBuild func()

// snapshot returns the snapshot of the tree as of now, its JSON written by WriteTo; c
// is the client it is for (nil: a request for the snapshot alone), which is then sent
// the frames that come after it.
//
// A replay's is written from its steps as it is sent (see replay). A live tree's is
// built once per frame and shared by the clients that join until the next frame, and
// it is built outside h.mu, so that neither the tick's frame nor the clients that come
// and go wait for it: under h.mu the state is only copied (the ring of frames, and the
// base's statuses, which a full ring folds frames into in place).
func (h *hub) snapshot(c *client) io.WriterTo {
	if h.replay != nil {
		if c != nil {
			h.mu.Lock()
			c.resync, c.queue = false, nil
			h.mu.Unlock()
		}
		return h.replay
	}
	h.build.Lock()
	defer h.build.Unlock()
	h.mu.Lock()
	if c != nil {
		c.resync, c.queue = false, nil
	}
	if h.snap != nil && h.snapVer == h.version {
		js := h.snap
		h.mu.Unlock()
		return rawJSON(js)
	}
	s := snapshot{Info: h.info, Synced: h.synced || !h.live, Base: h.base, Frames: h.history()}
	s.Base.Statuses = slices.Clone(h.base.Statuses)
	s.Base.BB = slices.Clone(h.base.BB)
	version := h.version
	h.mu.Unlock()

	if testHookBuild != nil {
		testHookBuild()
	}
	js, err := json.Marshal(s)
	if err != nil {
		panic(err) // numbers, and blackboards Blackboard.MarshalJSON wrote
	}
	h.mu.Lock()
	h.snap, h.snapVer = js, version
	h.mu.Unlock()
	return rawJSON(js)
}

// rawJSON is JSON already written.
type rawJSON []byte

func (js rawJSON) WriteTo(w io.Writer) (int64, error) {
	n, err := w.Write(js)
	return int64(n), err
}

// summary is a tree as the list of trees shows it.
type summary struct {
	Name     string `json:"name"`
	Live     bool   `json:"live"`
	Synced   bool   `json:"synced"`
	Tick     uint64 `json:"tick"`
	Frames   int    `json:"frames"`
	Watchers int    `json:"watchers"`
}

func (h *hub) summary(name string) summary {
	h.mu.Lock()
	defer h.mu.Unlock()
	s := summary{Name: name, Live: h.live, Synced: h.synced || !h.live, Tick: h.base.Tick, Frames: len(h.frames), Watchers: len(h.clients)}
	if h.replay != nil {
		s.Tick, s.Frames = uint64(h.replay.steps), h.replay.steps
	} else if n := len(h.frames); n > 0 {
		s.Tick = h.frames[(h.first+n-1)%n].Tick
	}
	return s
}

// message frames an event of the stream: "event: NAME", the data, and a blank line.
// JSON has no raw newlines, so the data is one line.
func message(event string, data []byte) []byte {
	b := make([]byte, 0, len(event)+len(data)+16)
	b = append(append(append(b, "event: "...), event...), "\ndata: "...)
	return append(append(b, data...), "\n\n"...)
}

// client is a connected browser: the messages waiting to be written to it, at most
// hub.buffer of them. One that falls further behind is resynchronised: its messages
// are dropped and it is sent a snapshot instead.
type client struct {
	kick   chan struct{} // something is waiting
	queue  [][]byte      // guarded by hub.mu
	resync bool          // guarded by hub.mu: send a snapshot before anything else
}

// broadcast queues msg for every client; h.mu is held.
func (h *hub) broadcast(msg []byte) {
	for c := range h.clients {
		switch {
		case c.resync:
			continue // the snapshot it will get includes msg
		case len(c.queue) >= h.buffer:
			c.queue, c.resync = nil, true
		default:
			c.queue = append(c.queue, msg)
		}
		select {
		case c.kick <- struct{}{}:
		default:
		}
	}
}

// setWake sets the function that tells a Feed that want changed; it is called with
// h.mu held, and must not wait.
func (h *hub) setWake(f func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.wake = f
}

// setWant changes want, and tells the Feed; h.mu is held.
func (h *hub) setWant(on bool) {
	if h.want.Swap(on) != on && h.wake != nil {
		h.wake()
	}
}

// join connects a client, which starts with a snapshot. ok is false if the tree was
// removed.
func (h *hub) join() (c *client, ok bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.removed {
		return nil, false
	}
	c = &client{kick: make(chan struct{}, 1), resync: true}
	h.clients[c] = struct{}{}
	h.setWant(true)
	return c, true
}

func (h *hub) leave(c *client) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.clients, c)
	if len(h.clients) == 0 {
		h.snap = nil // built for clients that joined; the next one builds its own
	}
	h.setWant(!h.removed && (h.always || len(h.clients) > 0))
}

// take returns what is to be written to c: a snapshot first, if it is due, then the
// messages waiting.
func (h *hub) take(c *client) (snap io.WriterTo, msgs [][]byte) {
	h.mu.Lock()
	if c.resync {
		h.mu.Unlock()
		return h.snapshot(c), nil // the messages sent after it come next time
	}
	msgs, c.queue = c.queue, nil
	h.mu.Unlock()
	return nil, msgs
}

// remove disconnects every client and stops the hub.
func (h *hub) remove() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.removed {
		return
	}
	h.removed = true
	h.setWant(false)
	close(h.done)
}
