package cli

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/gobt/bt"
	"github.com/gobt/bt/btxml"
)

var runHelp = help{
	usage: "bt run [flags] FILE.xml",
	text: `Run loads FILE.xml (BehaviorTree.CPP format 4, or 3, which is upgraded first), builds its
main tree on an empty blackboard and ticks it until it completes or N ticks were made.
It prints one line "tick <i> <STATUS>" per tick, then "blackboard <json>" with the
entries of the root blackboard. A tree still RUNNING after the last tick is halted
first. A problem — a bad file, a tree that cannot be built, a script that fails while
ticking — prints "error <message>" and exits with status 1.

The main tree is --main, else the document's main_tree_to_execute, else its only tree.
Ticks are back to back (BehaviorTree.CPP's tickOnce; with --exactly-once,
tickExactlyOnce) unless --interval paces them: then run sleeps between ticks, and a
node that wakes the tree up (an async action that finished, a timer that expired)
cuts the sleep short.

--models declares node types that are implemented elsewhere (a TreeNodesModel file,
as Groot2 or a robotics stack writes it) so that the tree loads without them; --mock
gives substitution rules (BehaviorTree.CPP's JSON) that replace them with TestNodes
for a dry run. A node without implementation that is ticked is an error.

Log nodes print "log <LEVEL> <node>: <message>" (debug messages only with --log).
`,
	example: `bt run examples/sniper/sniper.xml
bt run --exactly-once --log --main Async examples/fallbacks/fallbacks.xml
bt run --models nav_models.xml --mock dry_run.json --interval 100ms navigate.xml`,
}

// run implements "bt run": load a file, tick its main tree, print the statuses and the
// root blackboard (the contract of the conformance cases).
func (c *cmd) run(args []string) int {
	fs := flags("run")
	ticks := fs.Int("ticks", 100, "tick at most `N` times (0: until the tree completes)")
	exactly := fs.Bool("exactly-once", false, "tick the root exactly once per tick, ignoring wake-ups (tickExactlyOnce)")
	main := fs.String("main", "", "run the tree `ID` instead of the document's main tree")
	interval := fs.Duration("interval", 0, "sleep up to `D` (such as 100ms) between ticks while the tree runs")
	mock := fs.String("mock", "", "apply the substitution rules of `RULES.json` before building the tree")
	models := fs.String("models", "", "declare the node types of the TreeNodesModel file `MODELS.xml` (stand-ins without implementation)")
	logChanges := fs.Bool("log", false, "print every status change as it happens, and debug messages of Log nodes")
	files, code, ok := c.parse(fs, runHelp, args)
	switch {
	case !ok:
		return code
	case len(files) != 1:
		return c.usageError(runHelp, "run needs one FILE.xml, got %d arguments", len(files))
	case *ticks < 0:
		return c.usageError(runHelp, "--ticks must not be negative")
	case *interval < 0:
		return c.usageError(runHelp, "--interval must not be negative")
	}
	tree, dir, err := c.build(files[0], *main, *models, *mock, *logChanges)
	if err != nil {
		return c.runError(err)
	}
	if *logChanges {
		c.logChanges(tree)
	}
	tick := tree.TickOnce
	if *exactly {
		tick = tree.TickExactlyOnce
	}
	status, interrupted := bt.Idle, false
	for i := 1; *ticks == 0 || i <= *ticks; i++ {
		if interrupted = c.wait(tree, i, *interval); interrupted {
			break
		}
		if status, err = tick(); err != nil {
			tree.Halt() // stop what still runs (async work); the tick's error is the news
			return c.runError(located(withPosition(tree, err), dir))
		}
		fmt.Fprintf(c.stdout, "tick %d %s\n", i, status)
		if status != bt.Running {
			break
		}
	}
	if status == bt.Running {
		if err := tree.Halt(); err != nil {
			return c.runError(located(withPosition(tree, err), dir))
		}
	}
	js, err := tree.Blackboard().MarshalJSON()
	if err != nil {
		return c.runError(err)
	}
	fmt.Fprintf(c.stdout, "blackboard %s\n", js)
	if interrupted {
		return c.runError(errors.New("interrupted"))
	}
	return exitOK
}

// build loads the file and builds the tree to run.
func (c *cmd) build(path, main, models, mock string, debug bool) (tree *bt.Tree, dir string, err error) {
	f, err := factory(models)
	if err != nil {
		return nil, "", err
	}
	if mock != "" {
		if err := loadSubstitutions(f, mock); err != nil {
			return nil, "", err
		}
	}
	doc, dir, err := loadDocument(path)
	if err == nil {
		err = f.LoadDocument(doc)
	}
	if err != nil {
		return nil, "", located(err, dir)
	}
	level := slog.LevelInfo
	if debug {
		level = slog.LevelDebug
	}
	tree, err = f.NewTree(main, bt.WithContext(c.ctx), bt.WithLogger(slog.New(&logHandler{w: c.stdout, level: level})))
	return tree, dir, located(err, dir)
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

// wait paces the ticks: before every tick but the first it sleeps up to interval,
// cut short by a wake-up. It reports whether the command was interrupted.
func (c *cmd) wait(tree *bt.Tree, i int, interval time.Duration) (interrupted bool) {
	if i > 1 && interval > 0 {
		_, err := tree.Sleep(c.ctx, interval)
		return err != nil
	}
	return c.ctx.Err() != nil
}

// runError prints the problems of err as one "error" line and returns exitError.
func (c *cmd) runError(err error) int {
	msgs := messages(err)
	for i, m := range msgs {
		msgs[i] = oneLine(m)
	}
	fmt.Fprintf(c.stdout, "error %s\n", strings.Join(msgs, "; "))
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
