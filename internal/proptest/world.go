package proptest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"

	"github.com/gobt/bt"
)

// A world holds the scripted leaves of one tree and what they saw: a log per leaf
// (the calls, in order), the violations of the protocols they check themselves, and
// the gate that lets async work finish.
//
// The async actions' goroutines write to it, so it has a lock. Their work finishes
// only when the driver opens the gate, between ticks, so that a run does not depend
// on how goroutines are scheduled.
type world struct {
	mu         sync.Mutex
	logs       map[string][]string
	violations []string
	gate       chan struct{} // closed to let the async work waiting on it finish
	asyncs     map[string]*asyncLeaf
	statefuls  map[string]*statefulLeaf
	syncs      map[string]*syncLeaf
}

func newWorld() *world {
	return &world{logs: map[string][]string{}, gate: make(chan struct{}),
		asyncs: map[string]*asyncLeaf{}, statefuls: map[string]*statefulLeaf{}, syncs: map[string]*syncLeaf{}}
}

func (w *world) log(leaf, what string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.logs[leaf] = append(w.logs[leaf], what)
}

func (w *world) violate(format string, args ...any) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.violations = append(w.violations, fmt.Sprintf(format, args...))
}

// open lets the async work that waits finish.
func (w *world) open() {
	w.mu.Lock()
	defer w.mu.Unlock()
	close(w.gate)
	w.gate = make(chan struct{})
}

func (w *world) currentGate() chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.gate
}

// takeLogs returns the calls logged since the last call, leaf by leaf.
func (w *world) takeLogs() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	names := make([]string, 0, len(w.logs))
	for name := range w.logs {
		names = append(names, name)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, name := range names {
		if calls := w.logs[name]; len(calls) > 0 {
			fmt.Fprintf(&b, " %s[%s]", name, strings.Join(calls, ","))
		}
	}
	clear(w.logs)
	return b.String()
}

// outcome is what a scripted leaf does when called: return a status, or fail with an
// error (E) or a panic (P). For async work, W waits for its context only. A plain
// action's Y returns Running and asks for a wake-up (Node.WakeUp), as a polled action
// that yields does — unless the Y before it did, so that TickOnce's re-ticks end.
type outcome byte

func (o outcome) status() bt.Status {
	return map[outcome]bt.Status{'S': bt.Success, 'F': bt.Failure, 'R': bt.Running, 'K': bt.Skipped}[o]
}

// plan draws n outcomes among choices.
func plan(r *rand.Rand, n int, choices string) []outcome {
	p := make([]outcome, n)
	for i := range p {
		p[i] = outcome(choices[r.IntN(len(choices))])
	}
	return p
}

// script is a cyclic list of outcomes.
type script struct {
	plan []outcome
	i    int
}

func (s *script) next() outcome {
	o := s.plan[s.i%len(s.plan)]
	s.i++
	return o
}

// act makes n return (or fail with) o.
func act(n *bt.Node, o outcome) bt.Status {
	switch o {
	case 'E':
		n.Abort(errors.New("planned error"))
	case 'P':
		panic("planned panic")
	}
	return o.status()
}

// syncLeaf is a plain action: each tick does the next outcome.
type syncLeaf struct {
	w       *world
	name    string
	s       script
	yielded bool // the last outcome was a Y that asked for a wake-up
}

func (l *syncLeaf) Tick(n *bt.Node) bt.Status {
	o := l.s.next()
	l.w.log(l.name, string(o))
	if o == 'Y' {
		if l.yielded = !l.yielded; l.yielded {
			n.WakeUp()
		}
		return bt.Running
	}
	l.yielded = false
	return act(n, o)
}

// statefulLeaf is a stateful action that checks it is used as StatefulAction says:
// OnStart only when not running, OnRunning and OnHalted only when running.
type statefulLeaf struct {
	w       *world
	name    string
	s       script
	running bool // an activation is open: started, neither completed nor halted
}

func (l *statefulLeaf) OnStart(n *bt.Node) bt.Status {
	if l.running {
		l.w.violate("%s: OnStart while it was running", l.name)
	}
	o := l.s.next()
	l.w.log(l.name, "start>"+string(o))
	l.running = o == 'R'
	return act(n, o)
}

func (l *statefulLeaf) OnRunning(n *bt.Node) bt.Status {
	if !l.running {
		l.w.violate("%s: OnRunning while it was not running", l.name)
	}
	o := l.s.next()
	l.w.log(l.name, "running>"+string(o))
	l.running = o == 'R' || o == 'E' || o == 'P' // a failed tick leaves it running, to be halted
	return act(n, o)
}

func (l *statefulLeaf) OnHalted(*bt.Node) {
	if !l.running {
		l.w.violate("%s: OnHalted while it was not running (it completed, or never started)", l.name)
	}
	l.w.log(l.name, "halted")
	l.running = false
}

// asyncLeaf is the work of an async action: each activation does the next outcome
// when the gate opens (W: only when canceled). It checks that its node never runs two
// goroutines at once.
type asyncLeaf struct {
	w      *world
	name   string
	mu     sync.Mutex
	s      script
	live   int // goroutines running its work
	starts int // activations that started work
	// The work under way, while Run has not returned: the position of its outcome in
	// the script, and whether the gate let it through. A restored leaf resumes it, as
	// Restore starts it again (see RestoreState).
	working  bool
	cur      int
	released bool
	resume   bool
}

func (l *asyncLeaf) Run(ctx context.Context, n *bt.Node) (bt.Status, error) {
	l.mu.Lock()
	resumed := l.resume
	if !resumed {
		l.cur, l.released = l.s.i, false
	}
	released := l.released
	l.resume, l.working = false, true
	o := l.s.next()
	l.live++
	l.starts++
	if l.live > 1 {
		l.w.violate("%s: %d goroutines at once", l.name, l.live)
	}
	l.mu.Unlock()
	defer func() {
		l.mu.Lock()
		l.live--
		l.working = false
		l.mu.Unlock()
	}()
	if !resumed { // a restarted activation was logged when it first started
		l.w.log(l.name, "go>"+string(o))
	}
	gate := l.w.currentGate()
	switch {
	case released:
		gate = closed
	case o == 'W':
		gate = nil
	}
	select {
	case <-ctx.Done():
		l.w.log(l.name, "canceled")
		return bt.Failure, nil
	case <-gate:
	}
	l.mu.Lock()
	l.released = true
	l.mu.Unlock()
	switch o {
	case 'E':
		return bt.Idle, errors.New("planned error")
	case 'P':
		panic("planned panic")
	}
	return o.status(), nil
}

// closed is a gate that is open.
var closed = func() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}()

func (l *asyncLeaf) running() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.live
}

// The leaves save their position in their scripts, and what they know of the
// activation under way, so that a tree restored from a snapshot goes on as the tree
// of the snapshot would have (see CheckSnapshot).

type leafState struct {
	I        int  `json:"i"`
	Yielded  bool `json:"yielded,omitempty"`
	Running  bool `json:"running,omitempty"`
	Cur      int  `json:"cur,omitempty"`
	Released bool `json:"released,omitempty"`
	Resume   bool `json:"resume,omitempty"`
}

func saveLeaf(s leafState) ([]byte, error) { return json.Marshal(s) }

func loadLeaf(data []byte) (leafState, error) {
	var s leafState
	err := json.Unmarshal(data, &s)
	if err == nil && s.I < 0 {
		err = fmt.Errorf("position %d", s.I)
	}
	return s, err
}

func (l *syncLeaf) SaveState(*bt.Node) ([]byte, error) {
	return saveLeaf(leafState{I: l.s.i, Yielded: l.yielded})
}

func (l *syncLeaf) RestoreState(_ *bt.Node, data []byte) error {
	s, err := loadLeaf(data)
	l.s.i, l.yielded = s.I, s.Yielded
	return err
}

func (l *statefulLeaf) SaveState(*bt.Node) ([]byte, error) {
	return saveLeaf(leafState{I: l.s.i, Running: l.running})
}

func (l *statefulLeaf) RestoreState(_ *bt.Node, data []byte) error {
	s, err := loadLeaf(data)
	l.s.i, l.running = s.I, s.Running
	return err
}

// SaveState saves the work under way, which Restore starts again: the restored leaf
// resumes it rather than drawing the next outcome.
func (l *asyncLeaf) SaveState(*bt.Node) ([]byte, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := leafState{I: l.s.i}
	if l.working {
		s.Resume, s.Cur, s.Released = true, l.cur, l.released
	}
	return saveLeaf(s)
}

func (l *asyncLeaf) RestoreState(_ *bt.Node, data []byte) error {
	s, err := loadLeaf(data)
	if err != nil {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.s.i, l.resume, l.released = s.I, s.Resume, s.Released
	if s.Resume {
		l.s.i, l.cur = s.Cur, s.Cur
	}
	return nil
}
