// Package bt is a behavior-tree engine: BehaviorTree.CPP 4.10's model and semantics —
// XML trees, typed ports, a hierarchical blackboard, scripting, subtrees, asynchronous
// actions — done the Go way, with the decorator family of behaviac on top.
//
// # Start here
//
// Each of these is a few lines; the examples they name (on pkg.go.dev, or in the
// _test.go files) run as written, and go test runs them.
//
//   - A tree in Go: NewTree over the functions that name the nodes (Sequence,
//     Fallback, Action, Condition, …), then Tree.TickWhileRunning to run it to the end,
//     or Tree.TickOnce once per frame of a loop of your own. See the package example.
//   - A tree from XML: NewFactory knows every builtin node; register your own nodes
//     (Factory.Register), load BehaviorTree.CPP XML (Factory.LoadFile, LoadString) and
//     build a tree by its ID (Factory.NewTree). Errors come all at once, each as
//     file:line:col. See Factory's examples.
//   - Your own nodes: NewAction and NewCondition make a node type of a function,
//     reading and writing its ports with Get and Set; ModelOf makes one of a struct
//     whose fields are its ports (In[T], Out[T]); NewStateful one that knows when it
//     starts and is halted. See the examples of ModelOf and NewStateful.
//   - Async work: NewAsync runs a node's work in a goroutine under a context.Context
//     that halting the node cancels; the tree wakes when it finishes. See its
//     example.
//   - Logging: package btlog prints every status change as BehaviorTree.CPP's
//     StdCoutLogger does (btlog.NewConsole), records .btlog files for Groot2, and more;
//     Tree.Subscribe gives the changes to a function of yours. See its
//     example.
//   - Testing: a manual clock (bttest.NewClock, WithClock) runs timers without
//     sleeping; substitution rules replace nodes by mocks (Factory.LoadSubstitutions);
//     package bttest plays tick tables. See the examples of
//     WithClock and Factory.LoadSubstitutions.
//
// Two names deserve a sentence where you first meet them. Tree.TickOnce is
// BehaviorTree.CPP's tickOnce: one tick, and another at once when a node asked for it
// (an asynchronous one that finished, AsyncSequence between its children), so it may
// tick more than once; Tree.TickExactlyOnce ticks exactly once. A node writes a port
// with Set (a function's node) or Out[T].Set (a struct's field); below them, a
// blackboard entry is written with blackboard.Put, as Entry.Set takes a
// blackboard.Value rather than a Go value — all three write the same.
//
// The sections after these describe the engine as a user meets it; the node lifecycle
// (the order in which observers see changes), the differences from BehaviorTree.CPP
// and the performance notes come last.
//
// # Trees, nodes and ticks
//
// A behavior tree decides what an agent does next. It is ticked many times a second;
// each tick walks the tree from the root, and every node answers Running, Success,
// Failure or Skipped. Controls (Sequence, Fallback, Parallel, …) decide which children
// to tick and combine their answers; decorators (Inverter, RetryUntilSuccessful, …)
// change one child's; actions and conditions are the leaves that do the work.
//
// Build a tree in Go with the functions of this package, which read like the tree:
//
//	tree, err := bt.NewTree(
//		bt.ReactiveSequence(
//			bt.Condition("IsEnemyVisible", world.EnemyVisible),
//			bt.Async("ApproachEnemy", world.Approach),
//		),
//	)
//
// or load BehaviorTree.CPP XML through a Factory. Then tick it: Tree.TickOnce for a
// game loop that ticks at its own pace, Tree.TickWhileRunning to run it to completion.
//
// # Writing nodes
//
// Leaves are plain functions (NewAction, NewCondition, whose function returns a bool,
// or a Status when it may answer Running as BehaviorTree.CPP's conditions may),
// stateful actions that know when they start and are halted (NewStateful), or
// asynchronous actions whose work runs in a goroutine under a context.Context that
// halting cancels (NewAsync, or NewAsyncAction for work that is a value of its own per
// node). The nodes of a function's Model share
// the function: make the Model once and use it in every tree (its Spec method, or a
// Factory it is registered in), and its nodes cost no memory beyond their slots; Action
// and Condition make a new Model at each call, for one-off trees. A struct type can
// be a node type whose ports are its tagged fields (ModelOf); Starter tells it when its
// node starts. Any type that implements Behavior can be a node; Halter adds clean-up on
// halt, StateSaver keeps its state in a tree's snapshot. Package bttest tests them:
// scripted leaves around them, tick tables played in every tick mode with and without
// observers and restored from snapshots, a manual clock, golden traces.
//
// # Many agents
//
// A game or a fleet runs one tree per agent, all from one definition: a Factory that
// loaded the XML (or one Spec), and the leaf Models made once. Each tree gets its agent
// as its owner, WithOwner, and a leaf reads it with Owner — a type assertion, inlined
// where it is called:
//
//	isHungry := bt.NewCondition("IsHungry", func(n *bt.Node) bool {
//		return bt.Owner[*Villager](n).Food < 3
//	})
//	…
//	tree, err := factory.NewTree("Villager", bt.WithOwner(villager))
//
// TickAll ticks them all on every core, each goroutine a contiguous share of the trees;
// examples/crowd ticks 10,000 villagers so. BehaviorTree.CPP has no owner: its nodes
// reach their robot through their constructor or the blackboard, which in bt would mean
// a Spec per agent or a port read per leaf.
//
// # Checking trees
//
// A tree is checked before it is built, with the same rules whether it was written in
// XML (Factory.Load, with positions) or in Go (NewTree, naming the node): every port
// is declared by the node's model ("did you mean" otherwise), literal values are of the
// port's type and in its range, output ports name blackboard entries, scripts parse,
// controls have children, decorators one child, leaves none. Spec.With sets a port to
// text, as XML does; Spec.WithValue to a Go value, converted to the port's type. A port
// that a function reads with Get is not known until it runs: declare every port in
// the node's model. Register checks the defaults of a model's ports. Remarks that do
// not stop a load — a misspelt _onSucess, which BehaviorTree.CPP ignores like any
// attribute that is not a port, or what an upgrade from format 3 changed — are logged
// as warnings (Factory.SetLogger) and kept (Factory.Notes). The attributes that are
// not ports ("_description", Groot2's "_uid") are kept for the program to read
// (Node.Attribute, BehaviorTree.CPP's other_attributes). A port's default is XML text
// (PortDef.WithDefault: a value to parse, or an entry as "{key}") or a Go value of the
// port's type (InputPortDefault), which needs no text form.
//
// Nodes whose types are known only from a TreeNodesModel (RegisterStandIns) load and
// check; Factory.SubstituteStandIns runs them as mocks for a dry run.
//
// # Ports and the blackboard
//
// A port set to "{key}" reads or writes the blackboard entry key, which building the
// tree creates, empty and typed after the port, as BehaviorTree.CPP does. An entry that
// holds no value yet takes the type of its first write: a script's "state := 1" fills
// an entry that Switch's string port variable declared, and a port typed as a string
// reads a number as its text ("1"; Switch then matches 2.0 with case "2" as numbers).
// Once an entry holds a value its type holds, with BehaviorTree.CPP's conversions: a
// script assigning '12' to an entry holding a number stores the number 12, a word there
// is an error naming the entry. SetBlackboard copying from a {key} that holds no value
// returns Failure. Package blackboard gives the rules.
//
// A port of type any (In[any], InputPort[any]) declares its entry of type any, which
// holds values of any type, as BehaviorTree.CPP's BT::Any ports do: no write fixes its
// type. Ports of assignable types share an entry, as the reference's polymorphic ports
// (tutorial 19): an Out[*Cat] feeds an In[Animal] when *Cat implements Animal, and an
// In[*Cat] reads an entry of type Animal while it holds a *Cat, and otherwise fails
// naming both types. A node that modifies a value other goroutines modify too uses
// InOut.Update (blackboard.Update), which loses no concurrent update (the reference's
// getLockedPortContent, tutorial 13):
//
//	err := p.Vector.Update(func(v []int) []int { return append(v, x) })
//
// Tree.Subtrees lists a tree's blackboard scopes — the main tree's, then each subtree
// instance's — as BehaviorTree.CPP's tree.subtrees does, and Blackboard.Dump shows one
// with its remappings (debugMessage). BlackboardBackup and BlackboardRestore copy them
// all and put them back, and ExportTreeToJSON and ImportTreeFromJSON write and read
// them as one JSON object (tutorial 17):
//
//	backup := bt.BlackboardBackup(tree)
//	tree.TickWhileRunning(ctx, 0)
//	err := bt.BlackboardRestore(backup, tree)
//	data, err := bt.ExportTreeToJSON(tree) // {"MainTree": {…}, "Sub::6": null}
//
// Tree.Print writes the tree's nodes indented, as printTreeRecursively does, and
// Tree.PrintStatus with their statuses.
//
// # Node types from a models file
//
// Factory.RegisterStandIns declares node types implemented elsewhere from their
// TreeNodesModel entries (Groot2's files, Nav2's nav2_tree_nodes.xml), so that trees
// using them load, check and dry-run without them. BehaviorTree.CPP does not read these
// entries, so bt takes them as they are in the wild: a port's default documents the
// implementation and is never used (one that is not of its port's type is a note, see
// Factory.Notes), and a port element BehaviorTree.CPP does not define, such as Nav2's
// <bidirectional_port>, is a port of unknown direction and a note (btxml's
// Document.Notes), not an error.
//
// # Substitution rules
//
// Substitution rules replace nodes of a tree when it is built, as BehaviorTree.CPP's
// do: with another registered node type, or with a TestNode. They let a tree run
// without the real implementation of some of its nodes — to test it, or to dry-run a
// tree written for another program (a Nav2 navigation tree, say) and watch which
// branches it takes. Factory.Substitute, Factory.SubstituteTestNode and
// Factory.LoadSubstitutions (BehaviorTree.CPP's JSON file) add rules;
// Factory.SubstituteStandIns mocks every stand-in no rule replaces.
//
// A rule's filter matches a node when it equals the node's instance name or its type
// ID, or when it matches the node's full path (Node.Path, such as "nav/ComputePath::7")
// as a wildcard pattern, where '*' stands for any text ('/' included) and '?' for any
// one character. A pattern only matches nodes of the substitute's shape (a TestNode or
// an action replaces leaves, a decorator nodes with one child, a control nodes with
// children), so that "nav/*" mocks the leaves of a subtree and keeps its controls. The
// rules are tried in the order they were added (a JSON file's order) and the first
// that matches wins; adding a filter again replaces its rule in place.
//
// Rules are applied by Factory.NewTree, to every tree it builds, because paths exist
// only per instance (the same subtree has other paths under another SubTree name). The
// substitute keeps the node's ID, name, path, pre/post conditions and position; a
// substitute node type gets the node's port values (ports it does not declare are
// ignored), a TestNode its configuration. A rule that names a node with children (by
// its name, its ID or its exact path) may replace it by a TestNode or a leaf type,
// which mocks the whole branch: its children are dropped (BehaviorTree.CPP's tutorial
// 15 mocks its "counting" Sequence so). Otherwise a node with children is replaced by
// a type of its shape only, and a leaf never by a control or decorator. A SubTree
// node is replaced, by a TestNode or a leaf type, when a rule names it by its name (by
// default the ID of the tree it instantiates), by "SubTree" or by its exact path (a
// pattern passes over it, to the nodes inside): the subtree instance is dropped, and
// the tree it names need not exist.
//
// Node types that are not registered are accepted by Load only if a rule could match
// them, that is when the factory has a rule whose filter equals their name or ID, or a
// filter that is a path or pattern (holds '/', '*' or '?'): load the substitutions
// before the XML. Such a node that no rule replaces fails NewTree.
//
// # Watching a tree
//
// Tree.SubscribeBatch hands a function the status changes of each tick, in
// BehaviorTree.CPP's order, when the tick ends: four bytes per change (Change: the
// node's UID, its previous and new statuses) recorded as the tick goes, and a time
// from the tree's clock read once per tick. Tree.Subscribe calls a function for every
// change as it is made, which costs a call per change. Both cost nothing while nobody
// listens. Tree.SubscribeBatchWhen is SubscribeBatch for a subscriber that chooses, at
// each tick, whether it hears it — a tracer that drops most runs — and while nobody
// hears, the tree records nothing. The time of a change is when its tick began (or its Halt), not when the
// change was made: logs have one timestamp per tick, which is what makes observing a
// tree cheap enough to leave on. Tree.Ticks counts the ticks. Package btlog builds
// BehaviorTree.CPP's loggers on the batches — the console, .btlog files for Groot2,
// Chrome traces, per-node statistics — and writes any tree as XML with node UIDs,
// which Spec's accessors (Ports, CondScript, SubTreeID) and Tree.ID make possible.
//
// Node.SetPreTick and SetPostTick run a function before and after a node's tick that
// may replace its status without ticking it (BehaviorTree.CPP's pre- and post-tick
// functions): fault injection in tests, and the breakpoints of the Groot2 publisher
// (the module in the repository's groot2 folder). A node without them costs nothing
// more. Tree.Do runs a function on the ticking goroutine before the next tick, which is
// how another goroutine subscribes to, or sets tick functions on, a tree that ticks.
// Tree.OnAsyncStart decorates the context an async action's goroutine receives, which
// is how the btotel module (OpenTelemetry traces and metrics, a module of its own in the
// repository's btotel folder) nests the work's own spans under the node's.
//
// # Waking up
//
// Some nodes yield: they return Running and ask for a wake-up (Node.WakeUp) so that
// TickOnce ticks again at once — AsyncSequence and AsyncFallback after each child that
// completed synchronously, SequenceWithMemory likewise, Repeat and RetryUntilSuccessful
// between iterations. TickExactlyOnce ignores wake-ups, so each yield is visible. An
// async action wakes the tree when its goroutine finishes, and a timer (Delay, Timeout,
// Sleep, …) when it rings, cutting TickWhileRunning's sleep short. A wake-up asked for
// by a node that is halted before the tree acted on it is dropped: TickOnce re-ticks
// only for work that still wants it, so a node halted and restarted on every tick
// cannot keep it re-ticking.
//
// # Halting and stopping
//
// Tree.Halt halts every Running node — its Halt method, its children, its _onHalted
// script — and leaves every node of the tree Idle, as BehaviorTree.CPP's haltTree
// does. An async action's Halt cancels its context and waits for its goroutine;
// WithHaltTimeout bounds that wait, after which the goroutine is abandoned and Halt
// reports ErrAbandoned. Halting goes on whatever fails on the way (a Halt method, an
// _onHalted script, an observer that panics): every node is still halted, and the
// failures are returned together, each naming its node; a halt that a control makes
// during a tick stops the tick with them once its subtree is halted.
//
// A tree belongs to the goroutine that ticks it: Halt, like the tick methods, must be
// called from it. Another goroutine stops the tree with Tree.Stop, which cancels the
// async work at once and has the ticking goroutine halt the tree at the end of the tick
// under way, or else at its next tick (TickWhileRunning wakes up for it); that tick
// returns ErrStopped. A Stop ends exactly one run: the one under way when it is called
// (see Tree.Stop for what a run is), and the next run is not stopped.
//
// # Saving and restoring a running tree
//
// Tree.Snapshot saves a tree between two ticks, and Tree.Restore gives the state to a
// tree built from the same definition — in another process, after a crash, or from a
// saved game — which then ticks on as the saved tree would have:
//
//	snap, err := tree.Snapshot()
//	data, err := snap.MarshalJSON()      // for people to read; MarshalBinary is compact
//	…
//	saved, err := bt.ReadSnapshot(data)  // either encoding
//	err = fresh.Restore(saved)           // fresh: built from the same definition, idle
//
// A snapshot holds every node's status and what each builtin node keeps between ticks
// (the child a control resumes at, counters, latches, timers as the time they had
// left, the wake-ups the tree had not acted on), the blackboards of the tree and its
// subtrees with typed values, and the state of your nodes that implement StateSaver.
// Its encodings are versioned. Restore is all or nothing: it refuses, saying why and
// changing nothing, a snapshot of another definition (a fingerprint of every node,
// port and script), of a newer version, corrupt or cut short, and a call during a
// tick. Async work under way, whose goroutine does not come along, starts again;
// Snapshot.Restarts says which. "bt run --save FILE" and "--restore FILE" do the same
// from the command line.
//
// # Hot reload
//
// Tree.Reload replaces the definition under a running tree between two ticks — load
// the edited XML into a new Factory and reload from it — and keeps what the edit did
// not touch: a running action goes on running, a SequenceWithMemory keeps its place,
// the blackboards keep their entries, and the tree keeps its options (owner, clock,
// context, logger), its observers and subscribers, its monitor feed and Groot2
// publisher, which redraw the new structure (OnReload tells them; the ReloadReport
// says what was added, removed, changed and halted, and where each old node went).
// RequestReload asks for one from another goroutine; it happens at the start of the
// next tick, as a function given to Do would. "bt run --watch" reloads on each save.
//
// Which old node a new node takes the state of is decided by a key: the chain of steps
// from the root to the node, a step being the node's type (a SubTree's: the tree it
// instantiates), its name and its rank among its siblings of that type and name. A
// node keeps its state — its behavior and status, as they were — when an old node has
// its key, its definition is the same (type, ports, pre/post conditions, number of
// children: what Snapshot's fingerprint takes of it), its children have the old
// children's keys in the same order, and its parent kept its state. Every other node
// is new: the old nodes that do not carry over and were Running are halted, once,
// as Halt halts them (Halt methods, _onHalted scripts; observers see them go Idle),
// before the tree takes its new structure. The reasons:
//
//   - Keys, not UIDs or positions: a UID is a node's rank in the whole tree, which any
//     insertion above it changes, so an edit at the top would restart the bottom. A
//     name and a rank among like siblings survive the insertion of other siblings.
//   - A node moved to another parent is a removal and an addition: a node's state is
//     meaningful to its parent only (the child a Sequence resumes at, the results a
//     Parallel counted), and the parent it moves to has no such record of it.
//   - A control whose children changed starts afresh, and with it what runs under it:
//     its state indexes its children, and an index into another list of children is
//     a bug. Its siblings and parent keep theirs.
//   - A node whose ports changed is rebuilt: builtins bind their ports when built. So
//     is a node of yours, unless its behavior implements StateSaver: a leaf whose
//     parent kept its state then gets a new behavior given the old one's saved state
//     (SaveState, then RestoreState) and keeps its status — a Running one is not
//     halted (but for an async action with work under way, which is).
//
// The blackboards are kept as they are, entries, types and write counts: the root one,
// and each subtree instance's whose SubTree node kept its key, tree and remappings
// (and whose enclosing instance kept its blackboard); another instance gets a new
// one. A reload is all or nothing: the new tree is built aside first, and a definition
// that does not build leaves the old tree running, untouched, with every problem in
// the error at its file:line:col (the Factory's Load reports those of XML that does
// not load). Only the types its ports declare on blackboard entries that had none may
// stay. A node's SetPreTick and SetPostTick functions stay with the node only if it
// kept its state. An async action kept with its work under way asks for its wake-up
// by its old UID; where that UID is now another node's, the wake-up costs a tick.
//
// # Nodes from behaviac
//
// The decorators of Tencent's behaviac are here under their behaviac names, with
// behaviac's rules translated to BehaviorTree.CPP's top-down ticking. Each has the port
// decorate_when_child_ends (default false: the node's rule applies on every tick, also
// while the child runs; true: only when the child completes, the node running until
// then). A node that completes while its child still runs halts the child (behaviac
// leaves it running). None of them yields: one iteration is one tick. A node is entered
// — its count loaded, its deadline set — when it is ticked while not Running: after it
// completed, also when a parent such as WhileDoElse ticks it again before resetting it.
//
//	behaviac                  bt
//	Not                       Not: the same node as Inverter
//	Log                       Log message="…" level="info": to the tree's logger (WithLogger)
//	Loop                      Loop count="N": keeps the child going for N ticks (-1: forever)
//	Loop with DoneWithinFrame Loop count="N" in_one_tick="true": N iterations in one tick
//	Repeat (legacy)           Loop in_one_tick="true"
//	LoopUntil                 LoopUntil count="N" until="true": until the child succeeds (or fails)
//	Time                      Time msec="…": keeps the child going for a while (tree clock)
//	Frames                    Frames frames="N": keeps the child going for N ticks
//	CountLimit                CountLimit count="N" reset_if="script": N activations, then FAILURE
//	SuccessUntil              SuccessUntil count="N": N-1 successes, one failure, and again
//	FailureUntil              FailureUntil count="N": N-1 failures, one success, and again
//	AlwaysSuccess, AlwaysFailure, AlwaysRunning (decorators)
//	                          ForceSuccess, ForceFailure, ForceRunning; they let a running
//	                          child run, as behaviac's do with decorate_when_child_ends
//
// AlwaysSuccess, AlwaysFailure and AlwaysRunning are leaves in bt, as in
// BehaviorTree.CPP. behaviac's Weight and Iterator have no counterpart.
//
// These names are not BehaviorTree.CPP's, so a program ported from it may have node
// types of its own by them (a Log action, say): Register lets a node type take the ID
// of a builtin BehaviorTree.CPP lacks (the nodes above, and TestNode), which hides the
// builtin in that factory, with a note (Factory.Notes). BehaviorTree.CPP's own
// builtin IDs stay reserved, as there.
//
// # Errors
//
// A script that fails, a port that cannot be read, or a panic in a node's code stops the
// tick: the tick method returns a *NodeError naming the node (a panic's value and stack
// are in its *PanicError). Containing panics costs a tick one deferred recover and a
// call into a function leaf one store, whatever the number of nodes (see panic.go). WithRepanic lets panics through instead, also a panic in an
// async action's goroutine, which the tick that collects its result raises again in
// the ticking goroutine. The nodes a stopped tick was in the middle of are Running
// afterwards, and the next tick or Halt halts them, observed or not (see TickOnce).
// Nil or zero arguments (a nil function, a nil Model, a nil context) are reported as
// errors by NewTree, Register and the other functions that take them; they never panic.
//
// # The node lifecycle
//
// Every node goes through the same pipeline on each tick (see Node.Tick): pre-conditions
// (_failureIf, _successIf, _skipIf, _while), the node's behavior, the status store, and
// post-conditions (_onSuccess, _onFailure, _post). Skipped is returned to the parent but
// never stored: a skipped node stays Idle. Decorators reset a child that completed at
// once; controls reset their children when they themselves complete, fail, or are halted.
// Halting a Running node (Node.Halt, Tree.Halt) runs its Halt method, halts its children
// and then runs its _onHalted script.
//
// Observers (Tree.Subscribe) hear of every change in the order BehaviorTree.CPP 4.10
// makes them, so that logs and replays match the reference's line for line. Controls
// and most decorators go Running before their children change (those users write do
// when their Tick calls Node.MarkRunning first, as the reference's call
// setStatus(RUNNING)); a control resets its children before its own status changes; a
// builtin decorator or a SubTree whose child completed resets the child before its own
// change (the child of an Inverter goes back to Idle, then the Inverter goes from
// Running to Success), as the reference's builtin decorators reset the child inside
// their tick. SkipUnlessUpdated, WaitValueUpdate and the decorators users write leave
// the reset to the engine, which makes it right after their change, as the reference's
// DecoratorNode does. A control or decorator that went Running and then returned
// Skipped (an Inverter whose child was skipped, a Sequence whose children all were) is
// Idle at once, but observers hear of its RUNNING -> IDLE when the reference would
// reset it — when its parent resets it, when Repeat or RetryUntilSuccessful reset their
// skipped child, when the tree is halted — and hear nothing if it is ticked again and
// runs before that, since BehaviorTree.CPP never stores SKIPPED and leaves it RUNNING
// all along.
//
// # Differences from BehaviorTree.CPP
//
// bt follows BehaviorTree.CPP 4.10 wherever a tree's behaviour depends on it. Where the
// reference looks accidental, bt does the sensible thing:
//
//   - A node that returns Skipped is left (or put back) Idle, controls and decorators
//     included; BehaviorTree.CPP leaves one that went RUNNING before returning SKIPPED
//     (an Inverter whose child was skipped) marked RUNNING until its parent halts it,
//     and then runs its halt and its _onHalted script; bt does not halt a node that is
//     not running. Observers hear the reference's stream all the same (see The node
//     lifecycle). A leaf that returns Skipped while Running (an action's choice) stays
//     RUNNING there and resumes at its next tick, where bt starts it afresh, and
//     observers hear of its RUNNING -> IDLE at once.
//   - _onHalted runs once when a running node is halted, also when a whole tree is torn
//     down (BehaviorTree.CPP may run it twice then).
//   - Timeout halts its child, and fails, on the first tick after the deadline, in the
//     goroutine that ticks the tree, not from a timer thread. Delay and Timeout start
//     afresh after a skipped child (see their docs).
//   - SetBlackboard converts its text to the type of an entry that already has one,
//     such as an entry a script created, rather than emptying it.
//   - An entry that holds no value yet takes the type of its first write also when a
//     node's output port or SetBlackboard's copy writes it (BehaviorTree.CPP only lets
//     scripts do so, and throws otherwise); the value is converted to the port's type
//     when it can be, as BehaviorTree.CPP's Blackboard::set does.
//   - A number-like string assigned by a script to an entry holding an integer must be
//     integral, as a number would, and the entry stays an integer: k := 3; k = '12'
//     leaves the int 12, and then k = 2.5 is an error, as k = '12.5' is
//     (BehaviorTree.CPP makes k a double: 12.0, or 12.5).
//   - Switch2 … Switch6 compare a number with a case as numbers, and a boolean with
//     true/false: a script's true matches case "true" (BehaviorTree.CPP reads the
//     variable as the text of the double 1.0, "1.000000", which matches "1"), and
//     10/3 does not match "3.333333" (in the reference the text does).
//   - A port of type Kind reads "Action" … "SubTree"; another name is an error where
//     the reference's convertFromString<NodeType> gives UNDEFINED.
//   - UnsetBlackboard does not restart an entry's write count: a write after it counts
//     on, so WasEntryUpdated and the other update nodes see it (BehaviorTree.CPP
//     erases the entry, and the new one's count may equal the old one's).
//   - Scripts: && and || short-circuit; true and false are booleans (BehaviorTree.CPP
//     uses 1 and 0, and the two compare equal in bt too); .. writes numbers in their
//     shortest form ('d=' .. 2.5 is "d=2.5", not "d=2.500000"). Arithmetic is IEEE
//     double arithmetic as in BehaviorTree.CPP (1 / 0 is +Inf), and a condition's value
//     is cast to bool as there (0, 1, booleans, any real number; 2 or a string is an
//     error). Values of other types (a struct, a pointer) are copied and returned as
//     there, and also compare for == and != where Go can compare them (the reference
//     refuses to compare them). Package script lists the details.
//   - Sequence and Fallback store the status of a child that succeeded (failed, for
//     Fallback) when the control returns or a later child is skipped, not at once,
//     unless the tree has observers; ReactiveSequence and ReactiveFallback do not store
//     it at all, since they reset the child before they return. A node that reads an
//     earlier sibling's status during the same tick may find it still Idle. Between
//     ticks, and for observers, statuses are exactly BehaviorTree.CPP's.
//   - A pre- or post-tick function (Node.SetPreTick, SetPostTick) that replaces the
//     status of a node that was Running halts the node first (BehaviorTree.CPP leaves
//     its work running). A decorator stores its own status as it ticks, so when a
//     post-tick function replaces it, observers hear of both changes.
//   - After a tick that returned an error, the next tick or Halt first halts whatever
//     is Running and resets every node (BehaviorTree.CPP leaves the tree as the
//     exception left it).
//   - A literal count below -1 (Repeat's num_cycles, RetryUntilSuccessful's
//     num_attempts, and the counts of Loop, LoopUntil, CountLimit, SuccessUntil and
//     FailureUntil, whose only negative value is -1 for "no limit") is an error when
//     the tree is loaded; BehaviorTree.CPP accepts num_cycles="-5" and then does
//     nothing.
//   - Halting goes on when a node's halt fails and reports every failure;
//     BehaviorTree.CPP's haltTree stops at the first exception, leaving the rest of the
//     tree running. Like haltTree, Tree.Halt leaves every node Idle, but it calls Halt
//     methods and _onHalted scripts of Running nodes only.
//   - A wake-up from a node that was halted is dropped (BehaviorTree.CPP re-ticks for
//     it). A tree can be stopped from another goroutine (Stop), and an async action's
//     halt can be bounded (WithHaltTimeout); BehaviorTree.CPP has neither.
//   - Script expressions nest at most 500 levels deep; chains such as 1 + 1 + … are
//     not nesting and may be as long as the script (see package script).
//   - A port's default given as a Go value (InputPortDefault) is that value, a string
//     one included: InputPortDefault("p", "{x}", …) defaults to the text "{x}"
//     (BehaviorTree.CPP's InputPort<std::string>("p", "{x}", …) reads entry x); a
//     default to parse or an entry is WithDefault's.
//   - A running tree can be saved and restored (Tree.Snapshot, Tree.Restore);
//     BehaviorTree.CPP can back up and restore blackboards only (bt can too:
//     BlackboardBackup, BlackboardRestore).
//   - A running tree can take an edited definition between two ticks, keeping the
//     state of what the edit did not touch (Tree.Reload, "bt run --watch");
//     BehaviorTree.CPP must build a new tree (its issue 202 asks for hot reload).
//   - ImportTreeFromJSON matches the JSON's scopes to the tree's by name, and refuses,
//     importing nothing, a document whose names differ from the tree's scopes;
//     BehaviorTree.CPP matches them by position, taking the JSON's keys in sorted
//     order, so that a subtree's entries can land in another scope.
//   - An entry of type any stays of type any whatever writes it; BehaviorTree.CPP
//     types a BT::Any entry after the first write of a typed value from C++ (set<T>),
//     and leaves it untyped only for writes of BT::Any itself.
//   - Polymorphic ports need no registration (BehaviorTree.CPP's
//     registerPolymorphicCast): Go's interfaces say which types are assignable. Go has
//     no inheritance between concrete types, so an In[*Cat] does not read a *Sphynx
//     that embeds a Cat; declare the port as an interface both implement.
//   - Update takes a function (blackboard.Update, InOut.Update) where
//     getLockedPortContent returns a locked reference: the entry is held while the
//     function runs, so it cannot be left locked, and the function must not read or
//     write the entry itself.
//   - Tree.Print writes names only, as printTreeRecursively does; PrintStatus, which
//     the reference does not have, adds the statuses.
//   - A branch that a substitution rule mocks by a leaf has no children in bt; the
//     reference still creates them, unattached, so the nodes after the branch have
//     other UIDs there (higher by the number of children dropped). A pattern (with *
//     or ?) never replaces a SubTree node, only the nodes inside; the reference's
//     patterns match SubTree nodes too.
//   - Loading XML: two trees with one ID in one document are an error (the reference
//     keeps the last; loading the ID again in another document replaces it, as there);
//     an explicit tag that does not match the node's kind (<Action ID="ScriptCondition">)
//     is a note. Problems the document alone shows are found when it is loaded, where
//     the reference finds them when it creates a tree: two SubTrees of one tree with
//     the same name, and trees of the document that instantiate themselves (a cycle
//     through trees of several documents, and a missing subtree, are errors of NewTree,
//     as there). A ReactiveSequence's AsyncSequence children count in either XML form
//     (the reference's check stumbles on <Control ID="AsyncSequence">). The ports of a
//     <SubTree> entry of TreeNodesModel must start with a letter, as every port name
//     (the reference lets "_x" through there, a port no SubTree could then remap).
//     Blackboard keys are trimmed inside the braces too ("{ x }" is x), and "=" alone
//     means "{=}"; _autoremap takes Go's spellings of a bool ("t", "F"). Integer port
//     values are read as Go reads them, whole and with 0x for hex ("0x2" is 2; the
//     reference reads 0 and ignores the rest), and a SubTree's literal values as the
//     reference types them but for "+5" (a number here) and "inf" or "nan" (strings
//     here).
//
// (How the behaviac decorators differ from behaviac is under Nodes from behaviac.)
//
// # Performance
//
// A tick of a built tree allocates nothing and takes no lock, except to write new
// strings, slices or other values of your own types to the blackboard (a script that
// builds a string, a LoopInt … popping a slice entry), in a script that reads an entry
// of a type other than a number, a bool or a string (16 bytes for each read), and in
// the Log node, which writes a log record. Without observers a status change is a
// byte store, and a Sequence, Fallback or reactive control stores nothing for the
// children that passed and completed in the tick. An
// observed change is a byte store and a four-byte record in the tick's batch (see
// Watching a tree). Nodes are 32 bytes and their statuses live in one array in which
// siblings are contiguous, so a control resets its children by clearing bytes.
//
// The benchmarks of the repository measure ticking, loading and building against
// plain Go interface calls that keep no state and against BehaviorTree.CPP 4.10;
// bench/README.md gives the figures and how they were taken. In short: a node visit in
// a flat Sequence costs about what such an interface call costs, in a deep tree of
// Sequences and Fallbacks less than one and a half times that, and about a hundredth
// of BehaviorTree.CPP's; loading an XML file is an order of magnitude faster than
// BehaviorTree.CPP's; a built node takes under a hundred bytes of heap. With leaves
// written as Go functions, bt does less work per tick than the other Go
// behavior-tree libraries on every shape of the peers benchmark (bench/peers), and a
// 16-node agent tree with its blackboard takes less heap.
package bt
