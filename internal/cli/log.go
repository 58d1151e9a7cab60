package cli

import (
	"context"
	"fmt"
	"io"
	"log/slog"

	"github.com/gobt/bt"
)

// logChanges prints every status change of tree as it happens, in the style of
// BehaviorTree.CPP's StdCoutLogger: "[0.012s] ApproachEnemy: IDLE -> RUNNING", with the
// time since the first tick and the node's path.
func (c *cmd) logChanges(tree *bt.Tree) {
	start := tree.Clock().Now()
	tree.Subscribe(func(ev bt.StatusChange) {
		fmt.Fprintf(c.stdout, "[%.3fs] %s: %s -> %s\n", ev.Time.Sub(start).Seconds(),
			ev.Node.Path(), c.paint(ev.Previous), c.paint(ev.Status))
	})
}

// paint colours a status name, on a terminal only, with StdCoutLogger's colours.
func (c *cmd) paint(s bt.Status) string {
	if !c.color {
		return s.String()
	}
	code := "36" // cyan: IDLE
	switch s {
	case bt.Running:
		code = "33" // yellow
	case bt.Success:
		code = "32" // green
	case bt.Failure:
		code = "31" // red
	case bt.Skipped:
		code = "34" // blue
	}
	return "\x1b[" + code + "m" + s.String() + "\x1b[0m"
}

// logHandler prints the records of the tree's logger — what Log nodes write — as
// "log <LEVEL> <node>: <message>", then the other attributes as key=value.
type logHandler struct {
	w     io.Writer
	level slog.Level
	attrs string // the attributes of WithAttrs, rendered
	group string // the prefix of WithGroup, "g." or ""
}

func (h *logHandler) Enabled(_ context.Context, l slog.Level) bool { return l >= h.level }

func (h *logHandler) Handle(_ context.Context, r slog.Record) error {
	var node string
	extra := []byte(h.attrs)
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "node" && h.group == "" && node == "" {
			node = " " + a.Value.String() + ":"
		} else {
			extra = fmt.Appendf(extra, " %s%s=%s", h.group, a.Key, a.Value)
		}
		return true
	})
	_, err := fmt.Fprintf(h.w, "log %s%s %s%s\n", r.Level, node, r.Message, extra)
	return err
}

func (h *logHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	h2 := *h
	for _, a := range attrs {
		h2.attrs += fmt.Sprintf(" %s%s=%s", h.group, a.Key, a.Value)
	}
	return &h2
}

func (h *logHandler) WithGroup(name string) slog.Handler {
	h2 := *h
	h2.group += name + "."
	return &h2
}
