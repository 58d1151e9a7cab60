package btlog

import (
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/gobt/bt"
)

// Console prints every status change as BehaviorTree.CPP's StdCoutLogger does, a line
// per change: the time in seconds with three decimals, the node's name padded to 25
// characters (or to the longest name of the tree, so that the statuses line up), and
// the statuses, coloured on a terminal:
//
//	[0.012]: ApproachEnemy             IDLE -> RUNNING
//
// Names are what StdCoutLogger prints, and what Log.WriteConsole prints of a .btlog
// file; ConsoleOptions.Paths prints paths instead, and ConsoleOptions.UIDs adds the
// UIDs that tell apart nodes of one name.
//
// The time counts from the moment the logger attached (StdCoutLogger's relative
// timestamps) unless ConsoleOptions.Absolute asks for seconds since the Unix epoch
// (StdCoutLogger's default).
//
// A Console writes in one of two ways. Asynchronous (the default on a file or a pipe):
// lines are formatted and written by the logger's own goroutine, which the tick never
// waits for; Flush waits for them, so a program that prints lines of its own to the
// same writer calls Flush first to keep the order. Synchronous (ConsoleOptions.Sync,
// and the default on a terminal, as StdCoutLogger is): each line is written on the
// ticking goroutine as the change is made, before the tree goes on, so that what the
// program's nodes print and the log come out in the order they happened, with no
// Flush; the tick then waits for the writes, which a person reading a terminal does
// not notice and a tree ticking fast into a file would.
type Console struct {
	stream
	direct *direct // the synchronous mode's; nil in the asynchronous one
}

// ConsoleOptions configure a Console; the zero value (or nil) prints names, relative
// times, no colours and every change, those to IDLE included (BehaviorTree.CPP 4.10's
// default).
type ConsoleOptions struct {
	// Color paints the statuses with StdCoutLogger's ANSI colours (see Terminal).
	Color bool
	// Paths prints each node's full path (bt.Node.Path) instead of its name.
	Paths bool
	// UIDs adds each node's UID to its name or path, as "name::UID" (paths name
	// nodes without a name of their own so already).
	UIDs bool
	// Absolute prints seconds since the Unix epoch instead of since the logger attached.
	Absolute bool
	// Since, when set, is the time the relative times count from, instead of when the
	// logger attached: a File's Start, so that the file replays (Log.WriteConsole) to
	// the times the Console printed.
	Since time.Time
	// Filter, when set, chooses the changes to print.
	Filter Filter
	// HideIdle leaves out the changes to IDLE — a completed node reset, a halted node
	// — as StdCoutLogger does after enableTransitionToIdle(false).
	HideIdle bool
	// Sync writes each line on the ticking goroutine as the change is made (see
	// Console), so that the lines and what the program prints itself are in order.
	// A writer that is a terminal (an *os.File on a character device) is written
	// synchronously whatever Sync says.
	Sync bool
}

// NewConsole attaches a Console to t that prints to w. Attach it before the tree
// ticks, or between ticks.
func NewConsole(t *bt.Tree, w io.Writer, o *ConsoleOptions) (*Console, error) {
	if o == nil {
		o = &ConsoleOptions{}
	}
	c := &Console{}
	out, err := c.open(t, w, nil, o.Filter)
	if err != nil {
		return nil, err
	}
	if !o.Since.IsZero() {
		c.start = o.Since
	}
	sink := newConsoleSink(out, c.nodes, o, c.start.UnixMicro())
	if o.Sync || isTerminal(w) {
		c.direct = &direct{sink: sink, stream: &c.stream}
		c.cancel = t.Subscribe(c.direct.change)
		return c, nil
	}
	c.run(t, sink)
	return c, nil
}

// direct is a synchronous Console: it writes each change as the tree makes it.
type direct struct {
	stream *stream // the Console's: its nodes, start, filter and pause
	mu     sync.Mutex
	sink   *consoleSink
	err    error // the first error of a write; after it, nothing more is written
	closed bool
}

// change writes the line of one change; it runs on the ticking goroutine.
func (d *direct) change(sc bt.StatusChange) {
	s := d.stream
	uid := sc.Node.UID()
	if !s.Enabled() || (s.filter != nil && !s.filter(&s.nodes[uid-1], sc.Previous, sc.Status)) {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.err == nil && !d.closed {
		d.err = d.sink.write([]Transition{{Offset: sc.Time.Sub(s.start), UID: uid, Previous: sc.Previous, Status: sc.Status}})
	}
}

// Flush flushes the writer, if it has a Flush method: the lines are written already.
// It returns the first error the Console met, or ErrClosed after Close.
func (c *Console) Flush() error {
	if c.direct == nil {
		return c.stream.Flush()
	}
	d := c.direct
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return ErrClosed
	}
	if d.err == nil {
		d.err = d.sink.flush()
	}
	return d.err
}

// Close detaches the Console from the tree and writes what is left (see Logger). It
// must not be called while the tree ticks.
func (c *Console) Close() error {
	if c.direct == nil {
		return c.stream.Close()
	}
	d := c.direct
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return d.err
	}
	d.closed = true
	c.cancel()
	if err := d.sink.close(0); d.err == nil {
		d.err = err
	}
	return d.err
}

// isTerminal reports whether w is a terminal: an *os.File on a character device.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// newConsoleSink returns the sink that formats the lines of a Console, or of a Log
// replayed, for nodes indexed by UID-1.
func newConsoleSink(out output, nodes []NodeInfo, o *ConsoleOptions, epoch int64) *consoleSink {
	c := &consoleSink{output: out, nodes: nodes, opts: *o, epoch: epoch, width: nameWidth}
	c.labels = make([]string, len(nodes))
	for i := range nodes {
		c.labels[i] = c.label(&nodes[i])
		c.width = max(c.width, utf8.RuneCountInString(c.labels[i]))
	}
	return c
}

// Terminal reports whether w is a terminal that takes colours: an *os.File on a
// character device, with the NO_COLOR environment variable unset or empty.
func Terminal(w io.Writer) bool {
	return os.Getenv("NO_COLOR") == "" && isTerminal(w)
}

type consoleSink struct {
	output
	nodes  []NodeInfo
	labels []string // what a line names each node by, indexed by UID-1
	width  int      // the names are padded to: nameWidth, or the longest label
	opts   ConsoleOptions
	epoch  int64 // the start, in µs since the Unix epoch
}

// label is what the lines name n by: its name or path, with its UID if asked.
func (c *consoleSink) label(n *NodeInfo) string {
	name := n.Name
	if c.opts.Paths {
		name = n.Path
	}
	if uid := "::" + strconv.Itoa(int(n.UID)); c.opts.UIDs && !strings.HasSuffix(name, uid) {
		name += uid
	}
	return name
}

func (c *consoleSink) write(batch []Transition) error {
	for _, tr := range batch {
		if tr.Status != bt.Idle || !c.opts.HideIdle {
			c.buf = c.line(c.buf, tr)
		}
	}
	return c.emit()
}

// nameWidth is the width StdCoutLogger pads names to.
const nameWidth = 25

// line appends the line of one change.
func (c *consoleSink) line(b []byte, tr Transition) []byte {
	name := c.labels[tr.UID-1]
	us := tr.Offset.Microseconds()
	if c.opts.Absolute {
		us += c.epoch
	}
	b = append(b, '[')
	b = appendSeconds(b, us)
	b = append(b, "]: "...)
	b = append(b, name...)
	for i := utf8.RuneCountInString(name); i < c.width; i++ {
		b = append(b, ' ')
	}
	b = append(b, ' ')
	b = c.status(b, tr.Previous)
	b = append(b, " -> "...)
	b = c.status(b, tr.Status)
	return append(b, '\n')
}

// appendSeconds appends µs as seconds with three decimals, as StdCoutLogger's "%.3f".
func appendSeconds(b []byte, us int64) []byte {
	return strconv.AppendFloat(b, float64(us)/1e6, 'f', 3, 64)
}

// colours are StdCoutLogger's, by status.
var colours = [...]string{
	bt.Idle:    "\x1b[36m", // cyan
	bt.Running: "\x1b[33m", // yellow
	bt.Success: "\x1b[32m", // green
	bt.Failure: "\x1b[31m", // red
	bt.Skipped: "\x1b[34m", // blue
}

func (c *consoleSink) status(b []byte, s bt.Status) []byte {
	if !c.opts.Color || int(s) >= len(colours) {
		return append(b, s.String()...)
	}
	b = append(b, colours[s]...)
	b = append(b, s.String()...)
	return append(b, "\x1b[0m"...)
}

func (c *consoleSink) close(time.Duration) error { return c.output.close() }
