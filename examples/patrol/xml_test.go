package main

import (
	"os"

	"github.com/gobt/bt/internal/cli"
)

// The same patrol in XML, run by the bt command. The recharge happens within tick 5:
// RetryUntilSuccessful tries again at once, and the patrol resumes at C. The route
// shows that A and B were not visited again.
func Example_xml() {
	cli.Main([]string{"run", "patrol.xml"}, os.Stdout, os.Stderr)
	// Output:
	// tick 1 RUNNING
	// tick 2 RUNNING
	// tick 3 RUNNING
	// tick 4 RUNNING
	// tick 5 RUNNING
	// tick 6 SUCCESS
	// blackboard {"battery":80,"recharges":1,"route":"ABC"}
}
