//go:build btcpp_pending

// Waits for issue 30 item 13 (ports of assignable types connect): today loading fails
// with "port "animal": entry "pet": declared as *btcpp_test.Cat, now as
// btcpp_test.Animal (once declared, the type shall not change)".

package btcpp_test

// Tutorial 19 (t19_polymorphic_ports.cpp): polymorphic ports. A node that writes a
// shared_ptr<Cat> feeds a node that reads a shared_ptr<Animal>. The reference needs the
// inheritance registered (registerPolymorphicCast<Cat, Animal>); in Go the base class
// is an interface that *Cat implements, and nothing is registered: the port of type
// Animal accepts any value whose type implements it.

import (
	"context"
	"fmt"

	"github.com/gobt/bt"
)

// Animal is the base class: an interface.
type Animal interface {
	Name() string
}

// Cat is an Animal.
type Cat struct{}

func (*Cat) Name() string { return "Cat" }

// Sphynx is a Cat (the reference derives it from Cat): it embeds Cat and overrides Name.
type Sphynx struct{ Cat }

func (*Sphynx) Name() string { return "Sphynx" }

// CreateCat writes a *Cat.
type CreateCat struct {
	Animal bt.Out[*Cat] `port:"animal"`
}

func (c *CreateCat) Tick(n *bt.Node) bt.Status {
	if err := c.Animal.Set(&Cat{}); err != nil {
		n.Abort(err)
		return bt.Failure
	}
	return bt.Success
}

// CreateSphynx writes a *Sphynx.
type CreateSphynx struct {
	Animal bt.Out[*Sphynx] `port:"animal"`
}

func (c *CreateSphynx) Tick(n *bt.Node) bt.Status {
	if err := c.Animal.Set(&Sphynx{}); err != nil {
		n.Abort(err)
		return bt.Failure
	}
	return bt.Success
}

// SayHi reads any Animal.
type SayHi struct {
	Animal bt.In[Animal] `port:"animal"`
}

func (s *SayHi) Tick(n *bt.Node) bt.Status {
	animal, err := s.Animal.Get()
	if err != nil {
		n.Abort(err)
		return bt.Failure
	}
	fmt.Printf("Hi! I am a %s\n", animal.Name())
	return bt.Success
}

const t19XML = `
 <root BTCPP_format="4" >
   <BehaviorTree ID="MainTree">
     <Sequence>
       <CreateCat    animal="{pet}" />
       <SayHi        animal="{pet}" />
       <CreateSphynx animal="{pet2}" />
       <SayHi        animal="{pet2}" />
     </Sequence>
   </BehaviorTree>
 </root>
`

func Example_t19PolymorphicPorts() {
	factory := bt.NewFactory()
	must(factory.Register(
		bt.ModelOf[CreateCat]("CreateCat", bt.KindAction),
		bt.ModelOf[CreateSphynx]("CreateSphynx", bt.KindAction),
		bt.ModelOf[SayHi]("SayHi", bt.KindAction),
	))
	must(factory.LoadString("t19.xml", t19XML))
	tree, err := factory.NewTree("")
	must(err)
	_, err = tree.TickWhileRunning(context.Background(), 0)
	must(err)

	// Output:
	// Hi! I am a Cat
	// Hi! I am a Sphynx
}
