// Package groot2 publishes a running tree to Groot2, the behavior-tree editor and
// debugger, over BehaviorTree.CPP 4.10's Groot2 protocol: Groot2 attaches to a bt
// program exactly as it attaches to one using BehaviorTree.CPP's Groot2Publisher,
// shows the tree and its statuses live, reads the blackboards, records transitions,
// and sets breakpoints and fault injections.
//
//	pub, err := groot2.New(tree, nil) // ports 1667 and 1668 of 127.0.0.1
//	if err != nil { … }
//	defer pub.Close()
//	tree.TickWhileRunning(ctx, 0)
//
// The bt command publishes the trees it runs the same way: bt run --groot2 FILE.xml.
// Both listen on this machine only unless told otherwise (see Security).
//
// It is a module of its own (github.com/gobt/bt/groot2), so that programs that do not
// use it keep bt's standard-library-only dependencies. ZeroMQ comes from
// github.com/go-zeromq/zmq4, in pure Go (no cgo); the publisher is tested against
// libzmq peers.
//
// # The protocol
//
// A REP socket on the server port answers Groot2's requests; a PUB socket on the next
// port tells subscribers when a breakpoint is reached. A request is a header of 6
// bytes — the protocol (2), the request type, a uint32 id — and at most one more
// part; a reply starts with the request's header followed by the 16-byte UUID of the
// tree, fixed per publisher. A request that cannot be served gets a reply of two parts,
// "error" and the reason, with BehaviorTree.CPP's texts ("wrong request header",
// "must be 2 parts message", "Node ID not found", "Request not recognized", the JSON
// errors of nlohmann::json).
//
//	T FULLTREE          the tree as XML with UIDs (btlog.WriteTreeXML)
//	S STATUS            3 bytes a node: its UID (little-endian) and its status, an Idle
//	                    node written as 10 + the status it had before (12: idle after
//	                    SUCCESS); the main tree's nodes first, then each subtree's
//	B BLACKBOARD        the blackboards named in the second part (";"-separated: the
//	                    main tree by its ID, a subtree instance by its path), as a JSON
//	                    object converted to MessagePack as nlohmann::json's to_msgpack
//	                    does; a root blackboard that is not one of them is added as ROOT
//	I HOOK_INSERT       a hook, or an array of hooks, as JSON (see Hooks)
//	R HOOK_REMOVE       {"uid":…,"position":…}
//	D HOOKS_DUMP        the hooks as a JSON array
//	A REMOVE_ALL_HOOKS
//	X DISABLE_ALL_HOOKS
//	U BREAKPOINT_UNLOCK {"uid":…,"position":…,"desired_status":…,"remove_when_done":…}
//	r TOGGLE_RECORDING  "start" (replies with the time in µs since the Unix epoch) or "stop"
//	t GET_TRANSITIONS   the changes recorded since the last request, 9 bytes each as in
//	                    a .btlog file (btlog.AppendRecord); the last 1,000 are kept
//
// # Hooks
//
// A hook sits before (position 0) or after (1) a node's tick, through the node's
// tick functions (bt.Node.SetPreTick, SetPostTick). A breakpoint (mode 0) pauses the
// goroutine that ticks the tree at the node, and publishes BREAKPOINT_REACHED (its
// header, then the node's UID in decimal) on the PUB socket, until Groot2 unlocks it:
// with desired status SUCCESS or FAILURE the node is not ticked (before) or its status
// is replaced (after); with any other status it goes on. A replacement (mode 1)
// replaces the node's status with its desired status at once, without pausing. A hook
// with "once" is removed after it ran. While the tree is paused the publisher goes on
// answering: Groot2 reads statuses and blackboards, and hooks it sets then apply to
// the rest of the tick.
//
// The heartbeat: when no request comes for the heartbeat (Options.Heartbeat,
// DefaultHeartbeat), Groot2 is taken for gone: every hook is disabled, so a paused
// node goes on and none pauses again — a robot never stays frozen because Groot2 went
// away. The next request enables them all again. The heartbeat runs on the tree's
// clock (bt.WithClock), so tests move it with a fake clock.
//
// # Cost
//
// While no client is connected — no request within the heartbeat — the publisher
// does not observe the tree: ticks cost what they cost without it (bench/README.md of
// the repository has the figures). Once a request comes, the tree is observed from the
// start of its next tick: the status buffer and the recording follow every change,
// a batch per tick (bt.Tree.SubscribeBatch), and a tick costs what an observed tick
// costs, and an update of the status buffer under a lock per tick. Transitions are
// recorded with the time of their tick's start, as the tree's batches give it: one
// timestamp per tick.
//
// # Concurrency
//
// New and Close may be called from any goroutine, also while the tree ticks. The
// publisher changes the tree (its subscription, its nodes' tick functions) only on the
// goroutine that ticks it, through bt.Tree.Do, at the start of a tick or when a hook
// returns. Close lets paused nodes go on at once; the tree loses the subscription and
// the tick functions at the start of its next tick. Use one publisher per tree: a
// second one, or a test that sets tick functions on the same nodes, would overwrite
// the first's. Several trees, each with its publisher on its own ports, work side by
// side.
//
// A tree reloaded with a new definition (bt.Tree.Reload, bt run --watch) is a new tree
// to Groot2, as when a BehaviorTree.CPP program attaches a new tree: the publisher
// takes a new UUID, which the client sees in its next reply and answers by asking for
// the tree again, and serves the new XML, statuses and blackboards. A hook moves with
// its node to its new UID (ReloadReport.NewUID); the hooks of nodes that went away
// go, and so do the recorded transitions. The publisher hears of reloads from its
// first tick on: a tree reloaded before it ever ticked keeps the old description.
//
// # Security
//
// Neither the protocol nor the publisher has authentication or encryption: whoever
// can connect to the ports can do what Groot2 does.
//
// Where it listens: on 127.0.0.1 (DefaultHost) unless Options.Host says otherwise, so
// that only programs on the same machine can connect. Options.Host "0.0.0.0" (or
// "::", or the address of one interface) accepts clients from the network, as
// BehaviorTree.CPP does; do that on a network you trust, or with Options.ReadOnly.
// bt run --groot2 PORT listens on loopback too; --groot2 HOST:PORT listens on HOST,
// with a warning.
//
// What a client can do: read the tree (its XML: every node's type, name and ports),
// the nodes' statuses and every blackboard entry's value, and record transitions;
// and, unless Options.ReadOnly is set, set breakpoints that pause the goroutine that
// ticks the tree — for as long as the client keeps sending requests (the heartbeat
// lets the tree go on once it stops) — and replace the status of any node (fault
// injection), which makes the program act as if that node had failed or succeeded. A
// read-only publisher answers FULLTREE, STATUS, BLACKBOARD, HOOKS_DUMP (always
// empty), TOGGLE_RECORDING and GET_TRANSITIONS, and refuses HOOK_INSERT, HOOK_REMOVE,
// BREAKPOINT_UNLOCK, REMOVE_ALL_HOOKS and DISABLE_ALL_HOOKS with the error reply
// "read-only: this publisher takes no hooks (breakpoints or fault injection)": its
// tree is never paused or altered.
//
// Limits, per port, so that no peer can make the program hold unbounded memory or
// keep Groot2 out:
//
//   - Connections: 64, handshakes included. When a port has 64, a new connection
//     takes the place of the peer useful least recently: the one whose last request
//     was answered (server port) or last subscription taken (publisher port) longest
//     ago, or, for a peer that has had neither, whose handshake ended or connection
//     began longest ago. Stalled and idle peers go first; a client that has just
//     connected goes last.
//   - Time: a handshake must end within 5 s of the connection, and a message within
//     5 s of its first byte, else the connection is closed (checked every second). A
//     reply or a notice must be written within 1 s, else the connection is closed. An
//     idle connection is kept (Groot2's subscriber never speaks after subscribing).
//   - Messages: 64 frames; 64 KiB on the server port (Groot2's requests are a header
//     and one short part), 1 KiB on the publisher port. A frame header that announces
//     more closes the connection before anything is allocated.
//   - Subscriptions: 16 per subscriber, of at most 256 bytes each (Groot2 subscribes
//     once, to everything); a subscriber that asks for more is dropped. A subscriber
//     that does not read misses the notices beyond 64 waiting for it.
//
// So a peer makes the publisher hold at most a message (64 KiB on the server port; 1
// KiB and 4 KiB of subscriptions on the publisher port), a reply being written (the
// tree's XML, the blackboards asked for), and its connection's buffers and two or
// three goroutines: about 4 MiB of messages for 64 peers on the server port, and
// 320 KiB on the publisher port.
//
// # Differences from BehaviorTree.CPP
//
//   - A request whose protocol byte is not 2 gets an error reply; BehaviorTree.CPP
//     does not look at it.
//   - HOOK_INSERT for a node that does not exist gets the error "Node ID not found"
//     (BehaviorTree.CPP replies as if it had inserted it), the hooks of an array are
//     checked before any is inserted, and a uid, mode or position out of range is an
//     error (nlohmann::json casts them). JSON syntax errors are worded by Go's decoder
//     behind nlohmann's prefix.
//   - A hook that disables a paused breakpoint (HOOK_INSERT with "enabled": false) lets
//     the node go on; BehaviorTree.CPP leaves it paused until something else wakes it.
//   - A recorded transition has the time its tick began (see Cost); BehaviorTree.CPP
//     reads the clock at each change.
//   - The tree is observed only while a client is connected (see Cost); statuses
//     changed while nobody watched are read from the nodes when a client comes back,
//     and a recording misses the changes made while no client was connected.
//   - A hook set or removed while the tree ticks applies from the start of the next
//     tick, or as soon as a paused breakpoint lets the tick go on; BehaviorTree.CPP
//     swaps the callback under a mutex at once.
//   - A hook that replaces the status of a node that was Running halts the node (see
//     bt.Node.SetPreTick).
//   - The publisher listens on loopback unless Options.Host says otherwise;
//     BehaviorTree.CPP listens on every interface. Options.ReadOnly has no
//     counterpart.
//   - The sockets protect the program from bad peers (see Security): limits on
//     connections, messages, subscriptions and time that libzmq does not set. A
//     request that Close interrupts inserts no hook ("the publisher is closed").
//   - A subtree's blackboard always descends from the main tree's, so the error about
//     a request that spans several external root blackboards cannot happen.
package groot2
