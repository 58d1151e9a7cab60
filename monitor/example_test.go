package monitor_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"time"

	"github.com/gobt/bt"
	"github.com/gobt/bt/monitor"
)

// A program adds its trees to a Monitor and serves it; it ticks its trees as it would
// without a monitor. Open the server's address in a browser to watch the tree tick.
func Example() {
	shots := 0
	tree, err := bt.NewTree(bt.Sequence(
		bt.Script("hits := 0"),
		bt.Action("Fire", func() bt.Status {
			if shots++; shots < 3 {
				return bt.Running
			}
			return bt.Success
		}),
	))
	if err != nil {
		panic(err)
	}
	m := monitor.New()
	feed, err := m.Add("turret", tree)
	if err != nil {
		panic(err)
	}
	srv := httptest.NewServer(m) // a program would monitor.NewServer("127.0.0.1:8642", m).ListenAndServe()
	defer srv.Close()

	if _, err := tree.TickWhileRunning(context.Background(), time.Millisecond); err != nil {
		panic(err)
	}
	fmt.Println("ticks:", feed.Ticks(), "watchers:", feed.Watchers())

	// The list of trees, which the page shows. No browser was connected: the tree was
	// not observed, and the monitor has no frame of it.
	resp, err := http.Get(srv.URL + "/api/trees")
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	io.Copy(os.Stdout, resp.Body)
	// Output:
	// ticks: 3 watchers: 0
	// [{"name":"turret","live":true,"synced":false,"tick":0,"frames":0,"watchers":0}]
}
