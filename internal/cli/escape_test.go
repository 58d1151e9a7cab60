package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Item 10 of issue 24: what a command prints from a file goes to the terminal with the
// characters a terminal acts on escaped: a snapshot's restart list (bt run --restore
// echoed it as it was), node names, values, paths that a snapshot names.
func TestEscapesWhatFilesSay(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
		return path
	}
	// XML holds no C0 control, but C1 ones (U+009B is CSI) and the bidi overrides.
	tree := write("tree.xml", `<root BTCPP_format="4"><BehaviorTree ID="M">
		<Sequence name="s&#x9b;2J">
			<Log message="{m}"><AlwaysSuccess name="a&#x202e;b"/></Log>
			<KeepRunningUntilFailure><AlwaysSuccess/></KeepRunningUntilFailure>
		</Sequence>
	</BehaviorTree></root>`)
	run := func(args ...string) (string, string) {
		var out, errOut bytes.Buffer
		c := &cmd{ctx: context.Background(), stdout: &out, stderr: &errOut}
		c.main(args)
		return out.String(), errOut.String()
	}
	snap := filepath.Join(dir, "snap.json")
	if out, errOut := run("run", "--ticks", "1", "--set", "m=x", "--save", snap, tree); !strings.Contains(out, "tick 1 RUNNING") {
		t.Fatalf("bt run --save: %s%s", out, errOut)
	}
	data, err := os.ReadFile(snap)
	if err != nil {
		t.Fatal(err)
	}
	withRestart := write("restart.json", strings.Replace(string(data), `"state": [`, `"restart": ["Wait\u001b]0;owned\u0007"], "state": [`, 1))
	withPath := write("path.json", strings.Replace(string(data), `"path": "s`, `"path": "\u001b[2Js`, 1))
	values := write("values.json", `{"m": "bell\u0007 \u001b[31mred"}`)
	btl := filepath.Join(dir, "run.btlog")
	if out, errOut := run("run", "--ticks", "1", "--set", "m=x", "--btlog", btl, tree); !strings.Contains(out, "tick 1 RUNNING") {
		t.Fatalf("bt run --btlog: %s%s", out, errOut)
	}
	models := write("models.xml", `<root BTCPP_format="4"><TreeNodesModel>
		<Action ID="Mine"><description>moves &#x9b;1A</description></Action>
	</TreeNodesModel></root>`)

	for _, c := range []struct {
		name string
		args []string
		want string // in stdout or stderr
	}{
		{"a snapshot's restart list", []string{"run", "--ticks", "1", "--restore", withRestart, tree}, `these nodes start again: "Wait\x1b]0;owned\a"`},
		{"a snapshot's node path", []string{"run", "--restore", withPath, tree}, `not \u001b[2Js\u009b2J`},
		{"node names and Log messages", []string{"run", "--ticks", "1", "--log", "--blackboard", values, tree}, `log INFO Log::2: bell\u0007 \u001b[31mred`},
		{"the tree drawn", []string{"graph", "--format", "text", tree}, `s\u009b2J`},
		{"a .btlog replayed", []string{"replay", btl}, `s\u009b2J`},
		{"models described", []string{"nodes", "--models", models, "Mine"}, `Mine (Action)` + "\n" + `    moves \u009b1A`},
	} {
		out, errOut := run(c.args...)
		all := out + errOut
		if !strings.Contains(all, c.want) {
			t.Errorf("%s: want %s in\n%s", c.name, c.want, all)
		}
		if i := strings.IndexFunc(all, func(r rune) bool { return needsEscape(r, 1) }); i >= 0 {
			t.Errorf("%s: %q printed as it is:\n%q", c.name, all[i:min(i+10, len(all))], all)
		}
	}
}

// printable escapes what a terminal acts on, and leaves ordinary text as it is.
func TestPrintable(t *testing.T) {
	for in, want := range map[string]string{
		"Sequence::1 → fertig, 完了":  "Sequence::1 → fertig, 完了",
		"tab\tand\nnewline":         "tab\tand\nnewline",
		"\x1b[2J\r\x7f":             `\u001b[2J\u000d\u007f`,
		"c1 \u009b and bidi \u202e": `c1 \u009b and bidi \u202e`,
		"not UTF-8: \xff\xfe":       `not UTF-8: \xff\xfe`,
		"\ufffd is a character":     "\ufffd is a character",
	} {
		if got := printable(in); got != want {
			t.Errorf("printable(%q) = %q, want %q", in, got, want)
		}
	}
}

// The escaper lets the console's colours through on a terminal, and waits for the
// rest of a character or colour that a write cut.
func TestEscaperColorsAndCuts(t *testing.T) {
	var out bytes.Buffer
	e := &escaper{w: &out, color: true}
	in := "\x1b[32mok\x1b[0m \x1b]0;title\a é\x1b[8mX\x1b[1;31mX\x1b[3"
	for i := range len(in) { // a byte a write
		e.Write([]byte{in[i]})
	}
	e.flush()
	if want := "\x1b[32mok\x1b[0m \\u001b]0;title\\u0007 é\\u001b[8mX\\u001b[1;31mX\\u001b[3"; out.String() != want {
		t.Errorf("got %q, want %q", out.String(), want)
	}
}
