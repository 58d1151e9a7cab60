package e2e

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/gobt/bt"
	"github.com/gobt/bt/monitor"
)

// TestReload reloads a tree that the page shows with an edited definition (a node
// added): the page draws the new tree without being reloaded itself, and follows its
// ticks.
func TestReload(t *testing.T) {
	tree, ctx := watchPatrol(t)
	for range 2 {
		if _, err := tree.TickOnce(); err != nil {
			t.Fatal(err)
		}
	}
	run(t, ctx, waitFor(`document.getElementById('tick').textContent === '2'`),
		chromedp.Evaluate[chromedp.Void](`window.sameDocument = true`))
	nodes := tree.Len()
	edited := strings.Replace(patrol, `<Charge name="Charge" level="{battery}"/>`,
		`<Charge name="Charge" level="{battery}"/>
      <Script name="Report" code="visited += 0"/>`, 1)
	if _, err := tree.Reload(patrolFactory(t, edited), ""); err != nil {
		t.Fatal(err)
	}
	run(t, ctx, waitFor(fmt.Sprintf(`document.querySelectorAll('.node').length === %d && `+
		`[...document.querySelectorAll('.node')].some((e) => e.textContent.includes('Report'))`, nodes+1)))
	if _, err := tree.TickOnce(); err != nil {
		t.Fatal(err)
	}
	run(t, ctx, waitFor(`document.getElementById('tick').textContent === '3'`))
	got := read(t, ctx)
	statuses, bb := state(t, tree)
	if !reflect.DeepEqual(got.Statuses, statuses) || got.State != "live" || !reflect.DeepEqual(got.BB, bb) {
		t.Errorf("after the reload the page shows %v %v (%s), the tree has %v %v", got.Statuses, got.BB, got.State, statuses, bb)
	}
	same, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.sameDocument === true`))
	if err != nil || !same {
		t.Errorf("the page was loaded again (%v)", err)
	}
	screenshot(t, ctx, "reload.png")
}

// watchPatrol returns a patrol tree, added to a monitor whose page a browser shows,
// waiting for the tree to tick.
func watchPatrol(t *testing.T) (*bt.Tree, context.Context) {
	tree := newPatrol(t)
	m := monitor.New()
	if _, err := m.Add("patrol", tree); err != nil {
		t.Fatal(err)
	}
	ctx, url := serve(t, m)
	run(t, ctx, chromedp.Navigate(url), waitFor(`document.getElementById('state').textContent === 'waiting for the tree to tick'`))
	return tree, ctx
}
