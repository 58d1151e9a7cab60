package btlog

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

// record collects the changes of tree as a subscriber sees them, µs-truncated as a
// .btlog file keeps them.
func record(tree *bt.Tree) *[]Transition {
	var got []Transition
	start := tree.Clock().Now()
	tree.Subscribe(func(c bt.StatusChange) {
		off := c.Time.Sub(start).Truncate(time.Microsecond)
		got = append(got, Transition{Offset: off, UID: c.Node.UID(), Previous: c.Previous, Status: c.Status})
	})
	return &got
}

// TestFileGolden writes the mission's run as a .btlog file, compares it with the
// golden file byte for byte, and reads it back to the changes the tree made.
func TestFileGolden(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tree := mission(t)
		want := record(tree)
		var out bytes.Buffer
		l, err := NewFile(tree, &out)
		if err != nil {
			t.Fatal(err)
		}
		run(t, tree)
		closeAll(t, l)
		golden(t, "mission.btlog", out.Bytes())

		log, err := Read(bytes.NewReader(out.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		if !log.Start.Equal(time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)) {
			t.Errorf("Start %v, want synctest's epoch", log.Start)
		}
		var xml bytes.Buffer
		if err := WriteTreeXML(&xml, tree); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(log.XML, xml.Bytes()) {
			t.Errorf("the file's XML is not WriteTreeXML's:\n%s", log.XML)
		}
		if got := log.Transitions; !slices.Equal(got, *want) {
			t.Errorf("read back:\n%v\nwant the tree's changes:\n%v", got, *want)
		}
		if nodes := nodesOf(tree); !slices.Equal(log.Nodes, nodes) {
			t.Errorf("nodes read from the XML:\n%+v\nthe tree's:\n%+v", log.Nodes, nodes)
		}
	})
}

// handmadeXML is a tree as BehaviorTree.CPP 4.10's WriteTreeToXML writes it (tinyxml2's
// layout, a subtree instance, attributes in its order), with a node whose kind only
// the builtin catalogue knows (Sequence is left out of the models on purpose).
const handmadeXML = `<root BTCPP_format="4">
    <BehaviorTree ID="Main" _fullpath="">
        <Sequence name="Sequence" _uid="1">
            <SubTree ID="Sub" _fullpath="Sub::2" _uid="2"/>
            <SaySomething name="hello" _uid="3" message="hi" _skipIf="x &gt; 1"/>
        </Sequence>
    </BehaviorTree>
    <BehaviorTree ID="Sub" _fullpath="Sub::2">
        <Inverter name="Inverter" _uid="4">
            <AlwaysFailure name="AlwaysFailure" _uid="5"/>
        </Inverter>
    </BehaviorTree>
    <TreeNodesModel>
        <Action ID="AlwaysFailure"/>
        <Decorator ID="Inverter"/>
        <Action ID="SaySomething">
            <input_port name="message" type="std::string"/>
        </Action>
        <SubTree ID="SubTree">
            <input_port name="_autoremap" type="bool" default="false"/>
        </SubTree>
    </TreeNodesModel>
</root>
`

// handmade builds a .btlog file byte by byte from FileLogger2's format description:
// the header, the XML's length and text, the first timestamp and 9-byte records.
func handmade(records ...[9]byte) []byte {
	var b []byte
	b = append(b, "BTCPP4-FileLogger2"...)
	b = append(b, 1)
	n := len(handmadeXML)
	b = append(b, byte(n), byte(n>>8), byte(n>>16), byte(n>>24))
	b = append(b, handmadeXML...)
	const t0 = 1_700_000_000_123_456 // µs since the epoch
	for i := range 8 {
		b = append(b, byte(uint64(t0)>>(8*i)))
	}
	for _, r := range records {
		b = append(b, r[:]...)
	}
	return b
}

// rec is a record: µs (6 bytes, little-endian), UID (2 bytes), status.
func rec(us uint64, uid uint16, s byte) [9]byte {
	return [9]byte{byte(us), byte(us >> 8), byte(us >> 16), byte(us >> 24), byte(us >> 32), byte(us >> 40), byte(uid), byte(uid >> 8), s}
}

func TestReadHandmade(t *testing.T) {
	data := handmade(rec(0, 1, 1), rec(5, 2, 1), rec(6, 4, 1), rec(6, 5, 3), rec(7, 4, 2), rec(7, 5, 0),
		rec(1<<40+3, 2, 2), rec(1<<40+3, 3, 2), rec(1<<40+4, 1, 2), rec(1<<40+4, 1, 0))
	log, err := Read(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if string(log.XML) != handmadeXML {
		t.Errorf("XML:\n%s", log.XML)
	}
	if want := time.UnixMicro(1_700_000_000_123_456); !log.Start.Equal(want) {
		t.Errorf("Start %v, want %v", log.Start, want)
	}
	wantNodes := []NodeInfo{
		{UID: 1, ID: "Sequence", Name: "Sequence", Path: "Sequence::1", Kind: bt.KindControl},
		{UID: 2, Parent: 1, ID: "SubTree", Name: "Sub", Path: "Sub::2", Kind: bt.KindSubTree},
		{UID: 3, Parent: 1, ID: "SaySomething", Name: "hello", Path: "hello", Kind: bt.KindAction},
		{UID: 4, Parent: 2, ID: "Inverter", Name: "Inverter", Path: "Sub::2/Inverter::4", Kind: bt.KindDecorator},
		{UID: 5, Parent: 4, ID: "AlwaysFailure", Name: "AlwaysFailure", Path: "Sub::2/AlwaysFailure::5", Kind: bt.KindAction},
	}
	if !slices.Equal(log.Nodes, wantNodes) {
		t.Errorf("nodes:\n%+v\nwant\n%+v", log.Nodes, wantNodes)
	}
	us := time.Microsecond
	want := []Transition{
		{0, 1, bt.Idle, bt.Running}, {5 * us, 2, bt.Idle, bt.Running}, {6 * us, 4, bt.Idle, bt.Running},
		{6 * us, 5, bt.Idle, bt.Failure}, {7 * us, 4, bt.Running, bt.Success}, {7 * us, 5, bt.Failure, bt.Idle},
		{(1<<40 + 3) * us, 2, bt.Running, bt.Success}, {(1<<40 + 3) * us, 3, bt.Idle, bt.Success},
		{(1<<40 + 4) * us, 1, bt.Running, bt.Success}, {(1<<40 + 4) * us, 1, bt.Success, bt.Idle},
	}
	if !slices.Equal(log.Transitions, want) {
		t.Errorf("transitions:\n%v\nwant\n%v", log.Transitions, want)
	}
	if n := log.Node(4); n == nil || n.Path != "Sub::2/Inverter::4" {
		t.Errorf("Node(4) = %+v", n)
	}
	if n := log.Node(6); n != nil {
		t.Errorf("Node(6) = %+v, want nil", n)
	}
}

// TestReadNamedSubtree: a SubTree with an instance name has it as its path's last
// element; the nodes inside have it as prefix.
func TestReadNamedSubtree(t *testing.T) {
	x := `<root BTCPP_format="4"><BehaviorTree ID="M" _fullpath=""><SubTree ID="S" _fullpath="grip" _uid="1"/></BehaviorTree>` +
		`<BehaviorTree ID="S" _fullpath="grip"><Action ID="Weird name" _uid="2"/></BehaviorTree></root>`
	nodes, err := xmlNodes([]byte(x))
	if err != nil {
		t.Fatal(err)
	}
	want := []NodeInfo{
		{UID: 1, ID: "SubTree", Name: "grip", Path: "grip", Kind: bt.KindSubTree},
		{UID: 2, Parent: 1, ID: "Weird name", Name: "Weird name", Path: "grip/Weird name::2", Kind: bt.KindAction},
	}
	if !slices.Equal(nodes, want) {
		t.Errorf("nodes:\n%+v\nwant\n%+v", nodes, want)
	}
}

func TestReadErrors(t *testing.T) {
	good := handmade(rec(1, 1, 1), rec(2, 1, 2))
	xmlLen := len(handmadeXML)
	rec0 := 23 + xmlLen + 8 // the first record
	withXML := func(x string) []byte {
		b := append([]byte("BTCPP4-FileLogger2\x01"), binary.LittleEndian.AppendUint32(nil, uint32(len(x)))...)
		return append(append(b, x...), make([]byte, 8)...)
	}
	at := func(off int, msg string, args ...any) string {
		return fmt.Sprintf("btlog: byte %d: ", off) + fmt.Sprintf(msg, args...)
	}
	for _, c := range []struct {
		name    string
		data    []byte
		want    string
		records int // read before the error
	}{
		{"empty", nil, at(0, `not a .btlog file: it does not start with "BTCPP4-FileLogger2"`), 0},
		{"other file", []byte("<root BTCPP_format=\"4\"/>"), at(0, "not a .btlog file"), 0},
		{"cut in the magic", good[:10], at(0, "not a .btlog file"), 0},
		{"no protocol", good[:18], at(18, "the file ends before the protocol version"), 0},
		{"protocol 2", append(append([]byte{}, good[:18]...), 2), at(18, "protocol version 2; this reader knows version 1"), 0},
		{"cut in the length", good[:21], at(21, "the file ends inside the length of the XML"), 0},
		{"negative length", append(append([]byte{}, good[:19]...), 0xff, 0xff, 0xff, 0xff), at(19, "the length of the XML is negative (-1)"), 0},
		{"cut in the XML", good[:100], at(100, "the file ends inside the XML, announced as %d bytes (77 are there)", xmlLen), 0},
		{"cut in the timestamp", good[:rec0-3], at(rec0-3, "the file ends inside the first timestamp"), 0},
		{"cut in a record", good[:len(good)-4], at(rec0+9, "the file ends inside a record (5 of 9 bytes)"), 1},
		{"unknown UID", handmade(rec(1, 1, 1), rec(2, 9, 1)), at(rec0+9+6, "UID 9 is not a node of the tree"), 1},
		{"UID 0", handmade(rec(1, 0, 1)), at(rec0+6, "UID 0 is not a node of the tree"), 0},
		{"bad status", handmade(rec(1, 1, 1), rec(2, 1, 5)), at(rec0+9+8, "5 is not a status"), 1},
		{"cut XML", withXML("<root><BehaviorTree>"), at(23+20, "in the XML: unexpected EOF"), 0},
		{"XML syntax", withXML("<root><BehaviorTree ID=x/></root>"), at(23+23, "in the XML: unquoted or missing attribute value in element"), 0},
		{"no _uid", withXML(`<root><BehaviorTree _fullpath=""><Sequence/></BehaviorTree></root>`), at(23+33, "in the XML: <Sequence> has no _uid"), 0},
		{"bad _uid", withXML(`<root><BehaviorTree _fullpath=""><Sequence _uid="70000"/></BehaviorTree></root>`), at(23+33, `in the XML: <Sequence> has _uid "70000", not a number from 1 to 65535`), 0},
		{"same _uid", withXML(`<root><BehaviorTree><Sequence _uid="1"><A _uid="1"/></Sequence></BehaviorTree></root>`), at(23+39, "in the XML: two nodes have _uid 1"), 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			log, err := Read(bytes.NewReader(c.data))
			if err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Fatalf("got error %v\nwant %s", err, c.want)
			}
			if _, ok := err.(*FormatError); !ok {
				t.Errorf("the error is a %T, want a *FormatError", err)
			}
			got := 0
			if log != nil {
				got = len(log.Transitions)
			}
			if got != c.records {
				t.Errorf("%d transitions read before the error, want %d", got, c.records)
			}
		})
	}
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "cut.btlog")
	if err := os.WriteFile(name, handmade(rec(1, 1, 1))[:30], 0o644); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("%s: byte 30: the file ends inside the XML, announced as %d bytes (7 are there)", name, len(handmadeXML))
	if _, err := ReadFile(name); err == nil || err.Error() != want {
		t.Errorf("got %v", err)
	}
	if _, err := ReadFile(filepath.Join(dir, "none.btlog")); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("a missing file: %v", err)
	}
	if _, err := Read(nil); err == nil || err.Error() != "btlog: nil reader" {
		t.Errorf("a nil reader: %v", err)
	}
}

// TestCreateFile writes a real file, which Close closes, and insists on the extension.
func TestCreateFile(t *testing.T) {
	dir := t.TempDir()
	tree, err := bt.NewTree(bt.Sequence(bt.AlwaysSuccess(), bt.AlwaysFailure()))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := CreateFile(tree, filepath.Join(dir, "run.txt")); err == nil || !strings.Contains(err.Error(), "must end in .btlog") {
		t.Errorf("a .txt file: %v", err)
	}
	if _, err := CreateFile(tree, filepath.Join(dir, "none", "run.btlog")); err == nil {
		t.Errorf("a file in a missing directory: no error")
	}
	name := filepath.Join(dir, "run.btlog")
	l, err := CreateFile(tree, name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tree.TickOnce(); err != nil {
		t.Fatal(err)
	}
	closeAll(t, l)
	if err := l.Flush(); err != ErrClosed {
		t.Errorf("Flush after Close: %v, want ErrClosed", err)
	}
	log, err := ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tr := range log.Transitions {
		got = append(got, log.Node(tr.UID).Path+" "+tr.Previous.String()+">"+tr.Status.String())
	}
	want := "Sequence::1 IDLE>RUNNING AlwaysSuccess::2 IDLE>SUCCESS AlwaysFailure::3 IDLE>FAILURE " +
		"AlwaysSuccess::2 SUCCESS>IDLE AlwaysFailure::3 FAILURE>IDLE Sequence::1 RUNNING>FAILURE Sequence::1 FAILURE>IDLE"
	if strings.Join(got, " ") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
}

// TestReadSubtreeCycle: a damaged XML whose SubTree is inside the tree it names does
// not make the nodes their own ancestors.
func TestReadSubtreeCycle(t *testing.T) {
	x := `<root><BehaviorTree _fullpath="s"><Seq _uid="1"><SubTree ID="S" _fullpath="s" _uid="2"/></Seq></BehaviorTree></root>`
	nodes, err := xmlNodes([]byte(x))
	if err != nil {
		t.Fatal(err)
	}
	if len(nodes) != 2 || nodes[0].Parent != 0 || nodes[1].Parent != 1 {
		t.Errorf("nodes %+v", nodes)
	}
}

// TestFileLongQueue: a writer that takes a long queue (ticks of 6,003 changes, three
// of them queued before it wakes) hands it to the file a piece at a time; the file
// holds every change, each with the time of its own tick.
func TestFileLongQueue(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tree, err := bt.NewTree(bttest.Flat(3000))
		if err != nil {
			t.Fatal(err)
		}
		want := record(tree)
		var out bytes.Buffer
		l, err := NewFile(tree, &out)
		if err != nil {
			t.Fatal(err)
		}
		for range 3 {
			if _, err := tree.TickOnce(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(gather / 4) // the writer waits a whole gather after the first tick
		}
		closeAll(t, l)
		log, err := Read(bytes.NewReader(out.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		if len(*want) != 3*6003 || (*want)[len(*want)-1].Offset != 2*gather/4 {
			t.Fatalf("the tree made %d changes, the last at %v", len(*want), (*want)[len(*want)-1].Offset)
		}
		if got := log.Transitions; !slices.Equal(got, *want) {
			t.Errorf("read back %d changes, want the tree's %d", len(got), len(*want))
		}
	})
}
