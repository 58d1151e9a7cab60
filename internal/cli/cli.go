package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/gobt/bt"
	"github.com/gobt/bt/btlog"
	"github.com/gobt/bt/btxml"
	"github.com/gobt/bt/internal/typo"
)

// Exit statuses.
const (
	exitOK    = 0
	exitError = 1 // the command ran and failed (bad file, failing tree …)
	exitUsage = 2 // the command line is wrong
)

// Main runs the bt command with args (without the program name) and returns the exit
// status. An interrupt (Ctrl-C) or SIGTERM (what timeout, docker stop and systemd
// send) stops "bt run" cleanly: the tree is halted first.
// The options give the command what the main module cannot hold (see WithGroot2 and
// WithSQLite).
func Main(args []string, stdout, stderr io.Writer, opts ...Option) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	out := &outWriter{w: stdout}
	c := &cmd{ctx: ctx, stdout: out, stderr: stderr, color: btlog.Terminal(stdout)}
	for _, o := range opts {
		o(c)
	}
	code := c.main(args)
	if out.err != nil && code == exitOK { // a full disk must not look like success
		fmt.Fprintf(stderr, "bt: writing the output: %v\n", out.err)
		code = exitError
	}
	return code
}

// outWriter is the command's standard output: it keeps the first error of a write, and
// writes nothing after it.
type outWriter struct {
	w   io.Writer
	err error
}

func (o *outWriter) Write(p []byte) (int, error) {
	if o.err != nil {
		return 0, o.err
	}
	n, err := o.w.Write(p)
	o.err = err
	return n, err
}

// Option gives the command a capability.
type Option func(*cmd)

// Publish starts serving tree to Groot2 as o says until Close; Close also lets go a
// tick paused at a breakpoint.
type Publish func(tree *bt.Tree, o Groot2Options) (io.Closer, error)

// Groot2Options say where and how "bt run --groot2" publishes: on Host, ports Port
// (Groot2's requests) and Port+1 (its notices); with ReadOnly, monitoring only (no
// hooks: no breakpoints, no fault injection).
type Groot2Options struct {
	Host     string // never "": "127.0.0.1" unless --groot2 gives another
	Port     int
	ReadOnly bool
}

// WithGroot2 gives "bt run --groot2" its publisher. The command in cmd/bt passes the
// one of the groot2 module, which the main module cannot import: it would make every
// user of bt depend on ZeroMQ.
func WithGroot2(p Publish) Option { return func(c *cmd) { c.publish = p } }

// SQLite is what the command does with SQLite databases (BehaviorTree.CPP's
// SqliteLogger files, .db3 or .btdb): "bt run --sqlite" records a run, "bt replay"
// and "bt view" read one back. The command in cmd/bt passes the btsqlite module's,
// which the main module cannot import: it would make every user of bt depend on a
// SQLite driver.
type SQLite struct {
	// Create attaches to tree a logger that records its run in the database file name,
	// as a new session (appending) or as the only one; Close writes what is left.
	Create func(tree *bt.Tree, name string, appending bool) (io.Closer, error)
	// Sessions lists the sessions of the database file name, by ID.
	Sessions func(name string) ([]SQLiteSession, error)
	// Read reads a session of the database file name.
	Read func(name string, session int64) (*btlog.Log, error)
}

// SQLiteSession is a recorded run in a database.
type SQLiteSession struct {
	ID          int64
	Date        string // when it started, as the database holds it
	Transitions int64
}

// WithSQLite gives "bt run --sqlite", "bt replay" and "bt view" their SQLite logger
// and reader (see SQLite).
func WithSQLite(s SQLite) Option { return func(c *cmd) { c.sqlite = &s } }

// cmd is one invocation of the command: where it writes and what it may use.
type cmd struct {
	ctx            context.Context
	stdout, stderr io.Writer
	color          bool     // stdout is a terminal that takes ANSI colours
	pid            int      // the process ID written in traces (0: the process's own)
	publish        Publish  // for --groot2; nil: not built in
	defaultAddr    string   // where --serve and view listen by default ("": defaultAddr)
	unknown, typos []string // node types bt run's file uses and bt does not know (see unknownTypes)
	sqlite         *SQLite  // for --sqlite and .db3 files; nil: not built in
}

// command is a subcommand: its name, a one-line summary and its implementation.
type command struct {
	name, summary string
	run           func(c *cmd, args []string) int
	document      bool // its stdout is a document, written as it is (see escaper)
}

func commands() []command {
	return []command{
		{"run", "tick a tree; print its statuses and its blackboard", (*cmd).run, false},
		{"replay", "print the status changes of a .btlog file (bt's or BehaviorTree.CPP's)", (*cmd).replay, false},
		{"view", "serve a .btlog file in a browser, with a timeline to step through the run", (*cmd).view, false},
		{"check", "validate files without running them", (*cmd).check, false},
		{"nodes", "list the node types with their ports", (*cmd).nodes, false},
		{"models", "write the TreeNodesModel XML of the node types (for Groot2)", (*cmd).models, true},
		{"graph", "draw a tree as Graphviz DOT, Mermaid or indented text", (*cmd).graph, false},
		{"convert", "upgrade a format-3 file to format 4", (*cmd).convert, true},
	}
}

func (c *cmd) main(args []string) int {
	if len(args) == 0 {
		c.usage(c.stderr)
		return exitUsage
	}
	name := args[0]
	switch name {
	case "help", "-h", "-help", "--help":
		if len(args) == 1 {
			c.usage(c.stdout)
			return exitOK
		}
		if len(args) > 2 {
			fmt.Fprintln(c.stderr, "usage: bt help [command]")
			return exitUsage
		}
		name, args = args[1], []string{args[1], "--help"}
	}
	var names []string
	for _, cm := range commands() {
		if cm.name == name {
			return c.runEscaped(cm, args[1:])
		}
		names = append(names, cm.name)
	}
	fmt.Fprintf(c.stderr, "bt: unknown command %q%s\nRun 'bt help' for the list of commands.\n", name, typo.Suggest(name, names))
	return exitUsage
}

// runEscaped runs the command cm with its output escaped for a terminal (see
// escaper): stderr always, stdout unless the command writes a document.
func (c *cmd) runEscaped(cm command, args []string) int {
	stderr := escapedTo(c.stderr, false)
	c.stderr = stderr
	defer stderr.flush()
	if !cm.document {
		stdout := escapedTo(c.stdout, c.color)
		c.stdout = stdout
		defer stdout.flush()
	}
	return cm.run(c, args)
}

func (c *cmd) usage(w io.Writer) {
	fmt.Fprint(w, `bt runs, checks, draws and converts BehaviorTree.CPP XML files, and replays their runs.

Usage:

	bt <command> [flags] [arguments]

The commands are:

`)
	for _, cm := range commands() {
		fmt.Fprintf(w, "\t%-8s %s\n", cm.name, cm.summary)
	}
	fmt.Fprint(w, `
Run "bt help <command>" or "bt <command> --help" for the flags and an example.

Example:

	bt run examples/sniper/sniper.xml
`)
}

// help is the text of a subcommand's --help.
type help struct {
	usage   string // the synopsis, after "usage: "
	text    string // what the command does
	example string // one or more command lines
}

// flags returns a flag set that reports nothing by itself: parse does.
func flags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet("bt "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// parse parses the flags of a subcommand, which may come before, between or after its
// other arguments (as in "bt run tree.xml --log"); "--" ends the flags. ok is false
// when the command must stop with status code: --help (0) or a usage error (2).
func (c *cmd) parse(fs *flag.FlagSet, h help, args []string) (rest []string, code int, ok bool) {
	for {
		err := fs.Parse(args)
		if errors.Is(err, flag.ErrHelp) {
			c.printHelp(c.stdout, fs, h)
			return nil, exitOK, false
		}
		if err != nil {
			return nil, c.usageError(h, "%s", flagMessage(fs, err)), false
		}
		tail := fs.Args()
		if len(tail) == 0 {
			return rest, 0, true
		}
		if n := len(args) - len(tail); n > 0 && args[n-1] == "--" {
			return append(rest, tail...), 0, true
		}
		rest = append(rest, tail[0])
		args = tail[1:]
	}
}

// flagSpelling matches a flag as package flag names it in its errors ("-set").
var flagSpelling = regexp.MustCompile(`(^|flag |: )-([A-Za-z0-9][A-Za-z0-9-]+)`)

// flagMessage is the message of a flag package error in the spelling the help uses
// ("--set", not "-set"), with "did you mean" for a flag that does not exist.
func flagMessage(fs *flag.FlagSet, err error) string {
	msg := flagSpelling.ReplaceAllString(err.Error(), "$1--$2")
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: --"); ok {
		var names []string
		fs.VisitAll(func(f *flag.Flag) { names = append(names, "--"+f.Name) })
		msg = "unknown flag --" + name + strings.ReplaceAll(typo.Suggest("--"+name, names), `"`, "")
	}
	return msg
}

// usageError reports a wrong command line and returns exitUsage.
func (c *cmd) usageError(h help, format string, args ...any) int {
	fmt.Fprintf(c.stderr, "bt: %s\nusage: %s\nRun 'bt %s --help' for details.\n", fmt.Sprintf(format, args...), h.usage, strings.Fields(h.usage)[1])
	return exitUsage
}

func (c *cmd) printHelp(w io.Writer, fs *flag.FlagSet, h help) {
	fmt.Fprintf(w, "usage: %s\n\n%s\nExample:\n\n", h.usage, wrap(h.text, 80))
	for _, line := range strings.Split(strings.TrimSpace(h.example), "\n") {
		fmt.Fprintf(w, "\t%s\n", line)
	}
	fmt.Fprintln(w, "\nFlags:")
	fs.VisitAll(func(f *flag.Flag) {
		arg, text := flag.UnquoteUsage(f)
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() && arg != "" {
			arg = "[=" + arg + "]" // a flag that may stand alone
		} else if arg != "" {
			arg = " " + arg
		}
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" && f.DefValue != "0s" {
			text += fmt.Sprintf(" (default %s)", f.DefValue)
		}
		dash := "--"
		if len(f.Name) == 1 {
			dash = "-"
		}
		fmt.Fprintf(w, "  %s%s%s\n%s", dash, f.Name, arg, indent(wrap(text, 72), "    \t"))
	})
}

// wrap fills the paragraphs of text (separated by blank lines) into lines of at most
// width characters.
func wrap(text string, width int) string {
	var b strings.Builder
	for i, para := range strings.Split(strings.TrimSpace(text), "\n\n") {
		if i > 0 {
			b.WriteString("\n")
		}
		n := 0
		for _, word := range strings.Fields(para) {
			l := utf8.RuneCountInString(word)
			switch {
			case n == 0:
			case n+1+l > width:
				b.WriteString("\n")
				n = 0
			default:
				b.WriteString(" ")
				n++
			}
			b.WriteString(word)
			n += l
		}
		b.WriteString("\n")
	}
	return b.String()
}

// indent puts prefix before every line of text.
func indent(text, prefix string) string {
	return prefix + strings.ReplaceAll(strings.TrimSuffix(text, "\n"), "\n", "\n"+prefix) + "\n"
}

// loadDocument reads a BehaviorTree.CPP file with its includes. Includes are resolved
// against the file's directory and may not leave it, as Factory.LoadFile does. dir is
// the directory that the positions in the document and its errors are relative to.
func loadDocument(path string) (doc *btxml.Document, dir string, err error) {
	dir, name := filepath.Split(path)
	if name == "" {
		return nil, dir, fmt.Errorf("%s: not a file", path)
	}
	if dir == "" {
		dir = "."
	}
	// Say what is wrong with the file itself with the path the user gave.
	switch st, err := os.Stat(path); {
	case errors.As(err, new(*fs.PathError)):
		return nil, dir, fmt.Errorf("%s: %w", path, errors.Unwrap(err))
	case err != nil:
		return nil, dir, err
	case st.IsDir():
		return nil, dir, fmt.Errorf("%s: is a directory", path)
	}
	doc, err = btxml.Load(os.DirFS(dir), name)
	return doc, dir, err
}

// factory returns a factory that knows the builtin nodes and, given a models file, a
// stand-in for each node type it declares.
func factory(modelsPath string) (*bt.Factory, error) {
	m, err := readModels(modelsPath)
	if err != nil {
		return nil, err
	}
	return factoryWith(m)
}

// readModels reads the TreeNodesModel of the file path ("": none).
func readModels(path string) (*models, error) {
	if path == "" {
		return nil, nil
	}
	doc, dir, err := loadDocument(path)
	if err != nil {
		return nil, located(err, dir)
	}
	return &models{doc.Models, dir, doc.Notes}, nil
}

// models are the node models of a --models file, read once for every factory.
type models struct {
	list  []*btxml.Model
	dir   string       // of the file: its positions are relative to it
	notes []btxml.Note // what the file holds that BehaviorTree.CPP ignores
}

// factoryWith returns a factory that knows the builtin nodes and stand-ins for m
// (nil: none).
func factoryWith(m *models) (*bt.Factory, error) {
	f := bt.NewFactory()
	f.SetLogger(slog.New(slog.DiscardHandler)) // the commands print the notes themselves
	if m == nil {
		return f, nil
	}
	if err := f.RegisterStandIns(m.list); err != nil {
		return nil, located(err, m.dir)
	}
	return f, nil
}

// located rewrites the positions of err, which are relative to dir (the directory of
// the file given on the command line), into paths as the user wrote them.
func located(err error, dir string) error {
	if err == nil || dir == "." || dir == "" {
		return err
	}
	return &relocated{err: err, dir: dir}
}

type relocated struct {
	err error
	dir string
}

func (r *relocated) Error() string { return strings.Join(messages(r), "\n") }
func (r *relocated) Unwrap() error { return r.err }

// messages lists the problems err holds, one string each ("file:line:col: message"
// when the problem has a position). A relocated error prefixes their files with its
// directory.
func messages(err error) []string { return messagesIn(err, "") }

// messagesIn is messages for the problems of one file: those without a position are
// given the file's name.
func messagesIn(err error, file string) []string {
	var out []string
	var walk func(err error, dir string)
	walk = func(err error, dir string) {
		var pe *btxml.Error
		switch e := err.(type) {
		case nil:
		case *relocated:
			walk(e.err, e.dir)
		case *btxml.Error:
			pe = e
		case interface{ Unwrap() []error }:
			for _, sub := range e.Unwrap() {
				walk(sub, dir)
			}
		case error:
			if file == "" {
				out = append(out, err.Error())
			} else {
				out = append(out, file+": "+strings.TrimPrefix(err.Error(), "bt: "))
			}
		}
		if pe != nil {
			p := *pe
			if p.Pos.File != "" && dir != "" && !filepath.IsAbs(p.Pos.File) {
				p.Pos.File = filepath.Join(dir, filepath.FromSlash(p.Pos.File))
			}
			out = append(out, p.Error())
		}
	}
	walk(err, "")
	return out
}
