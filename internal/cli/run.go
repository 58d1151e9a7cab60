package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gobt/bt"
	"github.com/gobt/bt/blackboard"
	"github.com/gobt/bt/btxml"
)

var runHelp = help{
	usage: "bt run [flags] FILE.xml",
	text: `Run loads FILE.xml (BehaviorTree.CPP format 4, or 3, which is upgraded first),
builds its main tree and ticks it as a robot's main loop does (BehaviorTree.CPP's
tickWhileRunning): until the tree completes, sleeping --interval between ticks, and
waking at once when an asynchronous node finishes or a timer expires. It prints one
line "tick <i> <STATUS>" per tick, then "blackboard <json>" with the entries of the
root blackboard. Ctrl-C (or SIGTERM) halts the tree, prints the blackboard and exits
with status 1, also in the middle of a tick that does not end on its own.

--ticks N makes at most N ticks, back to back unless --interval is given (the
contract of the conformance cases); a tree still RUNNING after the last one is
halted, which run says on stderr. With --exactly-once a node that yields takes a
tick of its own (tickExactlyOnce instead of tickOnce).

A problem — a bad file, a tree that cannot be built, a script that fails while
ticking — prints one line "error <message>" per problem and exits with status 1.
Remarks on the file (a misspelt _onSucess, what an upgrade from format 3 changed)
go to stderr. The main tree is --main, else the document's main_tree_to_execute,
else its only tree.

The blackboard starts empty; --blackboard FILE.json and then --set key=value seed
it. A value is converted to the type of the port that uses the entry, if one does;
otherwise it is an integer, a real number or true/false when it reads as one, and
text else.

--save FILE writes the state of the tree when the run stops — it completed, --ticks
ran out, a tick failed, or Ctrl-C — before the tree is halted: every node's status
and state, the timers' time left and the blackboards (JSON when FILE ends in .json,
else bt's compact binary form). --restore FILE continues such a run: the tree is
built from the same file and flags (a tree of another definition is refused), given
the saved state, and ticked on from there; timers go on with the time they had left,
and asynchronous work that was under way starts again. --blackboard and --set then
change the restored blackboard.

Node types implemented elsewhere (the custom nodes of a robotics stack) are known
from --models and from the file's own <TreeNodesModel>: the tree loads, and runs
once they are replaced. --mock-all replaces every one of them: actions and
conditions with TestNodes that return SUCCESS (--mock-all=FAILURE, RUNNING or
SKIPPED for another status), decorators with ones that return their child's
status, controls with Sequences. It mocks the node types the file uses without a
model too, as the file uses them: a node without children as an action, with one
as a decorator, with more as a control. --mock gives substitution rules
(BehaviorTree.CPP's JSON) for particular nodes; they win over --mock-all.

Log nodes print "log <LEVEL> <node>: <message>" (debug messages only with --log).

To watch the run, --log prints every status change as it happens, as
BehaviorTree.CPP's StdCoutLogger does: "[0.012]: name PREV -> NEW", with the
seconds from the start of the run to the start of the change's tick (the clock is
read once per tick; coloured on a terminal) and the names padded to the longest;
--paths prints each node's path in the tree instead of its name, and --uids adds
its UID ("bt replay" takes the same flags). --btlog FILE.btlog records
the changes in BehaviorTree.CPP's FileLogger2 format, for Groot2 and "bt replay";
--trace FILE.json writes a Chrome trace for Perfetto or chrome://tracing; --jsonl
FILE a JSON object per change; --sqlite FILE.db3 records the run in a SQLite
database as BehaviorTree.CPP's SqliteLogger does (tables Definitions, Nodes and
Transitions, which Groot2 opens and SQL queries), replacing the sessions it holds,
or adding the run as a new one with --sqlite-append ("bt replay" and "bt view" read
it back); --stats prints a table per node after the blackboard line. They combine,
and none makes a tick wait for its output.

--groot2 publishes the run to Groot2 as BehaviorTree.CPP's Groot2Publisher does, on
port 1667 and the next one (--groot2 PORT or --groot2=PORT for others): Groot2
connects, shows the tree and its statuses live, reads the blackboards, records
transitions, pauses the run at breakpoints and replaces the statuses of nodes (fault
injection). Give --interval (500ms, say) to follow the tree by eye; the publisher
stops when the run does, and an interrupt lets a tick paused at a breakpoint go on
first. There is no authentication, so it listens on 127.0.0.1, for Groot2 on this
machine only; --groot2 HOST:PORT listens on HOST instead (0.0.0.0:1667, or :1667,
for every interface), with a warning: whoever reaches the port can pause and alter
the run. --groot2-read-only publishes for monitoring only: Groot2 shows the tree,
its statuses, the blackboards and transitions, and its breakpoints and fault
injections are refused.

--serve shows the run in a browser: it prints on stderr the address of a page that
draws the tree coloured by the status of each node, with the blackboard and a
timeline of the last 1000 ticks; give --interval (200ms, say) to watch it tick. The
page is served on ` + defaultAddr + ` (loopback only) unless an address is given
(--serve=ADDR or --serve ADDR; :0 picks a free port), and is served on once the run
is over, until interrupted (Ctrl-C); "bt view" serves a .btlog file the same way.

--watch reloads the tree when FILE.xml, a file it includes or --models changes on
disk (looked at every --watch-every): between two ticks, the tree takes the new
definition and keeps the state of every node the edit did not touch — a running
action runs on — and the blackboard; the nodes that went away or changed are halted.
It prints what was added, removed, changed and halted; an edit that does not load or
build prints its errors and the tree runs on unchanged. --serve's page and Groot2
(--groot2) redraw the new tree. It does not go with --log, --btlog, --trace, --jsonl,
--sqlite, --stats, --save or --restore, whose output describes one structure.
`,
	example: `bt run examples/sniper/sniper.xml
bt run --exactly-once --log --main Async examples/fallbacks/fallbacks.xml
bt run --btlog sniper.btlog --trace sniper.json --jsonl sniper.jsonl --stats examples/sniper/sniper.xml
bt run --sqlite runs.db3 examples/sniper/sniper.xml
bt run --sqlite runs.db3 --sqlite-append --main EnemyHides examples/sniper/sniper.xml
bt run --serve --interval 200ms examples/sniper/sniper.xml
bt run --watch --interval 100ms --ticks 5 examples/reload/patrol.xml
bt run --ticks 3 --save sniper.json examples/sniper/sniper.xml
bt run --restore sniper.json examples/sniper/sniper.xml
bt run --models examples/nav2/nav2_models.xml --mock-all examples/nav2/navigate.xml
bt run --models examples/nav2/nav2_models.xml --mock-all --mock examples/nav2/dry_run.json --set goal=kitchen examples/nav2/navigate.xml`,
}

// defaultInterval is the pause between ticks without --ticks: BehaviorTree.CPP's
// tickWhileRunning default.
const defaultInterval = bt.DefaultPeriod

// runOptions are the flags of "bt run" that shape the tree to run.
type runOptions struct {
	main, models, mock, blackboard string
	mockAll                        mockAllFlag
	sets                           setFlags
	enums                          enumFlags
	save, restore                  string // --save, --restore: the files of the tree's state
}

// run implements "bt run": load a file, tick its main tree, print the statuses and the
// root blackboard (the contract of the conformance cases).
func (c *cmd) run(args []string) int {
	var o runOptions
	var w watchOptions
	fs := flags("run")
	ticks := fs.Int("ticks", 0, "tick at most `N` times, back to back unless --interval is given (0: until the tree completes)")
	exactly := fs.Bool("exactly-once", false, "tick the root exactly once per tick, ignoring wake-ups (tickExactlyOnce)")
	fs.StringVar(&o.main, "main", "", "run the tree `ID` instead of the document's main tree")
	interval := fs.Duration("interval", defaultInterval, "sleep up to `D` between ticks while the tree runs, cut short by a wake-up (0: back to back; with --ticks the default is 0)")
	fs.StringVar(&o.mock, "mock", "", "apply the substitution rules of `RULES.json` before building the tree")
	fs.Var(&o.mockAll, "mock-all", "replace every node type known only from a model, or not at all: leaves with TestNodes returning `STATUS` (default SUCCESS), decorators with pass-throughs, controls with Sequences")
	fs.StringVar(&o.models, "models", "", "declare the node types of the TreeNodesModel file `MODELS.xml` (stand-ins without implementation)")
	fs.StringVar(&o.blackboard, "blackboard", "", "seed the root blackboard with the entries of `FILE.json` (an object of key → value)")
	fs.Var(&o.sets, "set", "seed the root blackboard entry `key=value` (repeatable)")
	fs.Var(&o.enums, "enum", "make `NAME=VALUE` a scripting enum, as the program's Factory.RegisterEnum (BehaviorTree.CPP's registerScriptingEnums) does (repeatable)")
	fs.StringVar(&o.save, "save", "", "write the tree's state to `FILE` when the run stops, interrupted too (JSON if FILE ends in .json, else binary)")
	fs.StringVar(&o.restore, "restore", "", "continue the run whose state --save wrote to `FILE`")
	w.register(fs)
	var rw reloadWatch
	rw.register(fs)
	files, code, ok := c.parse(fs, runHelp, joinFlagValues(args))
	switch {
	case !ok:
		return code
	case len(files) != 1:
		return c.usageError(runHelp, "run needs one FILE.xml, got %d arguments%s", len(files), valueHint(args, files))
	case *ticks < 0:
		return c.usageError(runHelp, "--ticks must not be negative")
	case *interval < 0:
		return c.usageError(runHelp, "--interval must not be negative")
	}
	if _, _, err := o.mockAll.status(); err != nil {
		return c.usageError(runHelp, "%v", err)
	}
	if err := sameFiles(map[string]string{"FILE.xml": files[0], "--save": o.save,
		"--btlog": w.btlog, "--trace": w.trace, "--jsonl": w.jsonl, "--sqlite": w.sqlite}); err != nil {
		return c.usageError(runHelp, "%v", err)
	}
	if err := errors.Join(w.check(c.publish != nil, c.sqlite != nil), rw.check(&o, &w)); err != nil {
		return c.usageError(runHelp, "%v", err)
	}
	if isSet(fs, "ticks") && !isSet(fs, "interval") {
		*interval = 0 // the conformance contract: back to back
	}
	obs := &observers{}
	level := slog.LevelInfo
	if w.log {
		level = slog.LevelDebug
	}
	logger := slog.New(&logHandler{w: c.stdout, level: level, before: obs.flush})
	tree, dir, err := c.build(files[0], &o, logger)
	if err != nil {
		code := c.runError(err)
		hintCustomNodes(c.stderr, c.unknown, c.typos, true)
		return code
	}
	if err := obs.attach(c, tree, &w); err != nil {
		return c.runError(errors.Join(err, obs.close()))
	}
	if err := c.restore(tree, &o); err != nil {
		return c.runError(errors.Join(err, obs.close()))
	}
	tick := tree.TickOnce
	if *exactly {
		tick = tree.TickExactlyOnce
	}
	stopWatching := c.watch(&rw, tree, files[0], &o)
	err = c.tickAll(tree, tick, *ticks, *interval, obs, o.save)
	stopWatching()
	obs.flush()
	err = errors.Join(located(withPosition(tree, err), dir), obs.close())
	obs.report(c.stdout)
	if err != nil {
		obs.serveUntilInterrupted(c)
		code := c.runError(err)
		hintEnums(c.stderr, err)
		return code
	}
	obs.serveUntilInterrupted(c)
	return exitOK
}

// sameFiles reports two of the files a run reads and writes, by flag, that are one
// file (a --save that would overwrite the tree, two logs in one file); "" is none.
func sameFiles(files map[string]string) error {
	flags := slices.Sorted(maps.Keys(files))
	for i, a := range flags {
		for _, b := range flags[i+1:] {
			if files[a] != "" && files[b] != "" && samePath(files[a], files[b]) {
				return fmt.Errorf("%s and %s name the same file, %s", a, b, files[b])
			}
		}
	}
	return nil
}

// samePath reports whether two paths name one regular file (or one file yet to be
// made): the same path, or files that exist and are the same. Devices such as
// /dev/null take any number of writers.
func samePath(a, b string) bool {
	fa, errA := os.Stat(a)
	if errA == nil && !fa.Mode().IsRegular() {
		return false
	}
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// tickAll ticks the tree as run does (tickLoop), saves its state to the file save
// (if not ""), halts it if it is still running, and prints the root blackboard. It
// returns the error of a tick or of the halt (the tree halted), or "interrupted".
func (c *cmd) tickAll(tree *bt.Tree, tick func() (bt.Status, error), max int, interval time.Duration, obs *observers, save string) error {
	// A tick that does not end on its own (a Repeat of -1 over leaves that succeed at
	// once) ends at an interrupt too: Stop halts the tree in the middle of the tick.
	stopOnInterrupt := context.AfterFunc(c.ctx, tree.Stop)
	defer stopOnInterrupt()
	status, n, err := c.tickLoop(tree, tick, max, interval, obs)
	if save != "" {
		err = errors.Join(err, c.save(tree, save))
	}
	if err != nil {
		tree.Halt() // stop what still runs (async work); the tick's error is the news
		return err
	}
	interrupted := c.ctx.Err() != nil
	if status == bt.Running {
		if !interrupted {
			obs.flush()
			ticks := "ticks"
			if n == 1 {
				ticks = "tick"
			}
			fmt.Fprintf(c.stderr, "bt: the tree is still RUNNING after %d %s (--ticks %d): halting it\n", n, ticks, max)
		}
		if err := tree.Halt(); err != nil && !(interrupted && errors.Is(err, bt.ErrStopped)) {
			return err
		}
	}
	js, err := tree.Blackboard().MarshalJSON()
	if err != nil {
		return err
	}
	obs.flush()
	fmt.Fprintf(c.stdout, "blackboard %s\n", js)
	if interrupted {
		return errInterrupted
	}
	return nil
}

// isSet reports whether the flag name was given on the command line.
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// tickLoop ticks the tree until it completes, max ticks were made (0: no bound) or the
// command is interrupted, sleeping up to interval between ticks; a wake-up cuts the
// sleep short. It prints a line per tick (after what the observers queued during the
// tick) and returns the last status and the number of
// ticks.
func (c *cmd) tickLoop(tree *bt.Tree, tick func() (bt.Status, error), max int, interval time.Duration, obs *observers) (bt.Status, int, error) {
	status := bt.Idle
	i := 0
	for max == 0 || i < max {
		if i > 0 && interval > 0 {
			if _, err := tree.Sleep(c.ctx, interval); err != nil {
				break
			}
		}
		if c.ctx.Err() != nil {
			break
		}
		i++
		var err error
		status, err = tick()
		if errors.Is(err, bt.ErrStopped) && c.ctx.Err() != nil {
			return bt.Running, i, nil // interrupted in the middle of the tick, which halted the tree
		}
		if err != nil {
			return status, i, err
		}
		obs.flush()
		fmt.Fprintf(c.stdout, "tick %d %s\n", i, status)
		if status != bt.Running {
			break
		}
	}
	return status, i, nil
}

// build loads the file and builds the tree to run, logging to logger, with its
// blackboard seeded; it prints the notes of the file on stderr.
func (c *cmd) build(path string, o *runOptions, logger *slog.Logger) (tree *bt.Tree, dir string, err error) {
	f, dir, err := c.factoryFor(path, o)
	if err != nil {
		return nil, "", err
	}
	tree, err = f.NewTree(o.main, bt.WithContext(c.ctx), bt.WithLogger(logger))
	if err != nil {
		return nil, "", errors.Join(prefixed(located(err, dir), path)...)
	}
	if err := unimplemented(tree, dir); err != nil {
		return nil, "", err
	}
	return tree, dir, nil
}

// factoryFor loads the file into a new factory as the flags say (--models, --enum,
// --mock, --mock-all), and checks it has the tree to run (--main or its main tree); it
// prints the notes of the file on stderr.
func (c *cmd) factoryFor(path string, o *runOptions) (f *bt.Factory, dir string, err error) {
	if f, err = factory(o.models); err != nil {
		return nil, "", err
	}
	for _, e := range o.enums {
		if err := f.RegisterEnum(e.name, e.value); err != nil {
			return nil, "", fmt.Errorf("--enum %s=%d: %s", e.name, e.value, strings.TrimPrefix(err.Error(), "bt: "))
		}
	}
	if o.mock != "" {
		if err := loadSubstitutions(f, o.mock); err != nil {
			return nil, "", err
		}
	}
	_, mockAll, _ := o.mockAll.status()
	if dir, err = c.load(f, path, mockAll); err != nil {
		return nil, "", err
	}
	if status, ok, _ := o.mockAll.status(); ok {
		if err := f.SubstituteStandIns(bt.TestNodeConfig{ReturnStatus: status}); err != nil {
			return nil, "", err
		}
	}
	switch {
	case o.main == "" && len(f.TreeIDs()) == 0:
		return nil, "", fmt.Errorf("%s: the file defines no tree (no <BehaviorTree>)", path)
	case o.main == "" && f.MainTree() == "":
		return nil, "", fmt.Errorf("%s: no main tree: the trees are %s; choose one with --main (or main_tree_to_execute in the file)", path, quoted(f.TreeIDs()))
	}
	return f, dir, nil
}

// restore gives the tree the state of --restore, if given, then seeds its blackboard
// (--blackboard, --set). It says on stderr which nodes start afresh.
func (c *cmd) restore(tree *bt.Tree, o *runOptions) error {
	if o.restore != "" {
		data, err := os.ReadFile(o.restore)
		if err != nil {
			return err
		}
		snap, err := tree.ReadSnapshot(data) // a snapshot of another tree is refused unread
		if err == nil {
			err = tree.Restore(snap)
		}
		if err != nil {
			msg := strings.TrimPrefix(strings.TrimPrefix(err.Error(), "bt: "), "Restore: ")
			return fmt.Errorf("--restore %s: %s", o.restore, msg)
		}
		if r := snap.Restarts(); len(r) > 0 {
			fmt.Fprintf(c.stderr, "bt: restored from %s; these nodes start again: %s\n", o.restore, quoted(r))
		}
	}
	return seed(tree.Blackboard(), o)
}

// save writes the state of the tree to the file path (see --save).
func (c *cmd) save(tree *bt.Tree, path string) error {
	snap, err := tree.Snapshot()
	var data []byte
	if err == nil && filepath.Ext(path) == ".json" {
		data, err = snap.MarshalJSON()
	} else if err == nil {
		data, err = snap.MarshalBinary()
	}
	if err == nil {
		err = os.WriteFile(path, data, 0o666)
	}
	if err != nil {
		return fmt.Errorf("--save %s: %w", path, err)
	}
	return nil
}

// load loads the file at path into f, as check does: its own TreeNodesModel declares
// the node types it uses. It prints the notes of the file on stderr, also when it
// fails, and returns the directory the positions of f's trees are relative to.
//
// With mockAll, the node types the file uses that are known neither from --models nor
// from the file get models inferred from the file (inferModels), for --mock-all to
// replace; else they are errors, and c.unknown lists them for the hint after the
// errors.
func (c *cmd) load(f *bt.Factory, path string, mockAll bool) (dir string, err error) {
	doc, dir, err := loadDocument(path)
	if err == nil {
		err = f.RegisterStandIns(doc.Models)
	}
	if err == nil && mockAll {
		if inferred := inferModels(doc, f); len(inferred) > 0 {
			var ids []string
			for _, m := range inferred {
				ids = append(ids, m.ID)
			}
			fmt.Fprintf(c.stderr, "bt: --mock-all: no model for %s: mocked as the file uses them\n", strings.Join(ids, ", "))
			err = f.RegisterStandIns(inferred)
		}
	}
	if err == nil {
		err = f.LoadDocument(doc)
	}
	if err != nil {
		c.unknown, c.typos = unknownTypes(doc, f)
	}
	for _, n := range notes(f, dir) {
		fmt.Fprintln(c.stderr, n)
	}
	return dir, located(err, dir)
}

// quoted lists names between double quotes, separated by commas.
func quoted(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}

// notes returns the notes of the documents f loaded, as "file:line:col: note: …".
func notes(f *bt.Factory, dir string) []string {
	var out []string
	for _, n := range f.Notes() {
		out = append(out, messages(located(&btxml.Error{Pos: n.Pos, Msg: "note: " + n.Msg}, dir))...)
	}
	return out
}

// prefixed makes errors of the problems of err, each naming the file path unless it
// has a position.
func prefixed(err error, path string) []error {
	var errs []error
	for _, m := range messagesIn(err, path) {
		errs = append(errs, errors.New(m))
	}
	return errs
}

// unimplemented reports the nodes of tree whose type is known only from a model: they
// would fail the tick that reaches them.
func unimplemented(tree *bt.Tree, dir string) error {
	var errs []error
	for n := range tree.Nodes() {
		if !n.Spec().Model().StandIn() {
			continue
		}
		msg := fmt.Sprintf("node %s (%s) has no implementation, only a TreeNodesModel: dry-run it with --mock-all, or with substitution rules (--mock RULES.json)", n.Name(), n.ID())
		if n.Name() == n.ID() {
			msg = fmt.Sprintf("node %s has no implementation, only a TreeNodesModel: dry-run it with --mock-all, or with substitution rules (--mock RULES.json)", n.ID())
		}
		errs = append(errs, located(&btxml.Error{Pos: n.Pos(), Msg: msg}, dir))
	}
	return errors.Join(errs...)
}

// seed writes the entries of --blackboard and then those of --set into the root
// blackboard of the built tree, whose ports have typed the entries they use.
func seed(bb *blackboard.Blackboard, o *runOptions) error {
	if o.blackboard != "" {
		data, err := os.ReadFile(o.blackboard)
		if err != nil {
			return err
		}
		if err := bb.UnmarshalJSON(data); err != nil {
			return fmt.Errorf("%s: %w", o.blackboard, err)
		}
	}
	var errs []error
	for _, kv := range o.sets {
		key, text, _ := strings.Cut(kv, "=")
		e := bb.Entry(key)
		v := blackboard.String(text)                                // parsed into the entry's type, if it has one
		if t := e.Type(); t == nil || t == reflect.TypeFor[any]() { // generic, or of type any
			v = literal(text)
		}
		if err := e.Set(v); err != nil {
			errs = append(errs, fmt.Errorf("--set %s: %w", kv, err))
		}
	}
	return errors.Join(errs...)
}

// literal is the value of --set text for an entry without a type: an integer, a real
// number or a boolean when the whole text is one, else the text.
func literal(text string) blackboard.Value {
	if i, err := strconv.ParseInt(text, 10, 64); err == nil {
		return blackboard.Int(i)
	}
	if f, err := strconv.ParseFloat(text, 64); err == nil && !strings.ContainsAny(text, "xXnN") {
		return blackboard.Float(f)
	}
	if b, err := strconv.ParseBool(text); err == nil && (text == "true" || text == "false") {
		return blackboard.Bool(b)
	}
	return blackboard.String(text)
}

// setFlags collects the key=value of every --set.
type setFlags []string

func (s *setFlags) String() string { return strings.Join(*s, " ") }

func (s *setFlags) Set(kv string) error {
	if key, _, ok := strings.Cut(kv, "="); !ok || key == "" {
		return errors.New("want key=value")
	}
	*s = append(*s, kv)
	return nil
}

// enumFlags collects the NAME=VALUE of every --enum.
type enumFlags []struct {
	name  string
	value int64
}

func (e *enumFlags) String() string { return "" }

func (e *enumFlags) Set(kv string) error {
	name, text, ok := strings.Cut(kv, "=")
	v, err := strconv.ParseInt(text, 10, 64)
	if !ok || name == "" || err != nil {
		return errors.New("want NAME=VALUE, VALUE an integer")
	}
	*e = append(*e, struct {
		name  string
		value int64
	}{name, v})
	return nil
}

// missingEntry finds the entry a script read that does not exist in an error message.
var missingEntry = regexp.MustCompile(`entry "([A-Za-z_][A-Za-z0-9_]*)" does not exist`)

// hintEnums says, after a script read an entry that does not exist, that it may be an
// enum the program registers, which bt run does not know (BehaviorTree.CPP's
// tutorials use them: THE_ANSWER, RED).
func hintEnums(w io.Writer, err error) {
	var names []string
	for _, m := range missingEntry.FindAllStringSubmatch(err.Error(), -1) {
		if !slices.Contains(names, m[1]) {
			names = append(names, m[1])
		}
	}
	if len(names) > 0 {
		fmt.Fprintf(w, "bt: if %s is a scripting enum of the program (Factory.RegisterEnum, registerScriptingEnums), give it with --enum %s=VALUE\n", strings.Join(names, ", "), names[0])
	}
}

// optionalFlag is a flag that may stand alone or take a value: --flag, --flag=value.
// The flag package calls such a flag a boolean and says so in its errors, so Set
// takes any text, which the flag's own type checks once the flags are parsed.
type optionalFlag struct {
	value string // "": not given; "true": alone
}

func (o *optionalFlag) IsBoolFlag() bool { return true }

func (o *optionalFlag) String() string {
	if o == nil {
		return ""
	}
	return o.value
}

func (o *optionalFlag) Set(s string) error {
	o.value = s
	if s == "false" {
		o.value = ""
	}
	return nil
}

// mockAllFlag is --mock-all, alone (SUCCESS) or with a status: --mock-all=FAILURE.
type mockAllFlag struct{ optionalFlag }

// status returns the status the mocked leaves return, and whether --mock-all was given.
func (m *mockAllFlag) status() (bt.Status, bool, error) {
	switch m.value {
	case "":
		return bt.Idle, false, nil
	case "true":
		return bt.Success, true, nil
	}
	st, err := bt.ParseStatus(strings.ToUpper(m.value))
	if err != nil || st == bt.Idle {
		return bt.Idle, false, fmt.Errorf("--mock-all=%s: want SUCCESS, FAILURE, RUNNING or SKIPPED", m.value)
	}
	return st, true, nil
}

// loadSubstitutions adds the substitution rules of a JSON file to f.
func loadSubstitutions(f *bt.Factory, path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	err = f.LoadSubstitutions(data)
	if err == nil {
		return nil
	}
	// One problem per line, each with the file's name.
	var errs []error
	for _, m := range messages(err) {
		errs = append(errs, fmt.Errorf("%s: %s", path, strings.TrimPrefix(m, "bt: ")))
	}
	return errors.Join(errs...)
}

// runError prints the problems of err, one "error" line each (a problem's context,
// such as the line of a script with a caret under the column, follows it), and
// returns exitError.
func (c *cmd) runError(err error) int {
	for _, m := range messages(err) {
		fmt.Fprintf(c.stdout, "error %s\n", strings.TrimSuffix(m, "\n"))
	}
	return exitError
}

// withPosition adds to an error raised by a node of tree the position of the node in
// its file.
func withPosition(tree *bt.Tree, err error) error {
	var ne *bt.NodeError
	if !errors.As(err, &ne) {
		return err
	}
	if n := tree.Node(ne.UID); n != nil {
		if pos := n.Pos(); pos.IsValid() {
			return &btxml.Error{Pos: pos, Msg: err.Error(), Err: err}
		}
	}
	return err
}
