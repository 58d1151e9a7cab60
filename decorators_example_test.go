package bt_test

import (
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/gobt/bt"
)

// Retry a flaky action three times, giving each attempt 200 ms.
func ExampleRetryUntilSuccessful() {
	attempts := 0
	tree, err := bt.NewTree(bt.RetryUntilSuccessful(3,
		bt.Timeout(200*time.Millisecond, bt.Action("Dial", func() bt.Status {
			attempts++
			if attempts < 3 {
				return bt.Failure
			}
			return bt.Success
		}))))
	if err != nil {
		panic(err)
	}
	status, err := tree.TickOnce()
	fmt.Println(status, err, attempts)
	// Output: SUCCESS <nil> 3
}

// behaviac's SuccessUntil: succeed twice, fail once, and again.
func ExampleSuccessUntil() {
	tree, err := bt.NewTree(bt.SuccessUntil(3, bt.AlwaysSuccess()))
	if err != nil {
		panic(err)
	}
	for range 6 {
		s, _ := tree.TickOnce()
		fmt.Print(s, " ")
	}
	// Output: SUCCESS SUCCESS FAILURE SUCCESS SUCCESS FAILURE
}

// The Log node writes to the tree's logger.
func ExampleLog() {
	logger := slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{} // for a stable output
			}
			return a
		},
	}))
	tree, err := bt.NewTree(bt.Log("patrolling", bt.AlwaysSuccess()).Named("patrol"), bt.WithLogger(logger))
	if err != nil {
		panic(err)
	}
	tree.TickOnce()
	// Output: level=INFO msg=patrolling node=patrol
}

// Dry-run a tree whose nodes are not linked in: substitution rules replace them with
// TestNodes (or other registered nodes) when the tree is built.
func ExampleFactory_LoadSubstitutions() {
	f := bt.NewFactory()
	err := f.LoadSubstitutions([]byte(`{
	  "TestNodeConfigs": {
	    "found":   {"return_status": "SUCCESS", "success_script": "trace := trace .. 'found '"},
	    "blocked": {"return_status": "FAILURE", "post_script": "trace := trace .. 'blocked '"}
	  },
	  "SubstitutionRules": {"FindDoor": "found", "OpenDoor": "blocked", "SmashDoor": "found"}
	}`))
	if err != nil {
		panic(err)
	}
	err = f.LoadString("door.xml", `
	<root BTCPP_format="4">
	  <BehaviorTree ID="Door">
	    <Sequence>
	      <Script code="trace := ''"/>
	      <FindDoor/>
	      <Fallback>
	        <OpenDoor/>
	        <SmashDoor force="10"/>
	      </Fallback>
	    </Sequence>
	  </BehaviorTree>
	</root>`)
	if err != nil {
		panic(err)
	}
	tree, err := f.NewTree("")
	if err != nil {
		panic(err)
	}
	status, err := tree.TickOnce()
	fmt.Println(status, err)
	fmt.Println(tree.Blackboard().Entry("trace").Load().Str())
	// Output:
	// SUCCESS <nil>
	// found blocked found
}
