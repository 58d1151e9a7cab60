package script

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestStepsGenIsCurrent checks that steps_gen.go is what gen_steps.go writes: run
// go generate after changing the templates.
func TestStepsGenIsCurrent(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to run gen_steps.go: %v", err)
	}
	out := filepath.Join(t.TempDir(), "steps_gen.go")
	if msg, err := exec.Command(goTool, "run", "gen_steps.go", "-o", out).CombinedOutput(); err != nil {
		t.Fatalf("go run gen_steps.go: %v\n%s", err, msg)
	}
	want, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("steps_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("steps_gen.go is not what gen_steps.go writes: run go generate ./script")
	}
}
