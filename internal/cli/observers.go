package cli

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gobt/bt"
	"github.com/gobt/bt/btlog"
)

// watchOptions are the flags of "bt run" that watch the run: the loggers of btlog,
// and Groot2.
type watchOptions struct {
	log                 bool       // --log: the console, on stdout
	paths, uids         bool       // --paths, --uids: how --log names nodes
	btlog, trace, jsonl string     // files to write ("": none)
	sqlite              string     // --sqlite: a database to write ("": none)
	sqliteAppend        bool       // --sqlite-append: as a new session
	stats               bool       // --stats: a table at the end
	groot2              groot2Flag // --groot2: publish to Groot2
	groot2ReadOnly      bool       // --groot2-read-only: without hooks
	serve               serveFlag  // --serve: the tree in a browser
}

// register defines the flags on fs.
func (w *watchOptions) register(fs *flag.FlagSet) {
	fs.BoolVar(&w.log, "log", false, "print every status change as it happens, as BehaviorTree.CPP's StdCoutLogger does, and the debug messages of Log nodes")
	fs.BoolVar(&w.paths, "paths", false, "with --log: name each node by its path in the tree (Main/Patrol/Move) instead of its name")
	fs.BoolVar(&w.uids, "uids", false, "with --log: add each node's UID to its name (Move::7), as Groot2 and the .btlog file number nodes")
	fs.StringVar(&w.btlog, "btlog", "", "record every status change in `FILE.btlog` (BehaviorTree.CPP's FileLogger2 format, which Groot2 and bt replay read)")
	fs.StringVar(&w.sqlite, "sqlite", "", "record the run in the SQLite database `FILE.db3` (BehaviorTree.CPP's SqliteLogger; Groot2 and bt replay read it), replacing the sessions it holds")
	fs.BoolVar(&w.sqliteAppend, "sqlite-append", false, "with --sqlite: add the run to the database as a new session")
	fs.StringVar(&w.trace, "trace", "", "write the run as a Chrome trace to `FILE.json`, to open in Perfetto or chrome://tracing")
	fs.StringVar(&w.jsonl, "jsonl", "", "write a JSON object per status change to `FILE`, a line each")
	fs.BoolVar(&w.stats, "stats", false, "print a table of statistics per node at the end: transitions, successes, failures, last result and status")
	fs.Var(&w.groot2, "groot2", fmt.Sprintf("publish the run to Groot2 on `PORT` (default %d) and the next port of 127.0.0.1, or of HOST with HOST:PORT (0.0.0.0:PORT: every interface): Groot2 follows it live, sets breakpoints and injects faults", defaultGroot2Port))
	fs.BoolVar(&w.groot2ReadOnly, "groot2-read-only", false, "with --groot2: monitoring only; Groot2 follows the run but cannot set breakpoints or inject faults")
	fs.Var(&w.serve, "serve", "serve the tree in a browser at `ADDR` (host:port, or a port of 127.0.0.1; default "+defaultAddr+", loopback only), and go on serving the run once it is over, until interrupted")
}

// check reports what is wrong with the flags before anything runs; canPublish and
// canSQLite say whether the command has a Groot2 publisher and a SQLite logger.
func (w *watchOptions) check(canPublish, canSQLite bool) error {
	if w.btlog != "" && filepath.Ext(w.btlog) != btlog.Ext {
		return fmt.Errorf("--btlog %s: the file's name must end in %s (Groot2 reads no other)", w.btlog, btlog.Ext)
	}
	switch {
	case w.sqlite != "" && !isDatabase(w.sqlite):
		return fmt.Errorf("--sqlite %s: the file's name must end in .db3 or .btdb (as BehaviorTree.CPP's SqliteLogger requires)", w.sqlite)
	case w.sqlite != "" && !canSQLite:
		return fmt.Errorf("--sqlite: %w", errNoSQLite)
	case w.sqlite == "" && w.sqliteAppend:
		return errors.New("--sqlite-append: give --sqlite too (it names the database)")
	}
	_, given, err := w.groot2.addr()
	switch {
	case err != nil:
		return err
	case !given && w.groot2ReadOnly:
		return errors.New("--groot2-read-only: give --groot2 too (it says where to publish)")
	case !given || canPublish:
		return nil
	}
	return errors.New("--groot2: this bt was built without Groot2 support; the command of the repository's cmd/bt has it")
}

// defaultGroot2Port is the port Groot2 connects to by default (BehaviorTree.CPP's),
// and defaultGroot2Host where bt listens unless told: this machine only, since a
// client can pause and alter the run.
const (
	defaultGroot2Port = 1667
	defaultGroot2Host = "127.0.0.1"
)

// groot2Flag is --groot2, alone (the default port) or with a port or an address:
// --groot2=1700, --groot2=0.0.0.0:1700, or "--groot2 1700" (see joinFlagValues).
type groot2Flag struct{ optionalFlag }

// addr returns the host and server port, and whether --groot2 was given. ":PORT"
// means every interface, as it does for Go's net.Listen.
func (g *groot2Flag) addr() (Groot2Options, bool, error) {
	o := Groot2Options{Host: defaultGroot2Host, Port: defaultGroot2Port}
	switch g.value {
	case "":
		return o, false, nil
	case "true":
		return o, true, nil
	}
	port := g.value
	if !isPort(port) {
		host, p, err := net.SplitHostPort(g.value)
		if err != nil || !isPort(p) {
			return o, false, fmt.Errorf("--groot2=%s: want PORT or HOST:PORT", g.value)
		}
		o.Host, port = cmp.Or(host, "0.0.0.0"), p
	}
	o.Port, _ = strconv.Atoi(port)
	if o.Port < 1 || o.Port > 65534 {
		return o, false, fmt.Errorf("--groot2=%s: want a port from 1 to 65534 (the publisher takes the next one too)", g.value)
	}
	return o, true, nil
}

// isLoopback reports whether host is an address of this machine only.
func isLoopback(host string) bool {
	ip := net.ParseIP(host)
	return host == "localhost" || ip != nil && ip.IsLoopback()
}

// optionalValues are the flags that may stand alone or take a value, with what a
// value of theirs looks like: "--groot2 1700", "--serve :8080" and "--mock-all
// FAILURE" take the next argument as their value when it looks like one (else it is
// the file), which package flag does not do for a flag that may stand alone.
var optionalValues = map[string]func(string) bool{
	"groot2":   func(s string) bool { return isPort(s) || addrArg.MatchString(s) },
	"serve":    func(s string) bool { return isPort(s) || addrArg.MatchString(s) },
	"mock-all": isStatusName,
}

// isStatusName reports whether s names a status a mocked leaf may return.
func isStatusName(s string) bool {
	switch strings.ToUpper(s) {
	case "SUCCESS", "FAILURE", "RUNNING", "SKIPPED":
		return true
	}
	return false
}

// joinFlagValues turns "--groot2 PORT" into "--groot2=PORT", and likewise for every
// flag of optionalValues.
func joinFlagValues(args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		if isValue, ok := optionalValues[optionalName(a)]; ok && i+1 < len(args) && isValue(args[i+1]) {
			a += "=" + args[i+1]
			i++
		}
		out = append(out, a)
	}
	return out
}

// optionalName returns the name of the flag of optionalValues that arg is, given
// without a value ("--serve", "-serve"), or "".
func optionalName(arg string) string {
	name := strings.TrimLeft(arg, "-")
	if _, ok := optionalValues[name]; ok && strings.HasPrefix(arg, "-") && len(arg)-len(name) <= 2 {
		return name
	}
	return ""
}

// exists reports whether there is a file or directory at path.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// valueHint explains an argument taken for a file that follows a flag of
// optionalValues given without "=" ("--mock-all FAILUR tree.xml"): its value, if it is
// one, must be written with "=". It returns "" when there is none, or when the
// argument is a file that exists.
func valueHint(args, files []string) string {
	for i, a := range args[:max(len(args)-1, 0)] {
		if name := optionalName(a); name != "" && slices.Contains(files, args[i+1]) && !exists(args[i+1]) {
			return fmt.Sprintf("; if %q is the value of --%s, write --%s=%s", args[i+1], name, name, args[i+1])
		}
	}
	return ""
}

func isPort(s string) bool {
	_, err := strconv.ParseUint(s, 10, 16)
	return err == nil
}

// observers watch a run: the loggers the flags ask for. They are attached once the
// tree is built, before its first tick, and closed once the run is over and the tree
// halted. The console prints on stdout from its own goroutine, so run flushes it
// (flush) before each line of its own, to keep the lines in the order they happened.
//
// A new way to watch a run adds its flag to watchOptions and its observer to attach.
type observers struct {
	console *btlog.Console // --log
	stats   *btlog.Stats   // --stats
	serve   *serveRun      // --serve
	open    []observer     // everything attached or opened, closed in this order
}

// observer is something to close at the end of a run, and the flag that made it.
type observer struct {
	flag string
	c    io.Closer
}

// attach attaches to tree the observers that w asks for, and returns the problems of
// those it could not attach (a file it could not create), one per flag. Those attached
// must be closed in any case.
func (obs *observers) attach(c *cmd, tree *bt.Tree, w *watchOptions) error {
	var errs []error
	try := func(flag string, err error) bool {
		if err != nil {
			errs = append(errs, flagError(flag, err))
		}
		return err == nil
	}
	var since time.Time // of the .btlog file: --log prints the times its replay prints
	if w.btlog != "" {
		f, err := btlog.CreateFile(tree, w.btlog)
		if try("--btlog", err) {
			obs.add("--btlog", f)
			since = f.Start()
		}
	}
	if w.sqlite != "" {
		l, err := c.sqlite.Create(tree, w.sqlite, w.sqliteAppend)
		if try("--sqlite", err) {
			obs.add("--sqlite", l)
		}
	}
	if w.log {
		console, err := btlog.NewConsole(tree, c.stdout, &btlog.ConsoleOptions{Color: c.color, Paths: w.paths, UIDs: w.uids, Since: since})
		if try("--log", err) {
			obs.console = console
			obs.add("--log", console)
		}
	}
	if w.trace != "" {
		tr, err := btlog.CreateTrace(tree, w.trace, &btlog.TraceOptions{PID: c.pid})
		if try("--trace", err) {
			obs.add("--trace", tr)
		}
	}
	if w.jsonl != "" {
		f, err := os.Create(w.jsonl)
		if try("--jsonl", err) {
			j, err := btlog.NewJSONL(tree, f, nil)
			if try("--jsonl", err) {
				obs.add("--jsonl", j)
			}
			obs.add("--jsonl", f) // after the logger, which does not close it
		}
	}
	if w.stats {
		s, err := btlog.NewStats(tree)
		if try("--stats", err) {
			obs.stats = s
			obs.add("--stats", s)
		}
	}
	if o, ok, _ := w.groot2.addr(); ok {
		o.ReadOnly = w.groot2ReadOnly
		pub, err := c.publish(tree, o)
		if try("--groot2", err) {
			// An interrupt closes it at once, which lets a tick paused at a breakpoint go
			// on, so that the run can stop.
			stop := context.AfterFunc(c.ctx, func() { pub.Close() })
			obs.add("--groot2", closer(func() error { stop(); return pub.Close() }))
			announceGroot2(c.stderr, o)
		}
	}
	if addr, ok := w.serve.address(c.serveAddr()); ok {
		s, err := startServe(c, tree, addr)
		if try("--serve", err) {
			obs.serve = s
		}
	}
	return errors.Join(errs...)
}

// announceGroot2 says on stderr where the run is published, and warns when clients
// of other machines may connect.
func announceGroot2(w io.Writer, o Groot2Options) {
	mode := ""
	if o.ReadOnly {
		mode = " (read-only)"
	}
	fmt.Fprintf(w, "bt: publishing to Groot2 on ports %d and %d of %s%s\n", o.Port, o.Port+1, o.Host, mode)
	switch {
	case isLoopback(o.Host):
	case o.ReadOnly:
		fmt.Fprintf(w, "bt: warning: --groot2 %s: clients on other machines can connect, without authentication, and read the tree and its blackboards\n",
			net.JoinHostPort(o.Host, strconv.Itoa(o.Port)))
	default:
		fmt.Fprintf(w, "bt: warning: --groot2 %s: clients on other machines can connect, without authentication, and pause and alter the tree (breakpoints, fault injection); add --groot2-read-only to let them only watch\n",
			net.JoinHostPort(o.Host, strconv.Itoa(o.Port)))
	}
}

// closer is a function that closes something.
type closer func() error

func (f closer) Close() error { return f() }

// serveUntilInterrupted goes on serving the run for --serve, once it is over, until
// the command is interrupted.
func (obs *observers) serveUntilInterrupted(c *cmd) {
	if obs.serve == nil {
		return
	}
	if c.ctx.Err() == nil {
		fmt.Fprintf(c.stderr, "bt: the run is over; serving it at %s until interrupted (Ctrl-C)\n", obs.serve.url)
	}
	obs.serve.until(c)
}

func (obs *observers) add(flag string, c io.Closer) {
	obs.open = append(obs.open, observer{flag, c})
}

// flush writes out what the console has queued, before run prints a line of its own.
// An error of the console is reported when it is closed.
func (obs *observers) flush() {
	if obs.console != nil {
		obs.console.Flush()
	}
}

// close closes every observer, which writes out what is left, and returns their
// errors, each naming its flag. The tree must not be ticking.
func (obs *observers) close() error {
	var errs []error
	for _, o := range obs.open {
		if err := o.c.Close(); err != nil {
			errs = append(errs, flagError(o.flag, err))
		}
	}
	obs.open = nil
	return errors.Join(errs...)
}

// report prints what the observers have to say at the end of a run, once closed:
// the table of --stats.
func (obs *observers) report(w io.Writer) {
	if obs.stats != nil {
		obs.stats.WriteTable(w)
	}
}

// flagError names the flag whose file or logger failed.
func flagError(flag string, err error) error {
	return fmt.Errorf("%s: %s", flag, strings.TrimPrefix(err.Error(), "btlog: "))
}

// logHandler prints the records of the tree's logger — what Log nodes write — as
// "log <LEVEL> <node>: <message>", then the other attributes as key=value. before,
// if set, runs before each record is printed: it flushes the console, whose lines
// come first.
type logHandler struct {
	w      io.Writer
	level  slog.Level
	before func()
	attrs  string // the attributes of WithAttrs, rendered
	group  string // the prefix of WithGroup, "g." or ""
}

func (h *logHandler) Enabled(_ context.Context, l slog.Level) bool { return l >= h.level }

func (h *logHandler) Handle(_ context.Context, r slog.Record) error {
	var node string
	extra := []byte(h.attrs)
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "node" && h.group == "" && node == "" {
			node = " " + a.Value.String() + ":"
		} else {
			extra = fmt.Appendf(extra, " %s%s=%s", h.group, a.Key, a.Value)
		}
		return true
	})
	if h.before != nil {
		h.before()
	}
	_, err := fmt.Fprintf(h.w, "log %s%s %s%s\n", r.Level, node, r.Message, extra)
	return err
}

func (h *logHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	h2 := *h
	for _, a := range attrs {
		h2.attrs += fmt.Sprintf(" %s%s=%s", h.group, a.Key, a.Value)
	}
	return &h2
}

func (h *logHandler) WithGroup(name string) slog.Handler {
	h2 := *h
	h2.group += name + "."
	return &h2
}
