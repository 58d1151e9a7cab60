package cli

import (
	"bytes"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gobt/bt"
	"github.com/gobt/bt/btxml"
)

// TestMainFunc runs Main itself (the golden cases run the command in a synctest
// bubble, without Main's signal handling).
func TestMainFunc(t *testing.T) {
	dir := t.TempDir()
	tree := filepath.Join(dir, "tree.xml")
	if err := os.WriteFile(tree, []byte(`<root BTCPP_format="4"><BehaviorTree ID="M"><Script code="x := 1"/></BehaviorTree></root>`), 0o666); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args       []string
		code       int
		out, inErr string
	}{
		{[]string{"run", tree}, 0, "tick 1 SUCCESS\nblackboard {\"x\":1}\n", ""},
		{[]string{"check", tree}, 0, "", ""},
		{[]string{"help"}, 0, "The commands are", ""},
		{[]string{"run"}, 2, "", "usage: bt run"},
		{nil, 2, "", "Usage:"},
	} {
		var out, errOut bytes.Buffer
		if code := Main(tc.args, &out, &errOut); code != tc.code || !strings.Contains(out.String(), tc.out) || !strings.Contains(errOut.String(), tc.inErr) {
			t.Errorf("bt %s: exit %d, stdout %q, stderr %q; want exit %d, %q, %q",
				strings.Join(tc.args, " "), code, out.String(), errOut.String(), tc.code, tc.out, tc.inErr)
		}
	}
}

// buildBT builds cmd/bt, once for the tests that run it, and returns its path.
func buildBT(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the command")
	}
	built.once.Do(func() {
		goCmd, err := exec.LookPath("go")
		if err != nil {
			built.err = err
			return
		}
		dir, err := os.MkdirTemp("", "bt-cli-test")
		if err != nil {
			built.err = err
			return
		}
		built.dir, built.bin = dir, filepath.Join(dir, "bt")
		build := exec.Command(goCmd, "build", "-o", built.bin, "./cmd/bt")
		build.Dir = moduleRoot
		if out, err := build.CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.bin
}

// built is the bt command buildBT built; TestMain removes it.
var built struct {
	once     sync.Once
	dir, bin string
	err      error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// moduleRoot is the module's root, relative to this package.
var moduleRoot = filepath.Join("..", "..")

// TestBuiltCommand builds cmd/bt and runs the README's first command with it, from
// the module's root.
func TestBuiltCommand(t *testing.T) {
	bin := buildBT(t)
	run := exec.Command(bin, "run", "examples/sniper/sniper.xml")
	run.Dir = moduleRoot
	out, err := run.Output()
	if err != nil {
		t.Fatalf("bt run: %v\n%s", err, out)
	}
	want := "tick 1 RUNNING\ntick 2 RUNNING\ntick 3 SUCCESS\nblackboard {\"distance\":0,\"hides_at\":0,\"shots\":1,\"tick\":3}\n"
	if string(out) != want {
		t.Errorf("bt run examples/sniper/sniper.xml:\n%s\nwant\n%s", out, want)
	}
	usage := exec.Command(bin, "run", "--ticks")
	if err := usage.Run(); err == nil || usage.ProcessState.ExitCode() != exitUsage {
		t.Errorf("bt run --ticks: %v, want exit status %d", err, exitUsage)
	}
}

// TestCatalogue checks that bt nodes lists every node type and that bt models
// --builtins writes them all, in a file that reads back.
func TestCatalogue(t *testing.T) {
	var nodes, models, errOut bytes.Buffer
	c := &cmd{ctx: t.Context(), stdout: &nodes, stderr: &errOut}
	if code := c.main([]string{"nodes"}); code != 0 {
		t.Fatalf("bt nodes: exit %d: %s", code, errOut.String())
	}
	c.stdout = &models
	if code := c.main([]string{"models", "--builtins"}); code != 0 {
		t.Fatalf("bt models --builtins: exit %d: %s", code, errOut.String())
	}
	doc, err := btxml.Parse("models.xml", models.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	all := bt.NewFactory().Models()
	if len(doc.Models) != len(all) {
		t.Errorf("bt models --builtins wrote %d models, the factory has %d", len(doc.Models), len(all))
	}
	for _, m := range all {
		if !strings.Contains(nodes.String(), "\n"+m.ID+" ("+m.Kind.String()+")\n") && !strings.HasPrefix(nodes.String(), m.ID+" (") {
			t.Errorf("bt nodes does not list %s", m.ID)
		}
		if doc.Model(m.ID) == nil {
			t.Errorf("bt models --builtins does not write %s", m.ID)
		}
	}
}

func TestLogHandler(t *testing.T) {
	var out bytes.Buffer
	l := slog.New(&logHandler{w: &out})
	l.Warn("careful", "node", "Guard/Log::3", "n", 1)
	l.With("robot", "r2").WithGroup("g").With("k", 1).Info("hello", "node", "N", "x", 2.5)
	l.Debug("hidden")
	want := "log WARN Guard/Log::3: careful n=1\n" +
		"log INFO hello robot=r2 g.k=1 g.node=N g.x=2.5\n"
	if out.String() != want {
		t.Errorf("got %q, want %q", out.String(), want)
	}
}
