// Behaviac is a demo of the decorators bt takes from Tencent's behaviac, in
// behaviac.xml: a sentry patrols, listens, aims, calls for help and fires, each step a
// different decorator. None of them re-ticks its child within one tick: one
// iteration is one tick (behaviac's frames), so tick by tick they show at work:
//
//	ticks 1–3   Loop count=3: three rounds of Patrol; then Log says "patrol done" once
//	            (decorate_when_child_ends: only when its child completes)
//	ticks 3–4   LoopUntil until=true: Listen until HearNoise succeeds (at most 5 ticks)
//	tick 4      Not: behaviac's Inverter, over IsQuiet
//	ticks 4–5   Frames frames=2: Aim for two ticks
//	ticks 5–7   Loop count=3 over CountLimit count=2: the third call for help fails
//	            without calling (CountLimit counts activations, not ticks)
//	ticks 7–10  Loop count=4 over SuccessUntil count=3: S, S, F, S — the rifle jams on
//	            the third shot (_onFailure counts it)
//	tick 10     RetryUntilSuccessful over FailureUntil count=2: F, then S
//
// This program prints, for each tick, the named nodes that completed and what the Log
// nodes said; the bt command prints the tick lines and the blackboard, where the
// counters are:
//
//	go run ./examples/behaviac
//	go run ./cmd/bt run examples/behaviac/behaviac.xml
//
// Each decorator's documentation (go doc github.com/gobt/bt.Loop, …) gives its exact
// rules, and behaviac.go what they share. Time, which counts milliseconds rather than
// ticks, and ForceRunning and AlwaysRunning, which never complete, are left out of the
// demo.
package main

import (
	"context"
	_ "embed"
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/gobt/bt"
)

//go:embed behaviac.xml
var sentryXML string

func main() {
	if err := run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(out io.Writer) error {
	f := bt.NewFactory()
	if err := f.LoadString("behaviac.xml", sentryXML); err != nil {
		return err
	}
	var events []string
	tree, err := f.NewTree("", bt.WithLogger(slog.New(&recorder{events: &events})))
	if err != nil {
		return err
	}
	tree.Subscribe(func(ev bt.StatusChange) {
		n := ev.Node
		if n.Name() != n.ID() && n.ID() != "Log" && ev.Status.Completed() {
			events = append(events, fmt.Sprintf("%s %s", n.Name(), ev.Status))
		}
	})
	for i := 1; i <= 20; i++ {
		events = events[:0]
		s, err := tree.TickOnce()
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "tick %d => %s\n", i, s)
		for _, ev := range events {
			fmt.Fprintf(out, "    %s\n", ev)
		}
		if s != bt.Running {
			return nil
		}
	}
	return fmt.Errorf("the sentry did not finish")
}

// recorder is a slog.Handler that records what the Log nodes say.
type recorder struct{ events *[]string }

func (r *recorder) Enabled(context.Context, slog.Level) bool { return true }

func (r *recorder) Handle(_ context.Context, rec slog.Record) error {
	node := "?"
	rec.Attrs(func(a slog.Attr) bool {
		if a.Key == "node" {
			node = a.Value.String()
		}
		return true
	})
	*r.events = append(*r.events, fmt.Sprintf("%s: %q", node, rec.Message))
	return nil
}

func (r *recorder) WithAttrs([]slog.Attr) slog.Handler { return r }
func (r *recorder) WithGroup(string) slog.Handler      { return r }
