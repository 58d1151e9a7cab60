package bt

import "slices"

// catalogueFile is a file that implements builtin nodes, and their models.
type catalogueFile struct {
	file   string
	models []*Model
}

// catalogue is the table of the builtin nodes: from each file that implements some to
// their Models, which hold the XML IDs, the ports and, in their build functions, the
// implementations. NewFactory registers every model of it, WriteModels exports them
// (withBuiltins), and the catalogue tests check it against BehaviorTree.CPP's models,
// against a tree that uses every node (testdata/catalogue.xml) and against the files
// it names.
//
// A node whose implementation is its own lives in the file named after its XML ID
// (RetryUntilSuccessful: retry_until_successful.go); nodes that share one
// implementation live in one file named after the family; behaviac's nodes carry the
// prefix behaviac_ (behaviac_loop.go), and Script, whose name is the engine's
// scripting's too, lives in script_node.go (README.md, Working on bt).
// It is never modified.
var catalogue = [...]catalogueFile{
	// Controls (BehaviorTree.CPP)
	{"sequence.go", []*Model{sequenceModel, fallbackModel, asyncSequenceModel, asyncFallbackModel,
		sequenceWithMemoryModel, sequenceStarModel}},
	{"reactive.go", []*Model{reactiveSequenceModel, reactiveFallbackModel}},
	{"parallel.go", []*Model{parallelModel}},
	{"parallel_all.go", []*Model{parallelAllModel}},
	{"if_then_else.go", []*Model{ifThenElseModel}},
	{"while_do_else.go", []*Model{whileDoElseModel}},
	{"try_catch.go", []*Model{tryCatchModel}},
	{"switch.go", switchModels[:]},

	// Decorators (BehaviorTree.CPP; Not and ForceRunning from behaviac)
	{"mapper.go", []*Model{inverterModel, notModel, forceSuccessModel, forceFailureModel,
		forceRunningModel, keepRunningModel}},
	{"repeat.go", []*Model{repeatModel}},
	{"retry_until_successful.go", []*Model{retryModel}},
	{"timeout.go", []*Model{timeoutModel}},
	{"delay.go", []*Model{delayModel}},
	{"run_once.go", []*Model{runOnceModel}},
	{"precondition.go", []*Model{preconditionModel}},
	{"entry_updated.go", []*Model{skipUnlessUpdatedModel, waitValueUpdateModel, wasEntryUpdatedModel}},
	{"loop_queue.go", []*Model{loopIntModel, loopDoubleModel, loopStringModel, loopBoolModel}},
	{"sub_tree.go", []*Model{subTreeModel}},

	// Actions and conditions (BehaviorTree.CPP; AlwaysRunning from behaviac)
	{"always.go", []*Model{alwaysSuccessModel, alwaysFailureModel, alwaysRunningModel}},
	{"script_node.go", []*Model{scriptModel}},
	{"script_condition.go", []*Model{scriptConditionModel}},
	{"set_blackboard.go", []*Model{setBlackboardModel}},
	{"unset_blackboard.go", []*Model{unsetBlackboardModel}},
	{"sleep.go", []*Model{sleepModel}},
	{"test_node.go", []*Model{testNodeModel}},

	// The decorators of behaviac (what they share is in behaviac.go)
	{"behaviac_log.go", []*Model{logModel}},
	{"behaviac_loop.go", []*Model{loopModel}},
	{"behaviac_loop_until.go", []*Model{loopUntilModel}},
	{"behaviac_time.go", []*Model{timeModel}},
	{"behaviac_frames.go", []*Model{framesModel}},
	{"behaviac_count_limit.go", []*Model{countLimitModel}},
	{"behaviac_until.go", []*Model{successUntilModel, failureUntilModel}},
}

// hidable lists the builtin IDs that BehaviorTree.CPP does not have: behaviac's
// decorators and the few nodes bt adds. A program migrating from BehaviorTree.CPP may
// have node types of its own by these names, so Register lets a user's type take one
// (the builtin is then hidden, with a note); BehaviorTree.CPP's own builtin IDs stay
// reserved, as they are there. A test keeps the list true against the reference's
// models.
var hidable = map[string]bool{
	"Not": true, "ForceRunning": true, "AlwaysRunning": true, "TestNode": true,
	"Log": true, "Loop": true, "LoopUntil": true, "Time": true, "Frames": true,
	"CountLimit": true, "SuccessUntil": true, "FailureUntil": true,
}

// hides reports whether a node type registered as m.ID would hide the builtin old (and
// may): old is a builtin BehaviorTree.CPP does not have, not yet hidden.
func hides(m, old *Model) bool {
	return hidable[m.ID] && isBuiltin(old)
}

// isBuiltin reports whether m is the model of a builtin node.
func isBuiltin(m *Model) bool {
	for _, c := range catalogue {
		if slices.Contains(c.models, m) {
			return true
		}
	}
	return false
}
