package bt

// WasEntryUpdated is an action that tells whether the blackboard entry named by
// "entry" was written since this node last looked (the first look counts as an update
// if the entry was ever written). entry is a key, written "key" or "{key}".
//
//	entry written since the last look → Success
//	entry not written since, or missing → Failure
//
// XML:
//
//	<WasEntryUpdated entry="{target}"/>
func WasEntryUpdated(entry string) *Spec { return wasEntryUpdatedModel.Spec().With("entry", entry) }

var wasEntryUpdatedModel = &Model{
	ID: "WasEntryUpdated", Kind: KindAction,
	Description: "Succeeds if the entry was written since this node last looked, else fails.",
	Ports:       []PortDef{entryPort()},
	build: func(c *Init) (ticker, error) {
		e, err := watched(c)
		return &wasUpdated{seen{entry: e}}, err
	},
}

type wasUpdated struct{ seen }

func (w *wasUpdated) tick(*Node) Status { return statusOf(w.updated()) }
