package btlog

import (
	"errors"
	"io"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gobt/bt"
)

// ErrClosed is returned by Flush after Close.
var ErrClosed = errors.New("btlog: the logger is closed")

var errNilTree = errors.New("btlog: nil tree")

// Logger is what every logger of the package does besides logging.
type Logger interface {
	// Flush writes what was logged so far to the logger's destination.
	Flush() error
	// Close detaches the logger from its tree, ends the log and closes what the
	// logger opened.
	Close() error
	// SetEnabled pauses (false) and resumes (true) the logger: while it is paused, the
	// changes the tree hands over are dropped, as BehaviorTree.CPP's
	// StatusChangeLogger::setEnabled(false) drops them. A logger starts enabled.
	SetEnabled(on bool)
	// Enabled reports whether the logger records changes (see SetEnabled).
	Enabled() bool
}

// pause is what every logger keeps for SetEnabled: whether it is paused, safe to
// change from any goroutine and read by the tree's at each batch.
type pause struct{ off atomic.Bool }

// SetEnabled pauses (false) and resumes (true) the logger, from any goroutine: while
// it is paused, it drops the changes the tree hands over, which no resume brings back
// (BehaviorTree.CPP's StatusChangeLogger::setEnabled). The tree hands a tick's changes
// over when the tick ends, so a call during a tick decides for the whole tick; a
// node's code that must log the changes before it, and not those after, calls
// bt.Tree.Flush first, which hands them over at once.
func (p *pause) SetEnabled(on bool) { p.off.Store(!on) }

// Enabled reports whether the logger records changes: true unless SetEnabled paused it.
func (p *pause) Enabled() bool { return !p.off.Load() }

// A Filter chooses the status changes a logger reports: it is called with the node
// and the change and returns true to keep it. It runs on the logger's writer goroutine,
// not the one that ticks the tree, and must not call the logger.
type Filter func(n *NodeInfo, prev, status bt.Status) bool

// stream is what the loggers that write share: their subscription to the tree
// (bt.Tree.SubscribeBatch), which copies each batch of changes into a queue on the
// ticking goroutine, and the goroutine that takes the queued changes, turns them into
// Transitions and hands them to the logger's sink, which formats and writes them. So a
// tick costs a logger a copy of four bytes per change, and never waits on I/O.
//
// The queues and their spares are swapped, not reallocated: in the steady state neither
// the tick nor the writer allocates. The queue has no bound: a writer slower than the
// tree lets it grow (as BehaviorTree.CPP's FileLogger2 does) rather than block a tick.
type stream struct {
	pause
	nodes  []NodeInfo // by UID-1
	start  time.Time  // Transition.Offset counts from here
	clock  bt.Clock   // of the tree, for the end of the log
	filter Filter
	cancel func() // the subscription

	mu    sync.Mutex    // guards queue and marks
	queue []bt.Change   // the changes of the batches queued
	marks []mark        // where each batch starts in queue
	kick  chan struct{} // a batch was queued while the queue was empty

	ctl      sync.Mutex    // one Flush or Close at a time
	req      chan bool     // to the writer: flush (false) or close (true)
	ack      chan error    // from the writer: the first error so far
	end      time.Duration // when Close was called, since start
	closed   bool
	closeErr error

	// The writer goroutine's own.
	sink       sink
	spare      []bt.Change
	spareMarks []mark
	batch      []Transition // what the sink is given
	err        error        // the first error of the sink; after it, nothing more is written
}

// mark is where a batch starts in the queue, and its time.
type mark struct {
	at     int
	offset time.Duration // since stream.start
}

// sink formats and writes batches of changes, on the writer goroutine.
type sink interface {
	// write formats and writes batch: consecutive Transitions, at most a piece, which
	// may begin or end in the middle of a tick.
	write(batch []Transition) error
	// flush writes what write left buffered to the destination.
	flush() error
	// close ends the log at end, after the last batch, and closes what the logger opened.
	close(end time.Duration) error
}

// init describes t for a logger; start the logger with run once its sink is made.
func (s *stream) init(t *bt.Tree, filter Filter) error {
	if t == nil {
		return errNilTree
	}
	s.nodes, s.start, s.clock, s.filter = nodesOf(t), t.Clock().Now(), t.Clock(), filter
	return nil
}

// run subscribes the stream to t and starts its writer.
func (s *stream) run(t *bt.Tree, sk sink) {
	s.sink = sk
	s.kick = make(chan struct{}, 1)
	s.req, s.ack = make(chan bool), make(chan error)
	go s.write()
	s.cancel = t.SubscribeBatch(s.add)
}

// add queues a batch of changes; it runs on the ticking goroutine.
func (s *stream) add(b bt.Batch) {
	if len(b.Changes) == 0 || !s.Enabled() {
		return
	}
	m := mark{offset: b.Time.Sub(s.start)}
	s.mu.Lock()
	m.at = len(s.queue)
	s.marks = append(s.marks, m)
	s.queue = append(s.queue, b.Changes...)
	first := len(s.marks) == 1
	s.mu.Unlock()
	if first {
		select {
		case s.kick <- struct{}{}:
		default: // the writer has been told already
		}
	}
}

// gather is how long the writer lets batches gather after the first one woke it:
// ticks that come meanwhile find the queue not empty and wake nobody, so that a tree
// ticking fast pays for a wake-up of the writer, and the writer for a Write, once per
// gather rather than once per tick.
const gather = time.Millisecond

// write is the writer goroutine.
func (s *stream) write() {
	wait := time.NewTimer(time.Hour)
	wait.Stop()
	for {
		select {
		case <-s.kick:
			wait.Reset(gather)
			select {
			case <-wait.C:
				s.drain()
				continue
			case closing := <-s.req: // flush or close at once
				wait.Stop()
				if s.answer(closing) {
					return
				}
			}
		case closing := <-s.req:
			if s.answer(closing) {
				return
			}
		}
	}
}

// answer drains the queue for a request of Flush (closing false) or Close, and answers
// it; it reports whether the writer is done.
func (s *stream) answer(closing bool) bool {
	s.drain()
	var err error
	if closing {
		err = s.sink.close(s.end)
	} else if s.err == nil {
		err = s.sink.flush()
	}
	if s.err == nil {
		s.err = err
	}
	s.ack <- s.err
	return closing
}

// drain hands the queued changes to the sink until the queue is empty, and then tells
// a sink that wants to know (drainer).
func (s *stream) drain() {
	for handed := false; ; handed = true {
		s.mu.Lock()
		changes, marks := s.queue, s.marks
		s.queue, s.marks = s.spare[:0], s.spareMarks[:0]
		s.mu.Unlock()
		s.spare, s.spareMarks = changes, marks
		if len(changes) == 0 {
			if d, ok := s.sink.(drainer); ok && handed && s.err == nil {
				s.err = d.drained()
			}
			return
		}
		s.hand(changes, marks)
	}
}

// drainer is a sink told when the stream has handed it every change queued so far:
// a database commits there the transaction its writes began, so that a writer that
// fell behind commits what it caught up with at once, not a transaction per piece.
type drainer interface{ drained() error }

// piece is the most Transitions the sink is given at once: a writer that fell behind
// takes a long queue, which it formats and writes a piece at a time, so that what it
// formats stays in the cache and its buffers do not grow with the queue.
const piece = 2048

// hand turns queued changes into Transitions and hands them to the sink, a piece at a
// time.
func (s *stream) hand(changes []bt.Change, marks []mark) {
	out := s.batch[:0]
	for i, m := range marks {
		end := len(changes)
		if i+1 < len(marks) {
			end = marks[i+1].at
		}
		for _, c := range changes[m.at:end] {
			out = append(out, Transition{Offset: m.offset, UID: c.UID(), Previous: c.Previous(), Status: c.Status()})
			if len(out) == piece {
				s.give(out)
				out = out[:0]
			}
		}
	}
	s.give(out)
	s.batch = out[:0]
}

// give hands the sink the Transitions of batch that the filter accepts, unless the
// sink failed before.
func (s *stream) give(batch []Transition) {
	if s.filter != nil {
		batch = slices.DeleteFunc(batch, func(tr Transition) bool {
			return !s.filter(&s.nodes[tr.UID-1], tr.Previous, tr.Status)
		})
	}
	if s.err == nil && len(batch) > 0 {
		s.err = s.sink.write(batch)
	}
}

// Flush waits until every change logged so far is written to the logger's destination
// (and, for a writer with a Flush method such as a *bufio.Writer, flushed), and
// returns the first error the logger met. It may be called from any goroutine, also
// during a tick: a program that prints lines of its own to the same destination calls
// Flush first to keep them in order with the log. The tree hands its changes over when
// a tick ends: a node's code that prints calls bt.Tree.Flush first, so that the
// changes made so far in the tick reach the logger.
func (s *stream) Flush() error {
	s.ctl.Lock()
	defer s.ctl.Unlock()
	if s.closed {
		return ErrClosed
	}
	s.req <- false
	return <-s.ack
}

// Close detaches the logger from the tree, writes what is left and ends the log (a
// trace's closing bracket), closes the file the logger created, stops the logger's
// goroutine, and returns the first error the logger met. Like the cancel function of
// Tree.SubscribeBatch, it must not be called while the tree ticks. Closing again
// returns the same error.
func (s *stream) Close() error {
	s.ctl.Lock()
	defer s.ctl.Unlock()
	if s.closed {
		return s.closeErr
	}
	s.closed = true
	s.cancel()
	s.end = s.clock.Now().Sub(s.start)
	s.req <- true
	s.closeErr = <-s.ack
	return s.closeErr
}

// output is the destination of the loggers that write bytes: each batch is formatted
// into buf and written with one Write call.
type output struct {
	w      io.Writer
	closer io.Closer // the file the logger created, or nil
	buf    []byte
}

// open describes t for a logger that writes to w, and whose Close closes c (if not
// nil); start the logger with run once its sink is made.
func (s *stream) open(t *bt.Tree, w io.Writer, c io.Closer, filter Filter) (output, error) {
	if err := s.init(t, filter); err != nil {
		return output{}, err
	}
	if w == nil {
		return output{}, errors.New("btlog: nil writer")
	}
	return output{w: w, closer: c}, nil
}

// emit writes buf.
func (o *output) emit() error {
	if len(o.buf) == 0 {
		return nil
	}
	_, err := o.w.Write(o.buf)
	o.buf = o.buf[:0]
	return err
}

func (o *output) flush() error {
	if err := o.emit(); err != nil {
		return err
	}
	if f, ok := o.w.(interface{ Flush() error }); ok {
		return f.Flush()
	}
	return nil
}

func (o *output) close() error {
	err := o.flush()
	if o.closer != nil {
		err = errors.Join(err, o.closer.Close())
	}
	return err
}
