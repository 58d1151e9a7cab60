package cli

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestREADMECommands runs every command of the README's shell blocks, as written, from
// the module's root with the built bt: each must succeed and print no error. A command
// that is not bt's must be one of the few the test knows to leave alone.
func TestREADMECommands(t *testing.T) {
	bin := buildBT(t)
	holdDefaultAddr(t)
	readme, err := os.ReadFile(filepath.Join(moduleRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	notRun := []string{"go test github.com/gobt/bt/...", "go get github.com/gobt/bt", // recursive, or the network
		"go work init", "go mod edit"} // Install: tried by TestInstallFromClone
	ran := 0
	for _, line := range shellLines(string(readme)) {
		args, ok := strings.CutPrefix(line, "bt ")
		if !ok {
			args, ok = strings.CutPrefix(line, "go run ./cmd/bt ")
		}
		if !ok {
			if !slices.ContainsFunc(notRun, func(p string) bool { return line == p || strings.HasPrefix(line, p+" ") }) {
				t.Errorf("README runs %q, which this test does not know", line)
			}
			continue
		}
		runExample(t, bin, moduleRoot, line, args)
		ran++
	}
	if ran < 10 {
		t.Errorf("ran %d commands of the README; the parsing lost some", ran)
	}
}

// TestREADMELinks: the README links only files of the repository, which exist.
func TestREADMELinks(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(moduleRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	// Code blocks hold no links, but Go code may look like one: bt.Owner[*Villager](n).
	prose := regexp.MustCompile("(?s)```.*?```").ReplaceAllString(string(readme), "")
	for _, m := range regexp.MustCompile(`\]\(([^)]*)\)`).FindAllStringSubmatch(prose, -1) {
		target := m[1]
		if strings.Contains(target, "://") || strings.HasPrefix(target, "..") || filepath.IsAbs(target) {
			t.Errorf("the README links %s, outside the repository", target)
			continue
		}
		if _, err := os.Stat(filepath.Join(moduleRoot, strings.SplitN(target, "#", 2)[0])); err != nil {
			t.Errorf("the README links %s: %v", target, err)
		}
	}
	for _, word := range []string{"../shared", "http://", "https://"} {
		if strings.Contains(string(readme), word) {
			t.Errorf("the README mentions %s, outside the repository", word)
		}
	}
}

// TestHelpExamples runs the examples of every command's --help from a directory that
// holds the repository's examples (files the examples write land there): each must
// succeed. What follows a pipe or a redirection is left out.
func TestHelpExamples(t *testing.T) {
	bin := buildBT(t)
	holdDefaultAddr(t)
	dir := t.TempDir()
	abs, err := filepath.Abs(filepath.Join(moduleRoot, "examples"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(abs, filepath.Join(dir, "examples")); err != nil {
		t.Fatal(err)
	}
	helps := map[string]help{"run": runHelp, "replay": replayHelp, "check": checkHelp, "nodes": nodesHelp,
		"models": modelsHelp, "graph": graphHelp, "convert": convertHelp, "view": viewHelp}
	for _, cm := range commands() {
		h, ok := helps[cm.name]
		if !ok {
			t.Errorf("no help of %s to test", cm.name)
			continue
		}
		for _, line := range strings.Split(strings.TrimSpace(h.example), "\n") {
			line = strings.TrimSpace(strings.FieldsFunc(line, func(r rune) bool { return r == '|' || r == '>' })[0])
			args, ok := strings.CutPrefix(line, "bt ")
			if !ok {
				t.Errorf("the help of %s shows %q, not a bt command", cm.name, line)
				continue
			}
			runExample(t, bin, dir, line, args)
		}
	}
}

// shellLines returns the command lines of the ```sh blocks of a Markdown text, without
// their comments.
func shellLines(md string) []string {
	var lines []string
	in := false
	for _, line := range strings.Split(md, "\n") {
		switch {
		case strings.HasPrefix(line, "```"):
			in = line == "```sh"
		case in:
			if i := strings.Index(line, " #"); i >= 0 {
				line = line[:i]
			}
			if line = strings.TrimSpace(line); line != "" {
				lines = append(lines, line)
			}
		}
	}
	return lines
}

// runExample runs bt with args (a command line without the program, whose globs it
// expands) in dir, and reports a failure or an "error" line.
func runExample(t *testing.T, bin, dir, line, args string) {
	t.Helper()
	var argv []string
	for _, a := range strings.Fields(args) {
		if strings.ContainsAny(a, "*?[") {
			matches, err := filepath.Glob(filepath.Join(dir, a))
			if err != nil || len(matches) == 0 {
				t.Errorf("%s: %s matches nothing", line, a)
			}
			for _, m := range matches {
				rel, _ := filepath.Rel(dir, m)
				argv = append(argv, rel)
			}
			continue
		}
		argv = append(argv, a)
	}
	if argv[0] == "view" || slices.Contains(argv, "--serve") {
		cmd := exec.Command(bin, onFreePort(argv)...)
		cmd.Dir = dir
		runServing(t, cmd, line)
		return
	}
	cmd := exec.Command(bin, argv...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		stderr := ""
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Errorf("%s: %v\n%s%s", line, err, out, stderr)
		return
	}
	if strings.HasPrefix(string(out), "error ") || strings.Contains(string(out), "\nerror ") {
		t.Errorf("%s printed an error:\n%s", line, out)
	}
}

// holdDefaultAddr listens on the monitor's default address while the test runs, when it
// can, so that the commands are seen to work when something else holds it.
func holdDefaultAddr(t *testing.T) {
	if ln, err := net.Listen("tcp", defaultAddr); err == nil {
		t.Cleanup(func() { ln.Close() })
	}
}

// onFreePort returns the arguments of a command that serves a page (bt view, bt run
// --serve) with a free port in place of the default address, which something else on
// the machine may hold (a monitor left open is enough).
func onFreePort(argv []string) []string {
	const free = "127.0.0.1:0"
	out := slices.Clone(argv)
	if i := slices.Index(out, "--serve"); i >= 0 && (i+1 == len(out) || !optionalValues["serve"](out[i+1])) {
		out[i] = "--serve=" + free
	}
	if out[0] == "view" && !slices.ContainsFunc(out, func(a string) bool { return a == "--serve" || strings.HasPrefix(a, "--serve=") }) {
		out = slices.Insert(out, 1, "--serve="+free)
	}
	return out
}

// runServing runs a command that serves a page until interrupted (bt view, bt run
// --serve), as a person does: it waits for the address the command prints, loads the
// page and the list of trees, waits for the run to be over (run), then interrupts the
// command, which must exit with status 0.
func runServing(t *testing.T, cmd *exec.Cmd, line string) {
	t.Helper()
	r, w := io.Pipe()
	cmd.Stdout, cmd.Stderr = w, w
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait(); w.Close() }()
	lines := bufio.NewScanner(r)
	url, printed := "", ""
	for url == "" && lines.Scan() {
		printed += lines.Text() + "\n"
		if _, after, ok := strings.Cut(lines.Text(), " at http://"); ok && strings.HasPrefix(lines.Text(), "bt: serving ") {
			url = "http://" + after
		}
	}
	if url == "" {
		t.Fatalf("%s (run as %s) printed no address:\n%s", line, strings.Join(cmd.Args[1:], " "), printed)
	}
	for _, path := range []string{"", "api/trees"} {
		resp, err := http.Get(url + path)
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || len(body) == 0 {
			t.Errorf("%s: GET %s: %s", line, url+path, resp.Status)
		}
	}
	if cmd.Args[1] == "run" {
		for lines.Scan() && !strings.HasPrefix(lines.Text(), "bt: the run is over") {
		}
	}
	go io.Copy(io.Discard, r)
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Errorf("%s, interrupted: %v", line, err)
	}
}

// TestInstallFromClone tries the README's two ways of using bt from a clone before the
// module is published — a workspace, a replace directive — as written there: a
// program of its own module, beside the clone, builds and runs with each, offline.
func TestInstallFromClone(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	readme, err := os.ReadFile(filepath.Join(moduleRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var ways []string
	for _, line := range shellLines(string(readme)) {
		if strings.HasPrefix(line, "go work init") || strings.HasPrefix(line, "go mod edit") {
			ways = append(ways, line)
		}
	}
	if len(ways) != 2 {
		t.Fatalf("the README's Install gives %d ways to use a clone, want 2: %q", len(ways), ways)
	}
	clone, err := filepath.Abs(moduleRoot)
	if err != nil {
		t.Fatal(err)
	}
	program := `package main

import (
	"fmt"

	"github.com/gobt/bt"
)

func main() {
	tree, err := bt.NewTree(bt.Sequence(bt.AlwaysSuccess()))
	if err != nil {
		panic(err)
	}
	fmt.Println(tree.TickOnce())
}
`
	for _, way := range ways {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(program), 0o666); err != nil {
			t.Fatal(err)
		}
		goCmd := func(args ...string) string {
			t.Helper()
			cmd := exec.Command("go", args...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "GOPROXY=off", "GOFLAGS=", "GOWORK=")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%s: go %s: %v\n%s", way, strings.Join(args, " "), err, out)
			}
			return string(out)
		}
		goCmd("mod", "init", "example.com/robot")
		goCmd(strings.Fields(strings.ReplaceAll(way, "../bt", clone))[1:]...)
		if out := goCmd("run", "."); out != "SUCCESS <nil>\n" {
			t.Errorf("%s: the program printed %q", way, out)
		}
	}
}
