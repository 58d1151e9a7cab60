package bt

// WaitValueUpdate waits until the blackboard entry named by "entry" is written, then
// ticks its child; as SkipUnlessUpdated, but it returns Running instead of Skipped. It
// does not yield: with TickOnce each call returns Running until the entry is written.
//
//	entry missing, or not written since the last look → Running
//	entry written since → tick the child; its status
//	child Running → Running; the next ticks go on with the child without looking again
//	halted        → halt the child; the next tick looks at the entry again
//
// XML:
//
//	<WaitValueUpdate entry="{battery_level}">
//	    <CheckBattery/>
//	</WaitValueUpdate>
func WaitValueUpdate(entry string, child *Spec) *Spec {
	return waitValueUpdateModel.Spec(child).With("entry", entry)
}

var waitValueUpdateModel = &Model{
	ID: "WaitValueUpdate", Kind: KindDecorator,
	Description: "Waits (RUNNING) until the entry is written, then ticks the child.",
	Ports:       []PortDef{entryPort()},
	build:       func(c *Init) (ticker, error) { return newEntryUpdated(c, Running) },
}
