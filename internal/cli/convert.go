package cli

import (
	"bytes"
	"fmt"
	"os"

	"github.com/gobt/bt/btxml"
)

var convertHelp = help{
	usage: "bt convert [flags] FILE.xml",
	text: `Convert upgrades a BehaviorTree.CPP format-3 file (an older Nav2 tree, say) to format 4
and writes it in canonical form, to stdout or to --output: SequenceStar becomes
SequenceWithMemory, SubTree remappings become {key} ports, <remap> and
__shared_blackboard become attributes, Parallel's thresholds are renamed, and so on.
What cannot be converted faithfully is reported on stderr as "file:line:col: note",
and the conversion still succeeds. A file already in format 4 comes out unchanged
apart from the layout. Comments stay where they were (above a node, after it on its
line, at the end of its children); blank lines and the XML declaration do not.

Only FILE is converted: its <include> elements are kept as written, so convert the
included files too. Node types are not checked (see "bt check").
`,
	example: `bt convert --to 4 examples/nav2/navigate_v3.xml > navigate.xml
bt convert --to 4 -o navigate.xml examples/nav2/navigate_v3.xml`,
}

// convert implements "bt convert".
func (c *cmd) convert(args []string) int {
	fs := flags("convert")
	to := fs.Int("to", 4, "the format to write (`4`, the only one)")
	var out string
	fs.StringVar(&out, "output", "", "write to `OUT.xml` instead of stdout")
	fs.StringVar(&out, "o", "", "short for --output")
	files, code, ok := c.parse(fs, convertHelp, args)
	switch {
	case !ok:
		return code
	case *to != 4:
		return c.usageError(convertHelp, "--to %d: bt converts to format 4 only", *to)
	case len(files) != 1:
		return c.usageError(convertHelp, "convert needs one FILE.xml, got %d arguments", len(files))
	}
	path := files[0]
	data, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintf(c.stderr, "bt: %v\n", err)
		return exitError
	}
	doc, err := btxml.Parse(path, data)
	if err != nil {
		c.fail(err)
		return exitError
	}
	for _, n := range btxml.Upgrade(doc) {
		fmt.Fprintf(c.stderr, "%s: note: %s\n", n.Pos, n.Msg)
	}
	var buf bytes.Buffer
	if err := btxml.Write(&buf, doc); err != nil {
		c.fail(err)
		return exitError
	}
	if out == "" {
		c.stdout.Write(buf.Bytes())
		return exitOK
	}
	if err := os.WriteFile(out, buf.Bytes(), 0o666); err != nil {
		fmt.Fprintf(c.stderr, "bt: %v\n", err)
		return exitError
	}
	return exitOK
}
