// Package monitor shows behavior trees in a browser: an http.Handler that serves a
// page drawing each tree as a graph, its nodes coloured by status as Groot2 colours
// them, with the tick count, the blackboard and a timeline of the last ticks — live
// for a ticking tree, step by step for a recorded run (.btlog). The page is embedded:
// it needs no network and no build step.
//
//	m := monitor.New()
//	feed, err := m.Add("agent-7", tree)  // any number of trees, each under a name
//	go http.ListenAndServe("127.0.0.1:8642", m)
//	tree.TickWhileRunning(ctx, 0)         // or TickOnce in the program's own loop
//
// A game server or a fleet process adds its trees (Add) and recorded runs (AddLog)
// and removes them (Remove, Feed.Close) as they come and go; the page lists them and
// shows one at a time. The bt command serves one: bt run --serve, bt view FILE.btlog.
//
// # What the page shows
//
// Each node shows its name, its type and UID, and the values set on its ports as XML
// writes them (and its scripted pre- and post-conditions). Its colour is its status
// after the tick: grey IDLE, orange RUNNING, green SUCCESS, red FAILURE; a node reset to
// IDLE shows the status it had before, faded and dashed, as Groot2 does. The nodes
// that changed during the tick shown are outlined and list the statuses they went
// through ("RUNNING → SUCCESS → IDLE"); so are the blackboard entries it changed.
// Subtrees fold with the arrow of their root. The timeline steps back through the
// history (← and →), pauses (space) and goes back to following the tree (live); a
// replay plays at the pace it was recorded.
//
// # Cost
//
// A Feed observes its tree only while a browser is connected, unless the monitor was
// made with ObserveAlways: with no browser the tree ticks as an unobserved tree does,
// and the program calls nothing after a tick. A browser that connects is served from
// the start of the next tick on: the feed subscribes to the tree on the goroutine that
// ticks it (bt.Tree.Do), since a subscription cannot change during a tick, and stops
// the same way when the last browser leaves. While observed, the tree records its
// changes (bt.Tree.SubscribeBatch: four bytes each) and, when a tick ends, the feed
// copies them and the blackboard scopes that changed into a frame (see Feed); the
// monitor's own goroutine does the rest. A slow or stuck browser never slows the tree:
// each has a bounded buffer of messages (Buffer), and one that falls behind is sent a
// snapshot instead of what it missed. History keeps the last ticks (History, 1000 by
// default). A tree that does not tick is served from Feed.Sync on.
//
// # The stream
//
// GET /api/trees/{name}/events is a stream of server-sent events: "snapshot" (the
// tree's nodes and blackboard scopes, the state before the history, and the history's
// frames), then "tick" (a frame: the tick count, the time the tick began, the changes
// as [uid, previous, status] and the blackboard scopes that changed, as
// Blackboard.MarshalJSON writes them; a keyframe lists every node's status instead; a
// Halt makes a frame with the number of the tick before it), "stale" when the feed
// stops observing the tree, and "gone" when the tree is removed. Statuses are numbers,
// BehaviorTree.CPP's: 0 IDLE, 1 RUNNING, 2 SUCCESS, 3 FAILURE.
//
// # Safety
//
// The monitor is read-only: it serves GET and HEAD only and changes nothing in a tree.
// It refuses requests that a page of another origin makes (an Origin header naming
// another host, or Sec-Fetch-Site: cross-site), so that a site open in the same browser
// cannot read the trees. On a loopback connection it refuses a request whose Host is
// not a loopback name or address (localhost, 127.0.0.1, [::1]), so that a site whose
// name was made to resolve to 127.0.0.1 (DNS rebinding) cannot either. It does not
// authenticate: serve it on a loopback address, as bt run --serve does by default, or
// behind a proxy that does.
//
// # Replays
//
// A .btlog file records when each change happened but not the ticks, so a replay makes
// a step of each burst of changes: a change more than StepGap (1 ms) after the one
// before starts a new step. A run ticked at BehaviorTree.CPP's 10 ms period replays
// tick by tick; ticks made back to back may share a step. The file has no blackboard.
package monitor
