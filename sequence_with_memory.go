package bt

// SequenceWithMemory is a Sequence that does not start over after a failure: the next
// activation ticks the child that failed, skipping the ones that already succeeded.
//
//	child Success → next child; when it was Idle before this tick and more children are
//	                left, yield (Running with a wake-up), like AsyncSequence
//	child Skipped → next child (counted as skipped)
//	child Running → Running; resume at this child
//	child Failure → halt this child and the ones after it; Failure; the next
//	                activation resumes at this child
//	all done      → reset the children; Skipped if every child was skipped, else Success
//	halted        → halt the children but keep the position (BehaviorTree.CPP does the same)
//
// SequenceStar is its name in BehaviorTree.CPP 3 files. XML:
//
//	<SequenceWithMemory>
//	    <GoTo goal="A"/>
//	    <GoTo goal="B"/>
//	</SequenceWithMemory>
func SequenceWithMemory(children ...*Spec) *Spec { return sequenceWithMemoryModel.Spec(children...) }

var sequenceWithMemoryModel = &Model{
	ID: "SequenceWithMemory", Kind: KindControl,
	Description: "A Sequence that resumes at the failed child instead of restarting.",
	build:       newSequenceWithMemory,
}

// sequenceStarModel is SequenceWithMemory under its BehaviorTree.CPP 3 name.
var sequenceStarModel = &Model{
	ID: "SequenceStar", Kind: KindControl,
	Description: "The BehaviorTree.CPP 3 name of SequenceWithMemory.",
	build:       newSequenceWithMemory,
}

func newSequenceWithMemory(c *Init) (ticker, error) {
	return newYielding(c, Failure, true), nil
}
