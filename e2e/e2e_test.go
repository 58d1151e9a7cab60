package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/gobt/bt"
	"github.com/gobt/bt/btlog"
	"github.com/gobt/bt/bttest"
	"github.com/gobt/bt/monitor"
)

// patrol has a subtree with a blackboard of its own and a remapped port, a Fallback
// whose first child fails, and actions that run for a few ticks.
const patrol = `<root BTCPP_format="4" main_tree_to_execute="Patrol">
  <BehaviorTree ID="Patrol">
    <Sequence>
      <Script name="Setup" code="battery := 1; visited := 0"/>
      <Fallback name="Move">
        <ScriptCondition name="Blocked" code="battery &lt; 0"/>
        <SubTree ID="Walk" name="walk" steps="{visited}"/>
      </Fallback>
      <Charge name="Charge" level="{battery}"/>
    </Sequence>
  </BehaviorTree>
  <BehaviorTree ID="Walk">
    <Sequence>
      <Script name="Plan" code="route := 'north'; steps += 1"/>
      <Charge name="Stride"/>
    </Sequence>
  </BehaviorTree>
</root>`

// charge is RUNNING for two ticks, then SUCCESS; each tick adds one to its level port,
// when it has one.
type charge struct{ ticks int }

func (c *charge) OnStart(n *bt.Node) bt.Status { c.ticks = 0; return c.OnRunning(n) }
func (c *charge) OnHalted(*bt.Node)            {}
func (c *charge) OnRunning(n *bt.Node) bt.Status {
	if level, err := bt.Get[int](n, "level"); err == nil {
		if err := bt.Set(n, "level", level+1); err != nil {
			n.Abort(err)
		}
	}
	if c.ticks++; c.ticks < 3 {
		return bt.Running
	}
	return bt.Success
}

func newPatrol(t *testing.T, opts ...bt.Option) *bt.Tree {
	tree, err := patrolFactory(t, patrol).NewTree("", opts...)
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// patrolFactory returns a factory that knows Charge and holds the document xml.
func patrolFactory(t *testing.T, xml string) *bt.Factory {
	t.Helper()
	f := bt.NewFactory()
	err := f.Register(bt.NewStateful("Charge", func() bt.StatefulAction { return &charge{} }, bt.InOutPort[int]("level", "the charge")))
	if err == nil {
		err = f.LoadString("patrol.xml", xml)
	}
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// browser starts a headless Chromium for the test, or skips the test if there is none.
func browser(t *testing.T) context.Context {
	t.Helper()
	path := os.Getenv("BT_CHROMIUM")
	for _, name := range []string{"/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome"} {
		if path != "" {
			break
		}
		path, _ = exec.LookPath(name)
	}
	if path == "" {
		t.Skip("no browser: install Chromium (Debian: apt-get install chromium) or set BT_CHROMIUM to one")
	}
	// The flags that work on a machine without network (no background connections)
	// and as root (no sandbox), with a profile of the test's own.
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1400, 900),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	if err := chromedp.Do(ctx); err != nil { // starts the browser, which lives as long as ctx
		t.Fatalf("starting %s: %v", path, err)
	}
	return ctx
}

// serve serves m and starts a browser; the browser goes before the server stops,
// which waits for the page's stream to end.
func serve(t *testing.T, m *monitor.Monitor) (ctx context.Context, url string) {
	srv := httptest.NewServer(m)
	t.Cleanup(srv.Close)
	return browser(t), srv.URL + "/"
}

// run runs actions, each given a minute at most.
func run(t *testing.T, ctx context.Context, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatal(err)
	}
}

// waitFor waits until the JavaScript expression is true in the page.
func waitFor(expr string) chromedp.Action[chromedp.Void] {
	return chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(20*time.Second))
}

func click(id string) chromedp.Action[chromedp.Void] { return chromedp.Click(chromedp.ID(id)) }

// shown is what the page shows: the tick, each node's status by UID, the blackboard
// entries by scope and key, and the state line.
type shown struct {
	Tick     string
	State    string
	Statuses []string
	BB       map[string]map[string]any
}

const readPage = `(() => {
  const bb = {};
  for (const tr of document.querySelectorAll('#blackboard tr')) {
    (bb[tr.dataset.scope] ??= {})[tr.dataset.key] = JSON.parse(tr.querySelector('.value').textContent);
  }
  const statuses = [...document.querySelectorAll('.node')]
    .sort((a, b) => a.dataset.uid - b.dataset.uid).map((e) => e.dataset.status);
  return { Tick: document.getElementById('tick').textContent, State: document.getElementById('state').textContent,
    Statuses: statuses, BB: bb };
})()`

func read(t *testing.T, ctx context.Context) shown {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[shown](readPage))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// state is what the tree has: its statuses by UID and its blackboard scopes.
func state(t *testing.T, tree *bt.Tree) (statuses []string, bb map[string]map[string]any) {
	t.Helper()
	bb = map[string]map[string]any{}
	scopes := 0
	seen := map[any]bool{}
	for n := range tree.Nodes() {
		statuses = append(statuses, n.Status().String())
		if seen[n.Blackboard()] {
			continue
		}
		seen[n.Blackboard()] = true
		js, err := n.Blackboard().MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		var entries map[string]any
		if err := json.Unmarshal(js, &entries); err != nil {
			t.Fatal(err)
		}
		if len(entries) > 0 {
			bb[strconv.Itoa(scopes)] = entries
		}
		scopes++
	}
	return statuses, bb
}

// screenshot saves the page as an artifact of the test.
func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	dir := os.Getenv("BT_E2E_ARTIFACTS")
	if dir == "" {
		dir = "artifacts"
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
}

// TestLive ticks a tree step by step — calling nothing of the monitor's after a
// tick — and checks after each tick that the page shows the status of every node and
// the blackboard the tree has; then steps back through the timeline and returns to
// live.
func TestLive(t *testing.T) {
	tree := newPatrol(t)
	m := monitor.New()
	feed, err := m.Add("patrol", tree)
	if err != nil {
		t.Fatal(err)
	}
	ctx, url := serve(t, m)
	run(t, ctx, chromedp.Navigate(url), waitFor(`document.getElementById('state').textContent === 'waiting for the tree to tick'`))
	feed.Sync() // the page is connected to a tree that does not tick yet: show it as it is
	run(t, ctx, waitFor(`document.getElementById('tick').textContent === '0'`))
	var history []shown
	for tick := 0; ; tick++ {
		if tick > 0 {
			if _, err := tree.TickOnce(); err != nil {
				t.Fatal(err)
			}
			run(t, ctx, waitFor(fmt.Sprintf(`document.getElementById('tick').textContent === '%d'`, tick)))
		}
		got := read(t, ctx)
		statuses, bb := state(t, tree)
		if !reflect.DeepEqual(got.Statuses, statuses) || got.State != "live" {
			t.Errorf("tick %d: the page shows %v (%s), the tree has %v", tick, got.Statuses, got.State, statuses)
		}
		if !reflect.DeepEqual(got.BB, bb) {
			t.Errorf("tick %d: the page's blackboard %v, the tree's %v", tick, got.BB, bb)
		}
		if tick == 4 {
			screenshot(t, ctx, "live.png")
		}
		history = append(history, got)
		if tick > 0 && tree.Status() == bt.Idle { // completed: the root was reset
			break
		}
		if tick == 20 {
			t.Fatal("the tree does not complete")
		}
	}
	if len(history) < 6 {
		t.Fatalf("the run took %d ticks", len(history)-1)
	}

	// Step back: each step shows the tree as it was after that tick, paused.
	last := len(history) - 1
	for back := 1; back <= 3; back++ {
		run(t, ctx, click("back"))
		got := read(t, ctx)
		want := history[last-back]
		if got.Tick != want.Tick || !reflect.DeepEqual(got.Statuses, want.Statuses) || !reflect.DeepEqual(got.BB, want.BB) || got.State != "paused" {
			t.Errorf("%d steps back: the page shows %+v, want %+v", back, got, want)
		}
	}
	// A tick while paused stays off the page until live is pressed.
	tree.TickOnce()
	run(t, ctx, waitFor(fmt.Sprintf(`document.getElementById('pos').textContent === 'frame %d of %d'`, last-2, last+2)))
	if got := read(t, ctx); got.Tick != history[last-3].Tick {
		t.Errorf("paused: the page moved to tick %s", got.Tick)
	}
	run(t, ctx, click("live"), waitFor(fmt.Sprintf(`document.getElementById('tick').textContent === '%d'`, last+1)))
	got := read(t, ctx)
	statuses, _ := state(t, tree)
	if !reflect.DeepEqual(got.Statuses, statuses) || got.State != "live" {
		t.Errorf("live again: the page shows %v (%s), the tree has %v", got.Statuses, got.State, statuses)
	}
}

// TestTickWhileRunning: a program that only runs its tree (TickWhileRunning), with a
// monitor added before, is followed by the page from its first tick to the end of the
// run.
func TestTickWhileRunning(t *testing.T) {
	tree, ctx := watchPatrol(t)
	if s, err := tree.TickWhileRunning(context.Background(), 20*time.Millisecond); s != bt.Success || err != nil {
		t.Fatalf("the run: %v, %v", s, err)
	}
	run(t, ctx, waitFor(fmt.Sprintf(`document.getElementById('tick').textContent === '%d'`, tree.Ticks())))
	got := read(t, ctx)
	statuses, bb := state(t, tree)
	if !reflect.DeepEqual(got.Statuses, statuses) || got.State != "live" {
		t.Errorf("after the run: the page shows %v (%s), the tree has %v", got.Statuses, got.State, statuses)
	}
	if !reflect.DeepEqual(got.BB, bb) {
		t.Errorf("after the run: the page's blackboard %v, the tree's %v", got.BB, bb)
	}
	run(t, ctx, click("back"))
	if got := read(t, ctx); got.Tick != strconv.FormatUint(tree.Ticks()-1, 10) {
		t.Errorf("one step back: tick %s, want %d: the page has a frame per tick", got.Tick, tree.Ticks()-1)
	}
}

// replay closes the logger of a run, serves the .btlog file it wrote to file under
// name, and opens the page at its first step.
func replay(t *testing.T, logger io.Closer, file io.Reader, name string) context.Context {
	t.Helper()
	if err := logger.Close(); err != nil {
		t.Fatal(err)
	}
	l, err := btlog.Read(file)
	if err != nil {
		t.Fatal(err)
	}
	m := monitor.New()
	if err := m.AddLog(name, l); err != nil {
		t.Fatal(err)
	}
	ctx, url := serve(t, m)
	run(t, ctx, chromedp.Navigate(url), waitFor(`document.getElementById('tick').textContent === '1'`))
	return ctx
}

// TestReplay replays a .btlog file of a run and checks the statuses of every step,
// stepping forward through the timeline.
func TestReplay(t *testing.T) {
	clock := bttest.NewClock(time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC))
	tree := newPatrol(t, bt.WithClock(clock))
	var file bytes.Buffer
	logger, err := btlog.NewFile(tree, &file)
	if err != nil {
		t.Fatal(err)
	}
	changes := 0
	defer tree.Subscribe(func(bt.StatusChange) { changes++ })()
	// A step of the replay per tick that changed a status: the file records changes,
	// and a tick without any leaves no trace in it.
	var want [][]string
	for ticks := 0; tree.Status() == bt.Running || ticks == 0; ticks++ {
		clock.Advance(10 * time.Millisecond) // ticks 10 ms apart, as BehaviorTree.CPP's loop
		changes = 0
		if _, err := tree.TickOnce(); err != nil {
			t.Fatal(err)
		}
		if changes > 0 {
			statuses, _ := state(t, tree)
			want = append(want, statuses)
		}
	}
	if len(want) < 3 {
		t.Fatalf("the run changed statuses in %d ticks", len(want))
	}
	ctx := replay(t, logger, &file, "patrol.btlog")
	for step := 1; step <= len(want); step++ {
		if step > 1 {
			run(t, ctx, click("fwd"))
		}
		got := read(t, ctx)
		if got.Tick != strconv.Itoa(step) || !reflect.DeepEqual(got.Statuses, want[step-1]) || got.State != "replay" {
			t.Errorf("step %d: the page shows tick %s %v (%s), the run had %v", step, got.Tick, got.Statuses, got.State, want[step-1])
		}
		if step == 2 {
			screenshot(t, ctx, "replay.png")
		}
	}
}
