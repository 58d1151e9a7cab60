package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// FuzzCommands feeds arbitrary files to the commands that read trees without running
// them, and to replay: they must not panic, and must exit with 0 or 1 (never a usage
// error).
func FuzzCommands(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.txt")
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		// The first input section of each golden case is a seed.
		if _, rest, ok := strings.Cut(string(data), ".xml --\n"); ok {
			seed, _, _ := strings.Cut(rest, "\n-- ")
			f.Add([]byte(seed))
		}
	}
	if rec, err := os.ReadFile(filepath.Join(moduleRoot, "examples", "sniper", "sniper.btlog")); err == nil {
		f.Add(rec)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		path := filepath.Join(dir, "t.xml")
		if err := os.WriteFile(path, data, 0o666); err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			fuzzCommands(t, path)
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			buf := make([]byte, 1<<20)
			t.Fatalf("hang on %q\n%s", data, buf[:runtime.Stack(buf, true)])
		}
	})
}

func fuzzCommands(t *testing.T, path string) {
	for _, args := range [][]string{
		{"check", path},
		{"check", "--models", path, path},
		{"graph", path},
		{"graph", "--format", "dot", path},
		{"graph", "--format", "mermaid", "--models", path, path},
		{"convert", path},
		{"models", "--models", path},
		{"nodes", "--models", path, "Sequence"},
		{"replay", "--stats", path},
	} {
		var out bytes.Buffer
		c := &cmd{ctx: context.Background(), stdout: &out, stderr: &out}
		if code := c.main(args); code != exitOK && code != exitError {
			t.Errorf("bt %s: exit %d\n%s", strings.Join(args, " "), code, out.String())
		}
	}
}
