// Package fallbacks is a demo of the three Fallback modes — Fallback, AsyncFallback
// and ReactiveFallback — in fallbacks.xml, run with the bt command. The same three
// children are tried in order:
//
//	IsDoorOpen  a condition: the door gives way after two blows
//	UseKey      fails at once: the robot has no key
//	RamDoor     four blows, one per tick, whatever happens (RUNNING until then)
//
// How the modes differ, tick by tick (with --exactly-once, one root tick per line):
//
//	tick  Plain (Fallback)           Async (AsyncFallback)      Reactive (ReactiveFallback)
//	1     IsDoorOpen F, UseKey F,    IsDoorOpen F → yield       IsDoorOpen F, UseKey F,
//	      RamDoor R (blow 1)                                    RamDoor R (blow 1)
//	2     RamDoor R (blow 2)         UseKey F → yield           IsDoorOpen F, UseKey F,
//	                                                            RamDoor R (blow 2)
//	3     RamDoor R (blow 3)         RamDoor R (blow 1)         IsDoorOpen S: RamDoor halted,
//	                                                            SUCCESS
//	4     RamDoor S: SUCCESS         RamDoor R (blow 2)
//	5                                RamDoor R (blow 3)
//	6                                RamDoor S: SUCCESS
//
// A plain Fallback stays with the running child: it never notices that the door gave
// way. AsyncFallback yields after each child that failed at once — with BehaviorTree.CPP's
// tickOnce (bt run's default) the yield is re-ticked within the same tick, so it then
// behaves as Fallback. ReactiveFallback re-checks its higher-priority children on every
// tick and halts the running one when one of them succeeds.
//
// Run them:
//
//	go run ./cmd/bt run --exactly-once --main Plain examples/fallbacks/fallbacks.xml
//	go run ./cmd/bt run --exactly-once --log --main Async examples/fallbacks/fallbacks.xml
//	go run ./cmd/bt run --exactly-once --log --main Reactive examples/fallbacks/fallbacks.xml
//
// The examples of this package are the tests: they run these commands.
package fallbacks
