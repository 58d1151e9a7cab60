package bt

import (
	"log/slog"
)

// Log ticks its child and writes message to the tree's logger (see WithLogger) at
// level (debug, info, warn or error; default info), with the node's path as attribute
// "node". It comes from behaviac.
//
//	every tick    → log message (with decorate_when_child_ends: only when the child
//	                is not Running), then return the child's status
//	child completed → reset the child
//	halted        → halt the child
//
// XML:
//
//	<Log message="patrolling" level="debug">
//	    <Patrol/>
//	</Log>
func Log(message string, child *Spec) *Spec { return logModel.Spec(child).With("message", message) }

var logModel = &Model{
	ID: "Log", Kind: KindDecorator,
	Description: "Writes message to the tree's logger and returns the child's status.",
	Ports: []PortDef{
		InputPort[string]("message", "the text to log").Require(),
		{Name: "level", Dir: DirInput, Type: typeOf[slog.Level](), TypeName: "std::string",
			Default: "info", HasDefault: true, Description: "debug, info, warn or error"},
		whenEndsPort(),
	},
	build: decorates(resetThenStore, func(c *NodeConfig) (decorator, error) {
		l := &logNode{}
		for _, err := range []error{l.message.bind(c, "message"), l.level.bind(c, "level"), l.whenEnds.bind(c)} {
			if err != nil {
				return l, err
			}
		}
		return l, nil
	}),
}

type logNode struct {
	message  In[string]
	level    In[slog.Level]
	whenEnds whenEnds
}

func (l *logNode) decorate(n *Node) Status {
	n.setRunning()
	s := n.Child(0).Tick()
	if !l.whenEnds.wait(n, s) {
		msg, level := l.message.mustGet(n), l.level.mustGet(n)
		t := n.Tree()
		t.Flush() // a log of the changes shows them before the message
		t.Logger().Log(t.Context(), level, msg, slog.String("node", n.Path()))
	}
	return s
}
