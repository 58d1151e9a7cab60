// Package proptest checks the engine's promises on random trees: property tests that
// build trees from every builtin node, with scripted leaves (stateful, asynchronous,
// plain; some that fail with errors or panic), pre- and post-conditions and timers,
// drive them with random ticks, halts, stops and the passing of time, and check after
// every step that:
//
//   - no node is Running under a parent that is not (after a tick that did not fail);
//   - after Halt every node is Idle;
//   - each stateful action that started got exactly one completion or one halt, and
//     was never halted when it was not running; each async action starts its work
//     once per activation and runs at most one goroutine, only while its node is
//     Running, and none is left after Halt;
//   - a run with an observer and a run without give the same statuses, results, calls
//     and blackboard, step by step, and the observer hears of every change; an
//     observer told in batches (SubscribeBatch) hears the same changes, at the same
//     times, as one told of each (Subscribe) — one seed in four makes a tree of
//     Sequences, Fallbacks and leaves only, whose changes the engine writes in runs;
//     it hears the same beside a subscriber of SubscribeBatchWhen that hears ticks at
//     random; and an observer of SubscribeBatchWhen alone, hearing ticks at random,
//     changes nothing of the run, and hears every change of the ticks it hears,
//     following from the statuses as they were when it began to hear again;
//   - a run saved and restored into a new tree before every step (Tree.Snapshot,
//     encoded as JSON or in binary, then Tree.Restore) goes as the run straight
//     through: statuses, results, calls, blackboard and every status change with its
//     time (CheckSnapshot).
//   - a run reloaded now and then with a random edit of its tree (Tree.ReloadSpec)
//     keeps the state of the nodes the rule of bt's package doc ("Hot reload") keeps,
//     halts once the Running nodes it does not, and leaves no goroutine behind
//     (CheckReload).
//
// The trees and the steps come from a seed, so a failure is reproduced by its seed,
// which the test prints. The package is internal: its only user is its test (and its
// fuzz target, which searches seeds); it uses the engine's public API only, so it
// checks what users can see.
//
//	go test ./internal/proptest                                  # a few hundred trees
//	BT_PROPTEST_TREES=5000 go test ./internal/proptest           # thousands (both tests)
//	BT_PROPTEST_SEED=1234 BT_PROPTEST_TREES=1 go test ./internal/proptest -v   # one tree
//
// Each tree runs in a testing/synctest bubble: time is fake (timers fire when the
// driver lets time pass), a goroutine left behind fails the test, and waiting for
// goroutines to settle needs no sleep.
package proptest
