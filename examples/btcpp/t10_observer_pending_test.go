//go:build btcpp_pending

// Waits for issue 30 item 16 (Tree.Print, the reference's printTreeRecursively). The
// rest of tutorial 10 runs today: t10_observer_test.go.

package btcpp_test

import "os"

// Tutorial 10 as the reference runs it: the tree printed, then observed.
func Example_t10ObserverPrinted() {
	tree := t10Tree()
	// Helper function to print the tree.
	// API: tree.Print(w) (issue 30 item 16), writing what printTreeRecursively writes.
	must(tree.Print(os.Stdout))
	t10Observe(tree)

	// Output:
	// ----------------
	// Sequence
	//    Fallback
	//       failing_action
	//       mysub
	//          Sequence
	//             action_subA
	//             sub_nested
	//                action_subB
	//             SubTreeB
	//                action_subB
	//    last_action
	// ----------------
	// 1 -> Sequence::1
	// 2 -> Fallback::2
	// 3 -> failing_action
	// 4 -> mysub
	// 5 -> mysub/Sequence::5
	// 6 -> mysub/action_subA
	// 7 -> mysub/sub_nested
	// 8 -> mysub/sub_nested/action_subB
	// 9 -> mysub/SubTreeB::9
	// 10 -> mysub/SubTreeB::9/action_subB
	// 11 -> last_action
	// ----------------
	// [Sequence::1] 	T/S/F:  2/1/0
	// [Fallback::2] 	T/S/F:  2/1/0
	// [failing_action] 	T/S/F:  1/0/1
	// [mysub] 	T/S/F:  2/1/0
	// [mysub/Sequence::5] 	T/S/F:  2/1/0
	// [mysub/action_subA] 	T/S/F:  1/1/0
	// [mysub/sub_nested] 	T/S/F:  2/1/0
	// [mysub/sub_nested/action_subB] 	T/S/F:  1/1/0
	// [mysub/SubTreeB::9] 	T/S/F:  2/1/0
	// [mysub/SubTreeB::9/action_subB] 	T/S/F:  1/1/0
	// [last_action] 	T/S/F:  1/1/0
}
