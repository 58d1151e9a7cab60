package cli

import (
	"errors"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"syscall"

	"github.com/gobt/bt"
	"github.com/gobt/bt/monitor"
)

// defaultAddr is where --serve and view listen without an address: loopback only, so
// that nobody else can read the tree.
const defaultAddr = "127.0.0.1:8642"

// serveFlag is --serve, alone (the default address) or with an address: --serve=ADDR,
// --serve ADDR (see joinFlagValues), or a port alone (--serve 8080: on loopback).
type serveFlag struct{ optionalFlag }

// address returns where to listen, def when --serve stands alone, and whether the
// flag was given. A port alone is a port of 127.0.0.1, as for --groot2.
func (s *serveFlag) address(def string) (string, bool) {
	switch v := s.value; {
	case v == "":
		return "", false
	case v == "true":
		return def, true
	case isPort(v):
		return net.JoinHostPort("127.0.0.1", v), true
	default:
		return v, true
	}
}

// serveAddr returns the address --serve and view listen on when given none:
// defaultAddr, unless a test says otherwise.
func (c *cmd) serveAddr() string {
	if c.defaultAddr != "" {
		return c.defaultAddr
	}
	return defaultAddr
}

// addrArg matches an argument that is an address rather than a file: "host:port",
// ":port", "[::1]:port".
var addrArg = regexp.MustCompile(`^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]*):[0-9]+$`)

// server serves a monitor until it is closed.
type server struct {
	srv *monitor.Server
	url string
}

// listen starts serving m at addr and says where on w, with the monitor's limits
// (monitor.NewServer: timeouts, idle connections closed, connections capped). An
// address that is not a loopback one is served too, with a warning: the monitor has no
// authentication.
func listen(m *monitor.Monitor, addr string, w io.Writer, what string) (*server, error) {
	ln, err := net.Listen("tcp", addr)
	if errors.Is(err, syscall.EADDRINUSE) {
		// Another bt run --serve or bt view, most likely: say how to get out of its way.
		return nil, fmt.Errorf("cannot serve at %s: the address is in use (another bt run --serve or bt view?); give another with --serve=ADDR, or --serve=127.0.0.1:0 for a free port", addr)
	}
	if err != nil {
		return nil, fmt.Errorf("cannot serve at %s: %w", addr, errors.Unwrap(err))
	}
	tcp := ln.Addr().(*net.TCPAddr)
	host := tcp.IP.String()
	if tcp.IP.IsUnspecified() {
		host = "localhost"
	}
	s := &server{srv: monitor.NewServer(addr, m), url: "http://" + net.JoinHostPort(host, fmt.Sprint(tcp.Port)) + "/"}
	go s.srv.Serve(ln)
	fmt.Fprintf(w, "bt: serving %s at %s\n", what, s.url)
	if !tcp.IP.IsLoopback() {
		fmt.Fprintf(w, "bt: %s is not a loopback address: whoever reaches it can watch the tree\n", addr)
	}
	return s, nil
}

// until serves until the command is interrupted, then stops serving.
func (s *server) until(c *cmd) {
	<-c.ctx.Done()
	s.srv.Close()
}

// serveRun is what --serve adds to a run: the server of a monitor the tree is added
// to. The monitor observes the tree from before its first tick, so that the timeline
// holds the run from its start whenever a browser connects; its feed follows the
// ticks and halts by itself.
type serveRun struct {
	*server
}

func startServe(c *cmd, tree *bt.Tree, addr string) (*serveRun, error) {
	m := monitor.New(monitor.ObserveAlways())
	name := tree.ID()
	if name == "" {
		name = "MainTree"
	}
	if _, err := m.Add(name, tree); err != nil {
		return nil, err
	}
	s, err := listen(m, addr, c.stderr, "the tree "+name)
	if err != nil {
		return nil, err
	}
	return &serveRun{s}, nil
}

var viewHelp = help{
	usage: "bt view [flags] FILE.btlog|FILE.db3",
	text: `View serves a recorded run in a browser: it prints the address of a page that
draws the tree, coloured by the status of each node, with a timeline to step
through the run, pause, and play it at the pace it was recorded; the page zooms,
follows the running nodes, finds nodes and shows each one's details. The file
may come from "bt run --btlog", from a Go program (btlog.CreateFile) or from
BehaviorTree.CPP's FileLogger2, or be a SQLite database (.db3, .btdb) of "bt run
--sqlite" or of BehaviorTree.CPP's SqliteLogger: one that holds several sessions
needs --session ID, and without it the command lists them. It serves until
interrupted (Ctrl-C).

A .btlog file records when each status changed, not the ticks: each burst of
changes is a step of the timeline, a change more than --gap after the one before
starting the next step. A tick that changed nothing leaves no step.

The page is served on a loopback address (` + defaultAddr + `) unless --serve gives
another (--serve=ADDR or --serve ADDR, as for "bt run --serve"; a port alone is one of
127.0.0.1, and --serve=127.0.0.1:0 picks a free port); it needs no network. --addr is
the old spelling of --serve=ADDR. A file that is not a .btlog, or is damaged, is an
error naming the byte where the problem is; a file cut short (a run that was
killed) is served up to the cut, with a warning.
`,
	example: `bt view examples/sniper/sniper.btlog
bt view --serve 127.0.0.1:0 --gap 5ms examples/sniper/sniper.btlog`,
}

// view implements "bt view".
func (c *cmd) view(args []string) int {
	fs := flags("view")
	var serve serveFlag
	fs.Var(&serve, "serve", "serve the page at `ADDR` (host:port, or a port of 127.0.0.1; 127.0.0.1:0 picks a free port; default "+defaultAddr+")")
	fs.Func("addr", "the old spelling of --serve=`ADDR`", func(v string) error { return serve.Set(v) })
	session := fs.Int64("session", 0, "serve the session `ID` of a database (.db3) that holds several")
	gap := fs.Duration("gap", monitor.DefaultGap, "start a new step of the timeline after a pause of more than `D` between two changes")
	files, code, ok := c.parse(fs, viewHelp, joinFlagValues(args))
	switch {
	case !ok:
		return code
	case len(files) == 2 && (addrArg.MatchString(files[1]) || isPort(files[1])):
		return c.usageError(viewHelp, "view takes its address after --serve: bt view --serve %s %s", files[1], files[0])
	case len(files) != 1:
		return c.usageError(viewHelp, "view needs one FILE.btlog or FILE.db3, got %d arguments%s", len(files), valueHint(args, files))
	case *gap < 0:
		return c.usageError(viewHelp, "--gap must not be negative")
	}
	addr, given := serve.address(c.serveAddr())
	if !given {
		addr = c.serveAddr()
	}
	log, err := c.readLog(files[0], *session)
	if log == nil {
		return c.readFailed(err)
	}
	if err != nil { // cut short: serve what was read before the cut
		fmt.Fprintf(c.stderr, "bt: warning: %v\n", readError(err))
	}
	m := monitor.New(monitor.StepGap(*gap))
	if err := m.AddLog(filepath.Base(files[0]), log); err != nil {
		c.fail(err)
		return exitError
	}
	// The monitor keeps the transitions in the file's encoding (9 bytes each); the
	// Log's (16 bytes each, and the file read whole) are given back to the system now
	// rather than held for as long as the page is served.
	log = nil
	debug.FreeOSMemory()
	s, err := listen(m, addr, c.stdout, files[0])
	if err != nil {
		c.fail(err)
		return exitError
	}
	s.until(c)
	return exitOK
}
