// Reload edits the XML of a running tree and reloads it between two ticks
// (bt.Tree.Reload): what the edit did not touch keeps its state — the robot driving
// to B goes on driving — and what went away is halted.
//
//	Sequence
//	├── Script          say := 'hello'
//	├── Drive(A)        two ticks
//	├── Drive(B)        three ticks
//	└── Drive(C)        two ticks
//
// At tick 3 the robot is driving to B. The first edit changes the Script's text and
// puts a stop at D in place of C: Drive(B) is untouched and goes on, Drive(C) goes and
// Drive(D) comes. The second edit is broken (a port misspelt): the reload is refused,
// with the error at its line and column, and the tree runs on as it was.
//
// Run it with: go run ./examples/reload
//
// patrol.xml is a tree to try "bt run --watch" with: run
//
//	bt run --watch --serve --interval 500ms examples/reload/patrol.xml
//
// edit the file while it runs (the msec of a Sleep, a node added or removed), and
// watch the page redraw and the run go on.
package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gobt/bt"
	"github.com/gobt/bt/blackboard"
)

func main() {
	if err := run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

const v1 = `<root BTCPP_format="4" main_tree_to_execute="Main">
  <BehaviorTree ID="Main">
    <Sequence>
      <Script code="say := 'hello'"/>
      <Drive place="A" ticks="2"/>
      <Drive place="B" ticks="3"/>
      <Drive place="C" ticks="2"/>
    </Sequence>
  </BehaviorTree>
</root>`

// drive drives to a place in a number of ticks: a stateful action that says when it
// starts, drives, arrives and is halted.
type drive struct {
	out   io.Writer
	place string
	left  int
}

func (d *drive) OnStart(n *bt.Node) bt.Status {
	ticks, _ := bt.Get[int](n, "ticks")
	d.place, _ = bt.Get[string](n, "place")
	d.left = ticks
	fmt.Fprintf(d.out, "  Drive(%s): start\n", d.place)
	return d.OnRunning(n)
}

func (d *drive) OnRunning(*bt.Node) bt.Status {
	if d.left--; d.left > 0 {
		fmt.Fprintf(d.out, "  Drive(%s): driving\n", d.place)
		return bt.Running
	}
	fmt.Fprintf(d.out, "  Drive(%s): arrived\n", d.place)
	return bt.Success
}

func (d *drive) OnHalted(*bt.Node) { fmt.Fprintf(d.out, "  Drive(%s): halted\n", d.place) }

// factory returns a new Factory that knows Drive and holds the document xml: each
// edit is loaded into a factory of its own.
func factory(out io.Writer, xml string) (*bt.Factory, error) {
	f := bt.NewFactory()
	err := f.Register(bt.NewStateful("Drive", func() bt.StatefulAction { return &drive{out: out} },
		bt.InputPort[string]("place", "where to"), bt.InputPort[int]("ticks", "how long it takes")))
	if err != nil {
		return nil, err
	}
	return f, f.LoadString("patrol.xml", xml)
}

func run(out io.Writer) error {
	f, err := factory(out, v1)
	if err != nil {
		return err
	}
	tree, err := f.NewTree("")
	if err != nil {
		return err
	}
	tick := func(i int) error {
		fmt.Fprintf(out, "tick %d\n", i)
		s, err := tree.TickOnce()
		fmt.Fprintf(out, "  => %v\n", s)
		return err
	}
	for i := 1; i <= 3; i++ {
		if err := tick(i); err != nil {
			return err
		}
	}

	fmt.Fprintln(out, "edit: a new greeting, and D in place of C")
	v2 := strings.NewReplacer("hello", "hi", `place="C"`, `place="D"`).Replace(v1)
	if f, err = factory(out, v2); err != nil {
		return err
	}
	r, err := tree.Reload(f, "")
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "  %v\n  changed: %s\n", r, strings.Join(r.Changed, ", "))

	fmt.Fprintln(out, "edit: a port misspelt")
	broken := strings.Replace(v2, `ticks="2"`, `tics="2"`, 1)
	if f, err = factory(out, broken); err == nil {
		_, err = tree.Reload(f, "")
	}
	fmt.Fprintf(out, "  refused: %v\n", err)

	for i := 4; i <= 7; i++ {
		if err := tick(i); err != nil {
			return err
		}
	}
	say, err := blackboard.Get[string](tree.Blackboard().Entry("say"))
	fmt.Fprintf(out, "say = %q\n", say)
	return err
}
