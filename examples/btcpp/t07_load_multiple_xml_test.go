package btcpp_test

// Tutorial 7 (t07_load_multiple_xml.cpp): trees from several documents, loaded one by
// one without <include>, and a tree other than the main one instantiated.

import (
	"context"
	"fmt"

	"github.com/gobt/bt"
)

const (
	t07XMLMain = `
<root BTCPP_format="4">
    <BehaviorTree ID="MainTree">
        <Sequence>
            <SaySomething message="starting MainTree" />
            <SubTree ID="SubA"/>
            <SubTree ID="SubB"/>
        </Sequence>
    </BehaviorTree>
</root>  `

	t07XMLSubA = `
<root BTCPP_format="4">
    <BehaviorTree ID="SubA">
        <SaySomething message="Executing SubA" />
    </BehaviorTree>
</root>  `

	t07XMLSubB = `
<root BTCPP_format="4">
    <BehaviorTree ID="SubB">
        <SaySomething message="Executing SubB" />
    </BehaviorTree>
</root>  `
)

func Example_t07LoadMultipleXML() {
	factory := bt.NewFactory()
	must(factory.Register(bt.ModelOf[SaySomething]("SaySomething", bt.KindAction)))

	// Register the tree definitions, but do not instantiate them yet.
	// Order is not important.
	must(factory.LoadString("subA.xml", t07XMLSubA))
	must(factory.LoadString("subB.xml", t07XMLSubB))
	must(factory.LoadString("main.xml", t07XMLMain))

	// Check that the trees have been registered correctly.
	fmt.Println("Registered BehaviorTrees:")
	for _, id := range factory.TreeIDs() {
		fmt.Println(" -", id)
	}

	// You can create the MainTree, and its subtrees are added automatically...
	fmt.Println("----- MainTree tick ----")
	mainTree, err := factory.NewTree("MainTree")
	must(err)
	_, err = mainTree.TickWhileRunning(context.Background(), 0)
	must(err)

	// ... or you can create only one of the subtrees.
	fmt.Println("----- SubA tick ----")
	subATree, err := factory.NewTree("SubA")
	must(err)
	_, err = subATree.TickWhileRunning(context.Background(), 0)
	must(err)

	// Output:
	// Registered BehaviorTrees:
	//  - MainTree
	//  - SubA
	//  - SubB
	// ----- MainTree tick ----
	// Robot says: starting MainTree
	// Robot says: Executing SubA
	// Robot says: Executing SubB
	// ----- SubA tick ----
	// Robot says: Executing SubA
}
