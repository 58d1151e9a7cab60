package btcpp_test

// Tutorial 10 (t10_observer.cpp): the TreeObserver (btlog.Stats), which counts the
// transitions of every node, and the nodes' UIDs and full paths.
//
// The reference has no "Expected output" comment; the output below is what its code
// prints. UIDs are given depth-first in document order, a subtree's nodes right after
// its SubTree node; a node without a name of its own has its ID and UID in its path.

import (
	"context"
	"fmt"

	"github.com/gobt/bt"
	"github.com/gobt/bt/btlog"
)

const t10XML = `
<root BTCPP_format="4">

    <BehaviorTree ID="MainTree">
        <Sequence>
            <Fallback>
                <AlwaysFailure name="failing_action"/>
                <SubTree ID="SubTreeA" name="mysub"/>
            </Fallback>
            <AlwaysSuccess name="last_action"/>
        </Sequence>
    </BehaviorTree>

    <BehaviorTree ID="SubTreeA">
        <Sequence>
            <AlwaysSuccess name="action_subA"/>
            <SubTree ID="SubTreeB" name="sub_nested"/>
            <SubTree ID="SubTreeB" />
        </Sequence>
    </BehaviorTree>

    <BehaviorTree ID="SubTreeB">
        <AlwaysSuccess name="action_subB"/>
    </BehaviorTree>

</root>
`

// t10Tree builds the tree, as the reference's main does before it prints it.
func t10Tree() *bt.Tree {
	factory := bt.NewFactory()
	must(factory.LoadString("t10.xml", t10XML))
	tree, err := factory.NewTree("MainTree")
	must(err)
	return tree
}

// t10Observe is the rest of the reference's main, after it printed the tree.
func t10Observe(tree *bt.Tree) {
	// The observer counts how many times each node returns SUCCESS or FAILURE:
	// useful in unit tests, to check that a set of transitions happened as expected.
	observer, err := btlog.NewStats(tree)
	must(err)

	// Print the UID of every node and its human-readable path, which is unique too.
	var uids []uint16
	uidToPath := map[uint16]string{}
	tree.Walk(func(n *bt.Node, depth int) bool {
		uids = append(uids, n.UID())
		uidToPath[n.UID()] = n.Path()
		fmt.Println(n.UID(), "->", n.Path())
		return true
	})

	_, err = tree.TickWhileRunning(context.Background(), 0)
	must(err)
	must(observer.Flush()) // the observer counts a tick's changes when the tick ends

	// You can access a node's statistics by its full path or by its UID.
	if stats, ok := observer.ByPath("last_action"); !ok || stats.Transitions == 0 {
		panic("last_action made no transition")
	}

	fmt.Println("----------------")
	// Print every node's statistics, by UID.
	for _, uid := range uids {
		stats, _ := observer.ByUID(uid)
		fmt.Printf("[%s] \tT/S/F:  %d/%d/%d\n", uidToPath[uid], stats.Transitions, stats.Successes, stats.Failures)
	}
}

func Example_t10Observer() {
	tree := t10Tree()
	// The reference prints the tree here (printTreeRecursively), which waits for issue
	// 30 item 16: see t10_observer_pending_test.go.
	t10Observe(tree)

	// Output:
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
