// Package monitor shows behavior trees in a browser: an http.Handler that serves a
// page drawing each tree as a graph, its nodes coloured by status as Groot2 colours
// them, with the tick count, the blackboard and a timeline of the last ticks — live
// for a ticking tree, step by step for a recorded run (.btlog). The page is embedded:
// it needs no network and no build step.
//
//	m := monitor.New()
//	feed, err := m.Add("agent-7", tree)  // any number of trees, each under a name
//	go monitor.NewServer("127.0.0.1:8642", m).ListenAndServe()
//	tree.TickWhileRunning(ctx, 0)         // or TickOnce in the program's own loop
//
// A game server or a fleet process adds its trees (Add) and recorded runs (AddLog)
// and removes them (Remove, Feed.Close) as they come and go; the page lists them and
// shows one at a time. The bt command serves one: bt run --serve, bt view FILE.btlog.
//
// # What the page shows
//
// Each node shows its name, its type and UID, and the values set on its ports as XML
// writes them (the first three; the rest, and the full name, ID and path, in its
// tooltip and its detail panel). Its colour is its status after the tick: grey IDLE,
// orange RUNNING, green SUCCESS, red FAILURE; a node reset to IDLE shows the status it
// had before, faded and dashed, as Groot2 does. The nodes that changed during the
// tick shown are outlined and list the statuses they went through ("RUNNING → SUCCESS
// → IDLE"); so are the blackboard entries it changed. The timeline steps back through
// the history (shift+← and shift+→, or , and .), pauses (space) and goes back to
// following the tree (live); a replay plays at the pace it was recorded.
//
// The view zooms (the wheel, a pinch, + and −) and pans (a drag, the arrow keys); 0
// or "fit" fits the tree to the window, as on load. A tree too wide to read when fitted
// is shown with its deepest subtrees folded, level by level, until it reads at three
// quarters of its size or more (a Nav2 navigation tree of 57 nodes fits a 1400×900
// window so); subtrees fold and unfold with the arrow of their root, and a folded one
// that holds running nodes says so. "follow" (f) keeps the running nodes in view as
// the tree ticks: it moves the view, smoothly, only when they leave it, and zooms out
// if they do not fit; it is on while live, and goes off when the user pans. "Running
// now" lists the running leaves and the running branches of every Parallel, each a
// link that unfolds, centres and flashes the node. Find (/) matches names, IDs and
// paths, highlights every match and steps through them (enter, shift+enter). A click
// on a node opens its detail panel: its model (kind, description, the ports it
// declares with their direction and type, the value set or the default, and the value
// of the entry a remapped port names), its counters over the frames the page holds
// (the frames it was ticked in, its transitions, successes and failures as
// btlog.Stats counts them, and the time it spent running), and its last transitions
// with their ticks and times. With many trees (a crowd), a picker finds one by name.
//
// The layout is a tidy tree (each subtree as close to its left sibling as their boxes
// allow at every height, a parent centred over its children, the leaves of a parent
// that has only leaves stacked under it), computed when the tree is loaded or a
// subtree folds, never on a tick: a tick changes colours and labels only. The page is
// hand-written (an ES module per part, no library): a layout and a pan-and-zoom of
// this size are a few hundred lines, and a library would need vendoring and review
// for little gain.
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
// copies them and the entries of the blackboard scopes that changed (their values, not
// their JSON) into a batch it reuses (see Feed); the monitor's own goroutine writes
// the JSON and does the rest. An observed tick allocates nothing on the ticking
// goroutine (TestTickAllocatesNothing): it checks each scope's entries by their Seq,
// and lists them again only when the scope has more. (So a value changed in place —
// a slice a node holds and the entry shares — shows when the entry is next written.)
//
// A slow or stuck browser never slows the tree: each has a bounded buffer of messages
// (Buffer), and one that falls behind is sent a snapshot instead of what it missed.
// History keeps the last ticks (History, 1000 by default). A tree that does not tick
// is served from Feed.Sync on.
//
// What it costs (BenchmarkTick, BenchmarkTickObserved: a ReactiveSequence of a dozen
// nodes that makes about ten changes a tick and writes an entry every fourth — a tick
// that does almost nothing, the worst case), counted in instructions with callgrind, as
// a shared machine's clock is too noisy: a tick costs 515 instructions unobserved,
// 1,245 observed by a batch subscriber that does nothing (2.4×: the cost of
// bt.Tree.SubscribeBatch, which the feed rides on), and 1,517 with a monitor and a
// browser connected (2.95×; the hand-off to the monitor's goroutine included, not the
// start of that goroutine when it was idle). Before the work on this cost (issue 27)
// they were 515, 1,673 (3.2×) and 2,301 (4.5×). The feed's own share is some 320
// instructions a tick: the changes copied, each scope's entries checked (a call of
// Entry.Seq per entry), the frame queued; the clock, read once a tick for the frame's
// time, some 80. A tick with more work of its own (actions, scripts) costs relatively
// less to observe. bench/instructions fails when the ratio goes over 3×, the target
// (bench/README.md, "The monitor's cost", says where the rest goes).
//
// What made it so: the tree ticks an observed root in one frame with one deferred
// call, as it ticks an unobserved one; a reactive control records its children's
// resets in a run rather than halting each, and a Sequence of leaves whose run is
// settled by a child Running writes the children that passed in a run too; the feed
// no longer follows each node's
// status on the ticking goroutine (the monitor's goroutine follows them from the
// frames, and while frames are dropped the feed keeps only the last status of each
// node they changed); and a frame is handed over in a few calls, as the pointer to the
// batch it was recorded in.
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
// A tree reloaded with a new definition (bt.Tree.Reload, bt run --watch) sends a new
// "snapshot": its new nodes and scopes, and a history that starts at the reload (the
// frames before it are of the old nodes, whose UIDs now name others). The page draws
// it as it draws the first, without a reload of the page.
//
// # Security
//
// Where it listens: the package listens nowhere by itself; the program serves the
// Monitor where it chooses. Serve it with NewServer, which sets the limits below; a
// bare http.ListenAndServe has none of them. bt run --serve and bt view listen on
// 127.0.0.1:8642 (loopback only) unless given another address, and warn when it is
// not a loopback one.
//
// Who can connect: anyone who reaches the address. The monitor does not authenticate:
// serve it on a loopback address, or behind a proxy that authenticates. It refuses
// requests that a page of another origin makes (an Origin header naming another host,
// or Sec-Fetch-Site: cross-site), so that a site open in the same browser cannot read
// the trees. On a loopback connection it refuses a request whose Host is not a
// loopback name or address (localhost, 127.0.0.1, [::1]), so that a site whose name
// was made to resolve to 127.0.0.1 (DNS rebinding) cannot either.
//
// What a client can do: read. The monitor serves GET and HEAD only and changes nothing
// in a tree: a client reads the trees' structure, the ports' values, the statuses, the
// history and the blackboards, as JSON (whatever a blackboard holds, a client can read:
// keep secrets out of it, or the monitor off the network).
//
// The limits, so that no client, or crowd of clients, can hold up the trees, the page
// or the process's memory:
//   - MaxViewers event streams at a time, all trees together (32 by default); one more
//     is answered 503 Service Unavailable, and the page is served as usual;
//   - a client's snapshot is built once per frame, shared by the clients that join
//     before the next one, and outside the lock the ticks' frames take; a replay's is
//     written from its transitions as it is sent (see Replays);
//   - a client has at most Buffer messages waiting, then it is sent a snapshot instead;
//     a write to it that takes more than 10 s disconnects it;
//   - a live tree keeps History frames (1000 by default);
//   - NewServer's server: a request's header within 10 s, the request within 30 s, its
//     response within 30 s (an event stream is exempt while it streams: each write has
//     its own 10 s), a keep-alive connection idle for 30 s closed, headers of at most
//     64 KB, and at most MaxConns connections (256), the one idle longest closed when a
//     new one comes and all are taken.
//
// # Replays
//
// A .btlog file records when each change happened but not the ticks, so a replay makes
// a step of each burst of changes: a change more than StepGap (1 ms) after the one
// before starts a new step. A run ticked at BehaviorTree.CPP's 10 ms period replays
// tick by tick; ticks made back to back may share a step. The file has no blackboard.
// The monitor keeps a replay's transitions as the file encodes them (9 bytes each, times
// to the microsecond) and cuts the steps as it writes a snapshot, straight to the
// client: a file of 2,000,000 transitions costs its 18 MB however many browsers watch
// it (the page, though, still receives and holds every step). The page shows a replay
// as it shows a live tree, and says that the file carries no blackboard.
package monitor
