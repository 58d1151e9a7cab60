package bt_test

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/blackboard"
	"github.com/gobt/bt/bttest"
)

func TestLog(t *testing.T) {
	var buf bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{
		Level: slog.LevelDebug,
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		},
	}))
	took := func(want string) func(t *testing.T, tree *Tree) {
		return func(t *testing.T, tree *Tree) {
			t.Helper()
			if got := strings.TrimSpace(buf.String()); got != want {
				t.Errorf("log:\n%s\nwant:\n%s", got, want)
			}
			buf.Reset()
		}
	}
	bttest.Run(t, []bttest.Case{
		{Name: "logs every tick, returns the child's status", Options: []Option{WithLogger(logger)}, Tree: func(r *bttest.Recorder) *Spec {
			return Log("hello", r.Leaf("A", "R F")).Named("greeter")
		}, Steps: []bttest.Step{
			bttest.Tick(Running, "A:R", "R R").Then(took(`level=INFO msg=hello node=greeter`)),
			bttest.Tick(Failure, "A:F", "I I").Then(took(`level=INFO msg=hello node=greeter`)),
		}},
		{Name: "level; decorate_when_child_ends logs when the child ends", Options: []Option{WithLogger(logger)}, Tree: func(r *bttest.Recorder) *Spec {
			return whenEndsOn(Log("{msg}", r.Leaf("A", "R S K")).With("level", "warn"))
		}, Steps: []bttest.Step{
			bttest.Tick(Running, "A:R", "R R").First(bttest.Assign("msg", blackboard.String("careful"))).Then(took(``)),
			bttest.Tick(Success, "A:S", "I I").Then(took(`level=WARN msg=careful node=Log::1`)),
			bttest.Tick(Skipped, "A:K", "I I").Then(took(`level=WARN msg=careful node=Log::1`)),
		}},
	})
	tickError(t, builtin("Log").Spec(AlwaysSuccess()), `Log needs the port "message": set it with With("message", …)`)
	if _, err := NewTree(Log("x", AlwaysSuccess()).With("level", "loud")); err == nil {
		t.Error("a bad level was accepted")
	}
	if got := (&Tree{}).Logger(); got != slog.Default() {
		t.Error("the default logger is not slog.Default()")
	}
}
