//go:build btcpp_pending

// Waits for issue 30 item 28 (blackboard.Update, an atomic read-modify-write of an
// entry: the reference's getLockedPortContent).

package btcpp_test

// Tutorial 13 (t13_access_by_ref.cpp): changing a blackboard entry in place, safely
// against other threads. The reference locks the entry (getLockedPortContent) and
// changes the vector it holds through a pointer into the blackboard. Go does not hand
// out pointers into the blackboard: values are copied in and out, so that readers on
// other goroutines never see a half-made change. The equivalent is blackboard.Update,
// which gives the function the entry's value and stores what it returns, atomically
// (a writer on another goroutine makes it start over, so the function must have no
// effect of its own: PushIntoVector prints after it).
//
// The reference has no "Expected output" comment; the output below is what its code
// prints.

import (
	"context"
	"fmt"

	"github.com/gobt/bt"
	"github.com/gobt/bt/blackboard"
)

// PushIntoVector appends its input "value" to the vector of its port "vector",
// creating the vector if the entry holds none yet.
type PushIntoVector struct {
	Vector bt.InOut[[]int] `port:"vector"`
	Value  bt.In[int]      `port:"value"`
}

func (p *PushIntoVector) Tick(n *bt.Node) bt.Status {
	number, err := p.Value.Get()
	if err != nil {
		n.Abort(err)
		return bt.Failure
	}
	var created bool
	var size int
	// API: blackboard.Update[T](e *blackboard.Entry, fn func(old T) T) error (issue 30
	// item 28); old is the zero T when the entry holds no value yet.
	err = blackboard.Update(p.Vector.Entry(), func(old []int) []int {
		// The entry hasn't been initialized by any other node yet: do it.
		created = old == nil
		// Append to a copy: readers may hold the old slice.
		v := append(old[:len(old):len(old)], number)
		size = len(v)
		return v
	})
	if err != nil {
		return bt.Failure
	}
	if created {
		fmt.Printf("We created a new vector, containing value [%d]\n", number)
	} else {
		fmt.Printf("Value [%d] pushed into the vector. New size: %d\n", number, size)
	}
	return bt.Success
}

const t13XML = `
  <root BTCPP_format="4" >
    <BehaviorTree ID="TreeA">
      <Sequence>
        <PushIntoVector vector="{vect}" value="3"/>
        <PushIntoVector vector="{vect}" value="5"/>
        <PushIntoVector vector="{vect}" value="7"/>
      </Sequence>
    </BehaviorTree>
 </root>
`

func Example_t13AccessByRef() {
	factory := bt.NewFactory()
	must(factory.Register(bt.ModelOf[PushIntoVector]("PushIntoVector", bt.KindAction)))
	must(factory.LoadString("t13.xml", t13XML))
	tree, err := factory.NewTree("")
	must(err)
	_, err = tree.TickWhileRunning(context.Background(), 0)
	must(err)

	// Output:
	// We created a new vector, containing value [3]
	// Value [5] pushed into the vector. New size: 2
	// Value [7] pushed into the vector. New size: 3
}
