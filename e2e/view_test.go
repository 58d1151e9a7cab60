package e2e

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/gobt/bt"
	"github.com/gobt/bt/blackboard"
	"github.com/gobt/bt/btlog"
	"github.com/gobt/bt/bttest"
	"github.com/gobt/bt/btxml"
	"github.com/gobt/bt/monitor"
)

// newNav2 builds testdata/nav2-recovery.xml, a Nav2-sized tree, dry-run with
// stand-ins for Nav2's nodes (examples/nav2's models, testdata/nav2-recovery.json's
// substitutions) on a clock the test advances; FollowPath is written in Go (follow),
// so that its model and ports are Nav2's.
func newNav2(t *testing.T, clock *bttest.Clock) *bt.Tree {
	t.Helper()
	read := func(path string) []byte {
		data, err := os.ReadFile(filepath.Join("..", path))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	doc, err := btxml.Parse("nav2_models.xml", read("examples/nav2/nav2_models.xml"))
	if err != nil {
		t.Fatal(err)
	}
	f := bt.NewFactory()
	for _, err := range []error{
		f.Register(bt.NewStateful("FollowPath", func() bt.StatefulAction { return &follow{} },
			bt.InputPort[string]("path", "the path to follow"), bt.InputPort[string]("controller_id", "the controller plugin to use"))),
		f.RegisterStandIns(doc.Models),
		f.SubstituteStandIns(bt.TestNodeConfig{}),
		f.LoadSubstitutions(read("testdata/nav2-recovery.json")),
		f.LoadString("nav2-recovery.xml", string(read("testdata/nav2-recovery.xml"))),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	tree, err := f.NewTree("", bt.WithClock(clock))
	if err != nil {
		t.Fatal(err)
	}
	bb := tree.Blackboard()
	for k, v := range map[string]blackboard.Value{
		"goal": blackboard.String("kitchen"), "distance": blackboard.Int(3), "terrain": blackboard.String("open"),
		"battery": blackboard.Float(1), "cancelled": blackboard.Bool(false),
	} {
		if err := bb.Entry(k).Set(v); err != nil {
			t.Fatal(err)
		}
	}
	return tree
}

// follow is a FollowPath that drives for four ticks, then fails (an obstacle), so
// that the tree recovers.
type follow struct{ ticks int }

func (f *follow) OnStart(n *bt.Node) bt.Status { f.ticks = 0; return f.OnRunning(n) }
func (f *follow) OnHalted(*bt.Node)            {}
func (f *follow) OnRunning(n *bt.Node) bt.Status {
	if _, err := bt.Get[string](n, "path"); err != nil {
		n.Abort(err)
	}
	if f.ticks++; f.ticks < 5 {
		return bt.Running
	}
	return bt.Failure
}

// eval evaluates a JavaScript expression in the page.
func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// The page's view, as the tests read it.
const (
	scale = `Number(document.getElementById('graph').dataset.scale)`
	// settled: the view is not moving (a smooth move takes a third of a second).
	settled = `!document.getElementById('canvas').dataset.moving`
	// inView: every node drawn lies inside the graph's area (whose rectangle is r).
	allInView = `(() => {
  const r = document.getElementById('graph').getBoundingClientRect();
  return [...document.querySelectorAll('.node:not([hidden])')].every((e) => {
    const b = e.getBoundingClientRect();
    return b.left >= r.left && b.top >= r.top && b.right <= r.right && b.bottom <= r.bottom;
  });
})()`
	// centred: how far the node's centre is from the graph's, in pixels.
	offCentre = `((uid) => {
  const r = document.getElementById('graph').getBoundingClientRect();
  const b = document.querySelector('.node[data-uid="' + uid + '"]').getBoundingClientRect();
  return Math.hypot(b.left + b.width / 2 - r.left - r.width / 2, b.top + b.height / 2 - r.top - r.height / 2);
})`
	// runningInView: the running nodes (or the folded nodes that hold them) are in view.
	runningInView = `(() => {
  const r = document.getElementById('graph').getBoundingClientRect();
  const run = [...document.querySelectorAll('#running button')].map((b) => b.dataset.uid);
  const node = (uid) => document.querySelector('.node[data-uid="' + uid + '"]');
  return run.length > 0 && run.every((uid) => {
    let e = node(uid);
    for (let p = node(e.dataset.parent); p; p = node(p.dataset.parent)) if (p.classList.contains('collapsed')) e = p;
    const b = e.getBoundingClientRect();
    return b.left >= r.left && b.top >= r.top && b.right <= r.right && b.bottom <= r.bottom;
  });
})()`
)

// TestNav2View exercises the view on a Nav2-sized tree, in a 1400×900 window: it fits
// on load, readable; the running list names what runs and centres it; the detail panel
// shows a node's model, values and counters (which agree with btlog.Stats); the view
// zooms with the keys and the wheel, pans with a drag (which stops following), follows
// the running nodes, and finds nodes. It saves screenshots as it goes, and with
// BT_UPDATE_DOCS=1 the README's screenshot (docs/monitor-nav2.png).
func TestNav2View(t *testing.T) {
	clock := bttest.NewClock(time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC))
	tree := newNav2(t, clock)
	if tree.Len() < 40 || tree.Len() > 80 {
		t.Fatalf("the tree has %d nodes: not Nav2-sized", tree.Len())
	}
	stats, err := btlog.NewStats(tree)
	if err != nil {
		t.Fatal(err)
	}
	m := monitor.New()
	feed, err := m.Add("navigate", tree)
	if err != nil {
		t.Fatal(err)
	}
	ctx, url := serve(t, m)
	run(t, ctx, chromedp.EmulateViewport(1400, 900), chromedp.Navigate(url),
		waitFor(`document.getElementById('state').textContent === 'waiting for the tree to tick'`))
	feed.Sync()
	ticks := 0
	tickTo := func(n int) {
		t.Helper()
		for ; ticks < n; ticks++ {
			clock.Advance(100 * time.Millisecond)
			if _, err := tree.TickOnce(); err != nil {
				t.Fatal(err)
			}
		}
		run(t, ctx, waitFor(fmt.Sprintf(`document.getElementById('tick').textContent === '%d'`, n)))
	}
	tickTo(3)

	// Fit: the whole tree (folded where it must be) in view at a readable scale.
	if s := eval[float64](t, ctx, scale); s < 0.7 {
		t.Errorf("fitted at scale %.2f: not readable", s)
	}
	if !eval[bool](t, ctx, allInView) {
		t.Error("fitted: a node lies outside the view")
	}
	drawn := eval[int](t, ctx, `document.querySelectorAll('.node:not([hidden])').length`)
	t.Logf("fitted at scale %.2f, %d of %d nodes drawn", eval[float64](t, ctx, scale), drawn, tree.Len())
	if drawn < 20 {
		t.Errorf("fitted: %d nodes drawn", drawn)
	}
	screenshot(t, ctx, "nav2-fit.png")
	// A click on a node shows its details, and leaves the view where it is.
	was := eval[string](t, ctx, `document.getElementById('canvas').style.transform`)
	run(t, ctx, chromedp.Click(chromedp.CSS(`.node[data-uid="48"] .id`)), waitFor(`!document.getElementById('detail').hidden`))
	if got := eval[string](t, ctx, `document.getElementById('detail-name').textContent`); got != "PollBatteryEverySecond" {
		t.Errorf("a click on node 48 shows the details of %q", got)
	}
	if got := eval[string](t, ctx, `document.getElementById('canvas').style.transform`); got != was {
		t.Errorf("a click on a node moved the view: %s, was %s", got, was)
	}
	if os.Getenv("BT_UPDATE_DOCS") != "" {
		docsShot(t, ctx)
	}

	// The running list: the running leaves and the running children of the Parallel.
	parallel := map[uint16]bool{} // the children of a Parallel
	for n := range tree.Nodes() {
		for i := range n.NumChildren() {
			parallel[n.Child(i).UID()] = n.ID() == "Parallel"
		}
	}
	var want []string
	for n := range tree.Nodes() {
		if n.Status() == bt.Running && (n.NumChildren() == 0 || parallel[n.UID()]) {
			want = append(want, fmt.Sprint(n.UID()))
		}
	}
	got := eval[[]string](t, ctx, `[...document.querySelectorAll('#running button')].map((b) => b.dataset.uid)`)
	if !slices.Equal(got, want) || len(want) < 3 {
		t.Errorf("running list %v, want %v", got, want)
	}

	// A running leaf from the list: centred, unfolded, flashing, and its details shown.
	leaf := ""
	for n := range tree.Nodes() {
		if n.Status() == bt.Running && n.NumChildren() == 0 && n.ID() == "FollowPath" {
			leaf = fmt.Sprint(n.UID())
		}
	}
	if leaf == "" {
		t.Fatal("FollowPath does not run")
	}
	run(t, ctx, chromedp.Click(chromedp.CSS(`#running button[data-uid="`+leaf+`"]`)),
		waitFor(offCentre+`(`+leaf+`) < 3`))
	if got := eval[string](t, ctx, `document.querySelector('.node[data-uid="`+leaf+`"]').className`); !strings.Contains(got, "flash") || !strings.Contains(got, "selected") {
		t.Errorf("the node shown from the list: class %q", got)
	}
	if eval[bool](t, ctx, `document.getElementById('follow').checked`) {
		t.Error("following on after the list moved the view")
	}
	screenshot(t, ctx, "nav2-running.png")

	// The detail panel: the model, the values (the remapped entry's too), the counters.
	detail := func() map[string]string {
		return eval[map[string]string](t, ctx, `Object.fromEntries([...document.querySelectorAll('#detail dd')].map((d) => [d.dataset.key, d.textContent])
      .concat([...document.querySelectorAll('#detail table.ports tr')].map((r) => [r.cells[0].textContent, r.cells[1].textContent]))
      .concat([['name', document.getElementById('detail-name').textContent],
        ['transitions list', [...document.querySelectorAll('#detail .transitions li')].map((l) => l.textContent).join('|')]]))`)
	}
	// Ticks change colours and labels, never the layout.
	boxes := `[...document.querySelectorAll('.node')].map((e) => e.style.transform + ' ' + e.offsetWidth + 'x' + e.offsetHeight).join()`
	layout := eval[string](t, ctx, boxes)
	tickTo(8)
	if eval[string](t, ctx, boxes) != layout {
		t.Error("the layout changed with the ticks")
	}
	d := detail()
	st, _ := stats.ByUID(mustUID(t, leaf))
	wantDetail := map[string]string{
		"name": "FollowPathRegulatedPurePursuit", "ID": "FollowPath", "kind": "Action", "UID": "#" + leaf,
		"→ path": `{path} = "dock;hall;kitchen"`, "→ controller_id": "RegulatedPurePursuit",
		"transitions": fmt.Sprint(st.Transitions), "successes": fmt.Sprint(st.Successes), "failures": fmt.Sprint(st.Failures),
	}
	for k, v := range wantDetail {
		if d[k] != v {
			t.Errorf("detail %q: %q, want %q", k, d[k], v)
		}
	}
	if d["status"] != tree.Node(mustUID(t, leaf)).Status().String() || d["time running"] == "" || d["transitions list"] == "" {
		t.Errorf("detail: %v", d)
	}
	if st.Failures == 0 {
		t.Errorf("FollowPath never failed in %d ticks: the test sees no failure count", ticks)
	}
	screenshot(t, ctx, "nav2-detail.png")

	// Zoom: + and − around the centre, 0 back to the fit; the wheel around the pointer.
	fit := eval[float64](t, ctx, `(document.getElementById('fit').click(), `+scale+`)`)
	run(t, ctx, chromedp.KeyEvent("+"))
	if s := eval[float64](t, ctx, scale); math.Abs(s-fit*1.25) > 1e-3 {
		t.Errorf("+: scale %.3f, want %.3f", s, fit*1.25)
	}
	run(t, ctx, chromedp.KeyEvent("-"), chromedp.KeyEvent("-"))
	if s := eval[float64](t, ctx, scale); math.Abs(s-fit*0.8) > 1e-3 {
		t.Errorf("+−−: scale %.3f, want %.3f", s, fit*0.8)
	}
	run(t, ctx, chromedp.KeyEvent("0"))
	if s := eval[float64](t, ctx, scale); math.Abs(s-fit) > 1e-3 {
		t.Errorf("0: scale %.3f, want the fit's %.3f", s, fit)
	}
	// The point under the pointer stays under it.
	run(t, ctx, waitFor(settled))
	under := `((x, y) => { const c = document.getElementById('canvas').getBoundingClientRect(), s = ` + scale + `; return [(x - c.left) / s, (y - c.top) / s]; })(500, 400)`
	before := eval[[]float64](t, ctx, under)
	run(t, ctx, chromedp.MouseEvent(chromedp.MouseWheel, 500, 400, func(p *input.DispatchMouseEventParams) { p.DeltaX, p.DeltaY = 1e-6, -300 }))
	run(t, ctx, waitFor(scale+` > `+fmt.Sprint(fit*1.3)))
	after := eval[[]float64](t, ctx, under)
	if math.Hypot(after[0]-before[0], after[1]-before[1]) > 1 {
		t.Errorf("the wheel moved the point under the pointer from %v to %v", before, after)
	}

	// Follow: on, it brings the running nodes into view, and keeps them there as the
	// tree ticks, zoomed in or not.
	run(t, ctx, chromedp.KeyEvent("f"), waitFor(runningInView+` && `+settled))
	run(t, ctx, chromedp.KeyEvent("+"), chromedp.KeyEvent("+"), chromedp.KeyEvent("+"))
	for range 2 {
		tickTo(ticks + 2)
		for tree.Status() != bt.Running { // the run ended: the next tick starts another
			tickTo(ticks + 1)
		}
		run(t, ctx, waitFor(runningInView+` && `+settled))
	}
	if !eval[bool](t, ctx, `document.getElementById('follow').checked`) {
		t.Error("zooming stopped following")
	}
	screenshot(t, ctx, "nav2-follow.png")
	// A drag pans the view and stops following.
	pos := `document.getElementById('canvas').style.transform`
	was = eval[string](t, ctx, pos)
	run(t, ctx, chromedp.MouseEvent(chromedp.MousePressed, 300, 300, chromedp.ButtonLeft),
		chromedp.MouseEvent(chromedp.MouseMoved, 340, 320, chromedp.ButtonLeft),
		chromedp.MouseEvent(chromedp.MouseMoved, 420, 360, chromedp.ButtonLeft),
		chromedp.MouseEvent(chromedp.MouseReleased, 420, 360, chromedp.ButtonLeft))
	if eval[bool](t, ctx, `document.getElementById('follow').checked`) || eval[string](t, ctx, pos) == was {
		t.Errorf("after a drag: following %v, transform %q (was %q)", eval[bool](t, ctx, `document.getElementById('follow').checked`), eval[string](t, ctx, pos), was)
	}
	// After a drag, the running list still shows a node's details.
	run(t, ctx, chromedp.Click(chromedp.CSS(`#running li:last-child button`)),
		waitFor(`document.getElementById('detail-name').textContent === document.querySelector('#running li:last-child .rname').textContent`))
	// Arrows pan too.
	was = eval[string](t, ctx, pos)
	run(t, ctx, chromedp.KeyEvent(kb.ArrowLeft))
	if eval[string](t, ctx, pos) == was {
		t.Error("← did not pan the view")
	}

	// Find: by name, ID or path; next and previous; matches highlighted, the current
	// one unfolded and centred.
	run(t, ctx, chromedp.KeyEvent("0"), chromedp.SendKeys(chromedp.ID("find"), "clearlocal"))
	if got := eval[string](t, ctx, `document.getElementById('find-count').textContent`); got != "3 found" {
		t.Errorf("find clearlocal: %q", got)
	}
	matches := eval[[]string](t, ctx, `[...document.querySelectorAll('.node.match .name')].map((e) => e.textContent)`)
	if !slices.Equal(matches, []string{"ClearLocalCostmap-Context", "ClearLocalCostmap-Subtree", "ClearLocalCostmap-Again"}) {
		t.Errorf("matches %v", matches)
	}
	run(t, ctx, chromedp.KeyEvent(kb.Enter), chromedp.KeyEvent(kb.Enter))
	current := `document.querySelector('.node.current')`
	if got := eval[string](t, ctx, `document.getElementById('find-count').textContent + ' ' + `+current+`.querySelector('.name').textContent`); got != "2 of 3 ClearLocalCostmap-Subtree" {
		t.Errorf("find, next twice: %q", got)
	}
	run(t, ctx, waitFor(offCentre+`(`+current+`.dataset.uid) < 3 && !`+current+`.hidden`))
	screenshot(t, ctx, "nav2-find.png")
	run(t, ctx, chromedp.KeyEvent(kb.Enter, chromedp.KeyModifiers(chromedp.ModifierShift)), chromedp.KeyEvent(kb.Enter, chromedp.KeyModifiers(chromedp.ModifierShift)))
	if got := eval[string](t, ctx, `document.getElementById('find-count').textContent`); got != "3 of 3" {
		t.Errorf("find, next twice then previous twice: %q", got)
	}
	// By ID (every ScriptCondition) and by path (the nodes under the Recovery subtree).
	clearFind := func() chromedp.Action[chromedp.Void] {
		return chromedp.Poll[chromedp.Void](`(() => { const f = document.getElementById('find'); f.value = ''; f.dispatchEvent(new Event('input')); return true; })()`)
	}
	run(t, ctx, clearFind(), chromedp.SendKeys(chromedp.ID("find"), "ScriptCondition"))
	if got, want := eval[int](t, ctx, `document.querySelectorAll('.node.match').length`), matching(tree, "ScriptCondition"); got != want || want != 6 {
		t.Errorf("find ScriptCondition: %d matches, want %d", got, want)
	}
	run(t, ctx, clearFind(), chromedp.SendKeys(chromedp.ID("find"), "Recovery/"))
	if got, want := eval[int](t, ctx, `document.querySelectorAll('.node.match').length`), matching(tree, "Recovery/"); got != want || want < 10 {
		t.Errorf("find Recovery/: %d matches, want %d", got, want)
	}
}

// matching counts the nodes whose name, ID or path holds q, in any case.
func matching(tree *bt.Tree, q string) int {
	n := 0
	for node := range tree.Nodes() {
		if slices.ContainsFunc([]string{node.Name(), node.ID(), node.Path()}, func(s string) bool {
			return strings.Contains(strings.ToLower(s), strings.ToLower(q))
		}) {
			n++
		}
	}
	return n
}

func mustUID(t *testing.T, s string) uint16 {
	var uid uint16
	if _, err := fmt.Sscan(s, &uid); err != nil {
		t.Fatal(err)
	}
	return uid
}

// docsShot writes the README's screenshot, docs/monitor-nav2.png, of the page as it
// is: keep it small.
func docsShot(t *testing.T, ctx context.Context) {
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if len(png) > 200<<10 {
		t.Errorf("the screenshot is %d KB", len(png)>>10)
	}
	if err := os.WriteFile(filepath.Join("..", "docs", "monitor-nav2.png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestReplayView: a replay says that its file carries no blackboard, and shows the
// same view (the detail panel, without entries).
func TestReplayView(t *testing.T) {
	clock := bttest.NewClock(time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC))
	tree := newNav2(t, clock)
	var file bytes.Buffer
	logger, err := btlog.NewFile(tree, &file)
	if err != nil {
		t.Fatal(err)
	}
	for range 12 {
		clock.Advance(100 * time.Millisecond)
		tree.TickOnce()
	}
	ctx := replay(t, logger, &file, "nav2.btlog")
	if got := eval[string](t, ctx, `document.getElementById('blackboard').textContent`); !strings.Contains(got, "carries no blackboard") {
		t.Errorf("the replay's blackboard panel: %q", got)
	}
	run(t, ctx, chromedp.KeyEvent("."), chromedp.KeyEvent("."), waitFor(`document.getElementById('tick').textContent === '3'`))
	if !eval[bool](t, ctx, allInView) {
		t.Error("the replay is not fitted")
	}
	screenshot(t, ctx, "nav2-replay.png")
}

// TestPicker: with many trees, the picker finds one by what is typed.
func TestPicker(t *testing.T) {
	m := monitor.New()
	for i := range 300 {
		if _, err := m.Add(fmt.Sprintf("agent-%03d", i), newPatrol(t)); err != nil {
			t.Fatal(err)
		}
	}
	ctx, url := serve(t, m)
	run(t, ctx, chromedp.Navigate(url), waitFor(`document.getElementById('pick-name').textContent === 'agent-000'`),
		chromedp.Click(chromedp.ID("pick")), waitFor(`!document.getElementById('pick-pop').hidden`))
	if got := eval[string](t, ctx, `document.getElementById('pick-count').textContent`); got != "200 of 300: type to narrow" {
		t.Errorf("the picker, unfiltered: %q", got)
	}
	run(t, ctx, chromedp.SendKeys(chromedp.ID("pick-q"), "24"))
	var want []string
	for i := range 300 {
		if name := fmt.Sprintf("agent-%03d", i); strings.Contains(name, "24") {
			want = append(want, name)
		}
	}
	if got := eval[[]string](t, ctx, `[...document.querySelectorAll('#pick-list li')].map((l) => l.textContent)`); !slices.Equal(got, want) {
		t.Errorf("the picker, for 24: %v", got)
	}
	screenshot(t, ctx, "picker.png")
	run(t, ctx, chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.Enter),
		waitFor(`location.hash === '#agent-124' && document.getElementById('pick-name').textContent === 'agent-124' && document.getElementById('pick-pop').hidden`),
		waitFor(`document.getElementById('state').textContent === 'waiting for the tree to tick'`))
}
