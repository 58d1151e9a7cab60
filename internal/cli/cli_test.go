package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
)

var update = flag.Bool("update", false, "rewrite the expected outputs of testdata/*.txt")

// A golden case is a file of testdata/: a header, then sections "-- name --".
//
//	# what the case checks
//	terminal                 (optional: stdout is a terminal, so --log is coloured)
//	busy                     (optional: the monitor's default address is in use; BUSY
//	                         in the command line and the outputs stands for it)
//	bt run --ticks 3 tree.xml
//	-- tree.xml --           input files, written to a temporary directory, which is
//	<root …>                 the working directory of the command
//	-- stdout --             what the command prints, and its exit status
//	-- stderr --
//	-- exit --
//	0
//	-- > out.xml --          files the command must have written ("(not written)": not)
//
// The command runs in a synctest bubble: time is virtual, so --interval and --log
// timestamps are exact. go test -update rewrites the expected sections.
type goldenCase struct {
	header   []string // the lines before the first section
	args     []string
	terminal bool
	busy     bool
	inputs   []section
	outputs  map[string]string // stdout, stderr, exit and "> file" sections
}

type section struct{ name, body string }

func parseCase(t *testing.T, file string) *goldenCase {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	c := &goldenCase{outputs: map[string]string{}}
	var cur *section
	var sections []section
	for _, line := range strings.SplitAfter(string(data), "\n") {
		if name, ok := sectionName(line); ok {
			sections = append(sections, section{name: name})
			cur = &sections[len(sections)-1]
			continue
		}
		if cur != nil {
			cur.body += line
			continue
		}
		if line == "" {
			continue
		}
		c.header = append(c.header, strings.TrimSuffix(line, "\n"))
		switch text := strings.TrimSpace(line); {
		case strings.HasPrefix(text, "#"), text == "":
		case text == "terminal":
			c.terminal = true
		case text == "busy":
			c.busy = true
		case strings.HasPrefix(text, "bt "), text == "bt":
			c.args = splitArgs(text)[1:]
		default:
			t.Fatalf("%s: unexpected header line %q", file, text)
		}
	}
	for _, s := range sections {
		switch {
		case s.name == "stdout", s.name == "stderr", s.name == "exit", strings.HasPrefix(s.name, "> "):
			c.outputs[s.name] = s.body
		default:
			c.inputs = append(c.inputs, s)
		}
	}
	return c
}

func sectionName(line string) (string, bool) {
	line = strings.TrimSuffix(line, "\n")
	if strings.HasPrefix(line, "-- ") && strings.HasSuffix(line, " --") && len(line) > 6 {
		return line[3 : len(line)-3], true
	}
	return "", false
}

// splitArgs splits a command line at spaces; single quotes group words.
func splitArgs(s string) []string {
	var args []string
	var cur strings.Builder
	in, quoted := false, false
	for _, r := range s {
		switch {
		case r == '\'':
			quoted, in = !quoted, true
		case r == ' ' && !quoted:
			if in {
				args = append(args, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if in {
		args = append(args, cur.String())
	}
	return args
}

func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden cases: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txt"), func(t *testing.T) {
			runGolden(t, file)
		})
	}
}

func runGolden(t *testing.T, file string) {
	abs, err := filepath.Abs(file)
	if err != nil {
		t.Fatal(err)
	}
	c := parseCase(t, abs)
	if c.args == nil {
		t.Fatalf("%s: no command line", file)
	}
	dir := t.TempDir()
	for _, in := range c.inputs {
		path := filepath.Join(dir, filepath.FromSlash(in.name))
		if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(in.body), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	var code int
	args, busy := c.args, ""
	if c.busy {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		busy = ln.Addr().String()
		args = nil
		for _, a := range c.args {
			args = append(args, strings.ReplaceAll(a, "BUSY", busy))
		}
	}
	synctest.Test(t, func(t *testing.T) {
		cm := &cmd{ctx: context.Background(), stdout: &stdout, stderr: &stderr, color: c.terminal, pid: 1, defaultAddr: busy}
		code = cm.main(args)
	})
	unbusy := func(s string) string {
		if busy == "" {
			return s
		}
		return strings.ReplaceAll(s, busy, "BUSY")
	}
	got := map[string]string{
		"stdout": lines(unbusy(stdout.String())),
		"stderr": lines(unbusy(stderr.String())),
		"exit":   strconv.Itoa(code) + "\n",
	}
	for name := range c.outputs {
		if out, ok := strings.CutPrefix(name, "> "); ok {
			data, err := os.ReadFile(filepath.Join(dir, out))
			switch {
			case errors.Is(err, fs.ErrNotExist):
				data = []byte("(not written)\n")
			case err != nil:
				data = []byte(fmt.Sprintf("(not read: %v)\n", err))
			}
			got[name] = lines(string(data))
		}
	}
	if *update {
		writeCase(t, abs, c, got)
		return
	}
	for _, name := range []string{"stdout", "stderr", "exit"} {
		if got[name] != c.outputs[name] {
			t.Errorf("%s: %s differs\n--- got\n%s--- want\n%s", file, name, got[name], c.outputs[name])
		}
	}
	for name, want := range c.outputs {
		if strings.HasPrefix(name, "> ") && got[name] != want {
			t.Errorf("%s: file %s differs\n--- got\n%s--- want\n%s", file, name[2:], got[name], want)
		}
	}
}

// lines marks text that does not end with a newline, as diff does, so that every
// section ends with one.
func lines(s string) string {
	if s != "" && !strings.HasSuffix(s, "\n") {
		s += "\n\\ no newline at end\n"
	}
	return s
}

func writeCase(t *testing.T, file string, c *goldenCase, got map[string]string) {
	var b strings.Builder
	for _, h := range c.header {
		b.WriteString(h + "\n")
	}
	section := func(name, body string) {
		fmt.Fprintf(&b, "-- %s --\n%s", name, body)
	}
	for _, in := range c.inputs {
		section(in.name, in.body)
	}
	for _, name := range []string{"stdout", "stderr", "exit"} {
		section(name, got[name])
	}
	var files []string
	for name := range c.outputs {
		if strings.HasPrefix(name, "> ") {
			files = append(files, name)
		}
	}
	slices.Sort(files)
	for _, name := range files {
		section(name, got[name])
	}
	if err := os.WriteFile(file, []byte(b.String()), 0o666); err != nil {
		t.Fatal(err)
	}
}

// failingWriter fails every write, as a full disk does.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestOutputErrors: a command whose output cannot be written fails, and says why.
func TestOutputErrors(t *testing.T) {
	for _, args := range [][]string{
		{"convert", "../../examples/nav2/navigate_v3.xml"},
		{"graph", "../../examples/sniper/sniper.xml"},
		{"nodes"},
		{"run", "../../examples/sniper/sniper.xml"},
	} {
		var errOut bytes.Buffer
		code := Main(args, failingWriter{}, &errOut)
		if code != exitError || !strings.Contains(errOut.String(), "bt: writing the output: no space left on device") {
			t.Errorf("bt %s: exit %d, stderr:\n%s", strings.Join(args, " "), code, errOut.String())
		}
	}
}

// TestRunRefusesSameFiles: bt run does not write its state over the tree it runs, nor
// two logs into one file.
func TestRunRefusesSameFiles(t *testing.T) {
	dir := t.TempDir()
	tree := filepath.Join(dir, "t.xml")
	xml := []byte(`<root BTCPP_format="4"><BehaviorTree ID="M"><AlwaysSuccess/></BehaviorTree></root>`)
	if err := os.WriteFile(tree, xml, 0o666); err != nil {
		t.Fatal(err)
	}
	logs := filepath.Join(dir, "logs.json")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--save", tree}, "--save and FILE.xml name the same file"},
		{[]string{"--save", filepath.Join(dir, ".", "t.xml")}, "--save and FILE.xml name the same file"},
		{[]string{"--trace", logs, "--jsonl", logs}, "--jsonl and --trace name the same file"},
	} {
		_, errOut, code := runBT(t, append(append([]string{"run"}, c.args...), tree)...)
		if code != exitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr:\n%s\nwant exit 2 and %q", c.args, code, errOut, c.want)
		}
	}
	if data, err := os.ReadFile(tree); err != nil || !bytes.Equal(data, xml) {
		t.Errorf("the tree's file changed: %q %v", data, err)
	}
}

// TestRunNoTree: a file without trees says so.
func TestRunNoTree(t *testing.T) {
	tree := filepath.Join(t.TempDir(), "none.xml")
	if err := os.WriteFile(tree, []byte(`<root BTCPP_format="4"/>`), 0o666); err != nil {
		t.Fatal(err)
	}
	out, _, code := runBT(t, "run", tree)
	if code != exitError || !strings.Contains(out, "the file defines no tree") {
		t.Errorf("exit %d, output:\n%s", code, out)
	}
}
