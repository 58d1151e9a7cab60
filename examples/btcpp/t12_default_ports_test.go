
package btcpp_test

// Tutorial 12 (t12_default_ports.cpp): every way to give a port a default value, the
// value it has when the XML does not set it.
//
// The reference's JSON converter (BT_JSON_CONVERTER, JsonExporter::addConverter) has
// no counterpart to register: Point2D's fields are what encoding/json reads, and its
// UnmarshalText reads the "json:" prefix as the reference's convertFromString does.

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/gobt/bt"
	"github.com/gobt/bt/blackboard"
)

// Point2D is the tutorial's custom type; Go compares structs with ==.
type Point2D struct {
	X int `json:"x"`
	Y int `json:"y"`
}

// UnmarshalText reads "x,y", or JSON after the prefix "json:".
func (p *Point2D) UnmarshalText(text []byte) error {
	s := string(text)
	if js, ok := strings.CutPrefix(s, "json:"); ok {
		type plain Point2D // without this method, for encoding/json
		return json.Unmarshal([]byte(js), (*plain)(p))
	}
	parts := strings.Split(s, ",")
	if len(parts) != 2 {
		return fmt.Errorf("invalid input %q", s)
	}
	var err error
	if p.X, err = strconv.Atoi(parts[0]); err != nil {
		return err
	}
	p.Y, err = strconv.Atoi(parts[1])
	return err
}

// NodeWithDefaultPoints checks that every port has the expected value.
func NodeWithDefaultPoints(n *bt.Node) (bt.Status, error) {
	for _, want := range []struct {
		port string
		p    Point2D
	}{
		{"pointA", Point2D{1, 2}},
		{"pointB", Point2D{3, 4}},
		{"pointC", Point2D{5, 6}},
		{"pointD", Point2D{7, 8}},
		{"pointE", Point2D{9, 10}},
		{"input", Point2D{-1, -2}},
	} {
		got, err := bt.Get[Point2D](n, want.port)
		if err != nil || got != want.p {
			return bt.Failure, fmt.Errorf("failed %s: %v, %v", want.port, got, err)
		}
	}
	return bt.Success, nil
}

// NodeWithDefaultPointsModel declares the ports (providedPorts).
var NodeWithDefaultPointsModel = bt.NewAction("NodeWithDefaultPoints", NodeWithDefaultPoints,
	bt.InputPort[Point2D]("input", "no default value"),
	// A default of the port's type: the reference's InputPort<Point2D>("pointA", Point2D{1, 2}, "…").
	bt.InputPortDefault("pointA", Point2D{1, 2}, "default value is [1,2]"),
	bt.InputPort[Point2D]("pointB", "default value inside blackboard {point}").WithDefault("{point}"),
	bt.InputPort[Point2D]("pointC", "default value is [5,6]").WithDefault("5,6"),
	bt.InputPort[Point2D]("pointD", "default value inside blackboard {pointD}").WithDefault("{=}"),
	bt.InputPort[Point2D]("pointE", "default value is [9,10]").WithDefault(`json:{"x":9,"y":10}`),
)

const t12XML = `
    <root BTCPP_format="4" >
      <BehaviorTree>
        <NodeWithDefaultPoints input="-1,-2"/>
      </BehaviorTree>
    </root>`

func Example_t12DefaultPorts() {
	factory := bt.NewFactory()
	must(factory.Register(NodeWithDefaultPointsModel))
	must(factory.LoadString("t12.xml", t12XML))
	tree, err := factory.NewTree("")
	must(err)

	must(blackboard.Put(tree.Blackboard().Entry("point"), Point2D{3, 4}))
	must(blackboard.Put(tree.Blackboard().Entry("pointD"), Point2D{7, 8}))

	status, err := tree.TickOnce()
	must(err)
	fmt.Println("Result:", status)

	// Output:
	// Result: SUCCESS
}
