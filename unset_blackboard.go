package bt

// UnsetBlackboard is an action that removes the entry named key from the node's own
// blackboard scope (the main tree's, or its subtree's: remapping is not followed). Key
// is the key itself; "{k}" means: the key is the text stored in entry k.
//
//	entry present → remove it; Success
//	entry absent  → Success
//
// Removing is not a write: WasEntryUpdated does not see it. XML:
//
//	<UnsetBlackboard key="target"/>
func UnsetBlackboard(key string) *Spec { return unsetBlackboardModel.Spec().With("key", key) }

var unsetBlackboardModel = &Model{
	ID: "UnsetBlackboard", Kind: KindAction,
	Description: "Removes an entry from the blackboard; succeeds even if it was absent.",
	Ports:       []PortDef{InputPort[string]("key", "the name of the entry to remove").Require()},
	build: func(c *NodeConfig) (ticker, error) {
		u := &unsetBlackboard{}
		return u, u.key.bind(c, "key")
	},
}

type unsetBlackboard struct{ key In[string] }

func (u *unsetBlackboard) tick(n *Node) Status {
	key := u.key.mustGet(n)
	n.Blackboard().Unset(key)
	return Success
}
