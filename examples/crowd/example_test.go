package main

import "os"

// The village after each round: every villager's tree depends only on its villager,
// so the counts are the same however the trees are shared among the cores.
func Example() {
	if err := run(os.Stdout, 10000, 6); err != nil {
		panic(err)
	}
	// Output:
	// round 1: 5713 working, 4287 eating, 0 resting
	// round 2: 7714 working, 1429 eating, 857 resting
	// round 3: 7143 working, 1143 eating, 1714 resting
	// round 4: 6287 working, 2285 eating, 1428 resting
	// round 5: 6286 working, 2285 eating, 1429 resting
	// round 6: 6284 working, 2001 eating, 1715 resting
}
