package bt

// catalogueModels lists the builtin nodes other than the controls and the scripting
// nodes: the decorators and actions of BehaviorTree.CPP 4.10 and behaviac (DESIGN.md
// §4), and TestNode.
func catalogueModels() []*Model {
	return []*Model{
		// BehaviorTree.CPP decorators
		inverterModel, forceSuccessModel, forceFailureModel, repeatModel, retryModel,
		keepRunningModel, timeoutModel, delayModel, runOnceModel,
		loopIntModel, loopDoubleModel, loopStringModel, loopBoolModel,
		skipUnlessUpdatedModel, waitValueUpdateModel,
		// BehaviorTree.CPP actions
		setBlackboardModel, unsetBlackboardModel, sleepModel, wasEntryUpdatedModel,
		// behaviac and the Rust behaviortree crate
		notModel, logModel, loopModel, loopUntilModel, timeModel, framesModel,
		countLimitModel, successUntilModel, failureUntilModel, forceRunningModel,
		alwaysRunningModel,
		// mocks
		testNodeModel,
	}
}
