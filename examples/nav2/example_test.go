package main

func Example() {
	if err := run(); err != nil {
		panic(err)
	}
	// Output:
	//   NavigateRecovery (RecoveryNode): RUNNING
	//   NavigateWithReplanning (PipelineSequence): RUNNING
	//   RateController (RateController): RUNNING
	//   Plan (RecoveryNode): RUNNING
	// ComputePathToPose: dock, hall, kitchen
	//   ComputePathToPose (ComputePathToPose): SUCCESS
	//   Plan (RecoveryNode): SUCCESS
	//   RateController (RateController): SUCCESS
	//   Follow (RecoveryNode): RUNNING
	// FollowPath: starting with controller FollowPath
	// FollowPath: at the dock
	//   FollowPath (FollowPath): RUNNING
	// FollowPath: at the hall
	// FollowPath: at the kitchen
	//   FollowPath (FollowPath): SUCCESS
	//   Follow (RecoveryNode): SUCCESS
	//   NavigateWithReplanning (PipelineSequence): SUCCESS
	//   NavigateRecovery (RecoveryNode): SUCCESS
	// SUCCESS
}
