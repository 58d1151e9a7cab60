package btlog_test

import (
	"bytes"
	"fmt"
	"log"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/gobt/bt"
	"github.com/gobt/bt/btlog"
)

// stillClock is a clock that does not move, so that the examples print the same times
// every run; a program keeps the tree's default, the system clock.
type stillClock struct{}

func (stillClock) Now() time.Time { return time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC) }

func (stillClock) AfterFunc(d time.Duration, f func()) bt.Timer { return time.AfterFunc(d, f) }

// patrol is the tree of the examples.
func patrol() *bt.Tree {
	tree, err := bt.NewTree(bt.Sequence(
		bt.Condition("BatteryOK", func() bool { return true }),
		bt.Fallback(bt.AlwaysFailure().Named("DoorOpen"), bt.Action("OpenDoor", func() bt.Status { return bt.Success })),
	).Named("patrol"), bt.WithClock(stillClock{}))
	if err != nil {
		log.Fatal(err)
	}
	return tree
}

func ExampleNewConsole() {
	tree := patrol()
	console, err := btlog.NewConsole(tree, os.Stdout, &btlog.ConsoleOptions{Color: btlog.Terminal(os.Stdout)})
	if err != nil {
		log.Fatal(err)
	}
	defer console.Close()
	if _, err := tree.TickOnce(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// [0.000]: patrol                    IDLE -> RUNNING
	// [0.000]: BatteryOK                 IDLE -> SUCCESS
	// [0.000]: Fallback                  IDLE -> RUNNING
	// [0.000]: DoorOpen                  IDLE -> FAILURE
	// [0.000]: OpenDoor                  IDLE -> SUCCESS
	// [0.000]: DoorOpen                  FAILURE -> IDLE
	// [0.000]: OpenDoor                  SUCCESS -> IDLE
	// [0.000]: Fallback                  RUNNING -> SUCCESS
	// [0.000]: BatteryOK                 SUCCESS -> IDLE
	// [0.000]: Fallback                  SUCCESS -> IDLE
	// [0.000]: patrol                    RUNNING -> SUCCESS
	// [0.000]: patrol                    SUCCESS -> IDLE
}

// Log only the failures, at level WARN.
func ExampleNewSlog() {
	tree := patrol()
	logger := slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{} // for the example's output only
			}
			return a
		},
	}))
	failures, err := btlog.NewSlog(tree, logger, &btlog.SlogOptions{
		Level:  slog.LevelWarn,
		Filter: func(_ *btlog.NodeInfo, _, s bt.Status) bool { return s == bt.Failure },
	})
	if err != nil {
		log.Fatal(err)
	}
	defer failures.Close()
	if _, err := tree.TickOnce(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// level=WARN msg="status change" node=DoorOpen uid=4 prev=IDLE status=FAILURE
}

func ExampleNewJSONL() {
	tree := patrol()
	changes, err := btlog.NewJSONL(tree, os.Stdout, &btlog.JSONLOptions{
		Filter: func(n *btlog.NodeInfo, _, s bt.Status) bool { return n.Kind == bt.KindAction && s != bt.Idle },
	})
	if err != nil {
		log.Fatal(err)
	}
	defer changes.Close()
	if _, err := tree.TickOnce(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// {"time":"2025-06-01T12:00:00Z","node":"DoorOpen","uid":4,"prev":"IDLE","status":"FAILURE"}
	// {"time":"2025-06-01T12:00:00Z","node":"OpenDoor::5","uid":5,"prev":"IDLE","status":"SUCCESS"}
}

// Record a run for Groot2, and read it back.
func ExampleCreateFile() {
	dir, err := os.MkdirTemp("", "btlog")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	name := filepath.Join(dir, "patrol.btlog")

	tree := patrol()
	recorder, err := btlog.CreateFile(tree, name)
	if err != nil {
		log.Fatal(err)
	}
	if _, err := tree.TickOnce(); err != nil {
		log.Fatal(err)
	}
	if err := recorder.Close(); err != nil {
		log.Fatal(err)
	}

	run, err := btlog.ReadFile(name)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("started", run.Start.UTC())
	for _, tr := range run.Transitions[:5] {
		fmt.Println(tr.Offset, run.Node(tr.UID).Path, tr.Previous, "->", tr.Status)
	}
	// Output:
	// started 2025-06-01 12:00:00 +0000 UTC
	// 0s patrol IDLE -> RUNNING
	// 0s BatteryOK::2 IDLE -> SUCCESS
	// 0s Fallback::3 IDLE -> RUNNING
	// 0s DoorOpen IDLE -> FAILURE
	// 0s OpenDoor::5 IDLE -> SUCCESS
}

// Print a recorded run as the console logger would have, with per-node statistics.
func ExampleLog_WriteConsole() {
	var file bytes.Buffer
	tree := patrol()
	recorder, err := btlog.NewFile(tree, &file)
	if err != nil {
		log.Fatal(err)
	}
	if _, err := tree.TickOnce(); err != nil {
		log.Fatal(err)
	}
	if err := recorder.Close(); err != nil {
		log.Fatal(err)
	}

	run, err := btlog.Read(&file)
	if err != nil {
		log.Fatal(err)
	}
	onlyResults := func(n *btlog.NodeInfo, prev, s bt.Status) bool { return s == bt.Success || s == bt.Failure }
	if err := run.WriteConsole(os.Stdout, &btlog.ConsoleOptions{Filter: onlyResults}); err != nil {
		log.Fatal(err)
	}
	door, _ := run.Stats().ByPath("DoorOpen")
	fmt.Println("DoorOpen failed", door.Failures, "time")
	// Output:
	// [0.000]: BatteryOK                 IDLE -> SUCCESS
	// [0.000]: DoorOpen                  IDLE -> FAILURE
	// [0.000]: OpenDoor                  IDLE -> SUCCESS
	// [0.000]: Fallback                  RUNNING -> SUCCESS
	// [0.000]: patrol                    RUNNING -> SUCCESS
	// DoorOpen failed 1 time
}

// Write a trace to open in ui.perfetto.dev or chrome://tracing.
func ExampleNewTrace() {
	tree, err := bt.NewTree(bt.Sequence(bt.AlwaysSuccess()).Named("main"), bt.WithClock(stillClock{}))
	if err != nil {
		log.Fatal(err)
	}
	trace, err := btlog.NewTrace(tree, os.Stdout, &btlog.TraceOptions{PID: 1})
	if err != nil {
		log.Fatal(err)
	}
	if _, err := tree.TickOnce(); err != nil {
		log.Fatal(err)
	}
	if err := trace.Close(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// {"traceEvents":[
	// {"name":"thread_name","ph":"M","pid":1,"tid":1,"args":{"name":"MainTree"}},
	// {"cat":"Control","pid":1,"tid":1,"ts":0,"ph":"B","name":"main","args":{"uid":1,"path":"main"}},
	// {"cat":"Action","pid":1,"tid":1,"ts":0,"ph":"i","s":"t","name":"AlwaysSuccess","args":{"uid":2,"path":"AlwaysSuccess::2","status":"SUCCESS"}},
	// {"cat":"Control","pid":1,"tid":1,"ts":0,"ph":"E","name":"main","args":{"status":"SUCCESS"}}
	// ]}
}

// Check in a test what the nodes did.
func ExampleNewStats() {
	tree := patrol()
	stats, err := btlog.NewStats(tree)
	if err != nil {
		log.Fatal(err)
	}
	defer stats.Close()
	for range 3 {
		if _, err := tree.TickOnce(); err != nil {
			log.Fatal(err)
		}
	}
	door, _ := stats.ByPath("DoorOpen")
	fmt.Println("DoorOpen failed", door.Failures, "times; last result", door.LastResult)
	open, _ := stats.ByPath("OpenDoor::5")
	fmt.Println("OpenDoor succeeded", open.Successes, "times; status now", open.Status)
	// Output:
	// DoorOpen failed 3 times; last result FAILURE
	// OpenDoor succeeded 3 times; status now IDLE
}

// A tree built in Go, as XML with UIDs for Groot2.
func ExampleWriteTreeXML() {
	tree, err := bt.NewTree(bt.Sequence(bt.Script("n := 0"), bt.Repeat(3, bt.Script("n += 1"))))
	if err != nil {
		log.Fatal(err)
	}
	if err := btlog.WriteTreeXML(os.Stdout, tree); err != nil {
		log.Fatal(err)
	}
	// Output:
	// <root BTCPP_format="4">
	//     <BehaviorTree ID="MainTree" _fullpath="">
	//         <Sequence name="Sequence" _uid="1">
	//             <Script name="Script" _uid="2" code="n := 0"/>
	//             <Repeat name="Repeat" _uid="3" num_cycles="3">
	//                 <Script name="Script" _uid="4" code="n += 1"/>
	//             </Repeat>
	//         </Sequence>
	//     </BehaviorTree>
	//     <TreeNodesModel>
	//         <Decorator ID="Repeat">
	//             <input_port name="num_cycles" type="int">how many successes to repeat (-1: forever)</input_port>
	//         </Decorator>
	//         <Action ID="Script">
	//             <input_port name="code" type="std::string">the script to run</input_port>
	//         </Action>
	//         <Control ID="Sequence"/>
	//     </TreeNodesModel>
	// </root>
}
