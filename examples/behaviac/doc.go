// Package behaviac is a demo of the decorators bt takes from Tencent's behaviac, in
// behaviac.xml: a sentry patrols, listens, aims, calls for help and fires, each step a
// different decorator. Run it with the bt command:
//
//	go run ./cmd/bt run examples/behaviac/behaviac.xml
//
// None of these decorators re-ticks its child within one tick: one iteration is one
// tick (behaviac's frames), so the tick lines show them at work:
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
// The blackboard at the end holds the counts. DESIGN.md §4 gives the exact rules of
// each decorator; Time, which counts milliseconds rather than ticks, and ForceRunning
// and AlwaysRunning, which never complete, are left out of the demo.
//
// The examples of this package are the tests: they run these commands.
package behaviac
