package cli

import (
	"bytes"
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
)

// runBT runs the command with args, in a synctest bubble (time is virtual, so runs are
// exact), and returns its stdout, stderr and exit status.
func runBT(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	synctest.Test(t, func(t *testing.T) {
		c := &cmd{ctx: context.Background(), stdout: &out, stderr: &errOut, pid: 1}
		code = c.main(args)
	})
	return out.String(), errOut.String(), code
}

// changeLines returns the lines of --log among the others: those starting with "[".
func changeLines(out string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(out, "\n") {
		if strings.HasPrefix(line, "[") {
			b.WriteString(line)
		}
	}
	return b.String()
}

// roundTripXML has timers that wake the tree between ticks, a subtree, a Log node, a
// skipped node, and a node still running when --ticks stops the run (halted).
const roundTripXML = `<root BTCPP_format="4" main_tree_to_execute="Main">
    <BehaviorTree ID="Main">
        <Sequence>
            <Script code="n := 0"/>
            <Parallel success_count="2">
                <Sleep msec="25"/>
                <SubTree ID="Count" _autoremap="true"/>
            </Parallel>
            <AlwaysFailure _skipIf="n > 0"/>
            <Log message="n is {n}">
                <Delay delay_msec="100"><AlwaysSuccess/></Delay>
            </Log>
        </Sequence>
    </BehaviorTree>
    <BehaviorTree ID="Count">
        <ForceSuccess>
            <KeepRunningUntilFailure>
                <ScriptCondition name="Step" code="n += 1; n &lt; 3"/>
            </KeepRunningUntilFailure>
        </ForceSuccess>
    </BehaviorTree>
</root>
`

// TestReplayRoundTrip: bt replay prints what bt run --log printed, to the character
// (the clock is synctest's), from the file bt run --btlog wrote; --stats prints the
// same table over the file as over the run.
func TestReplayRoundTrip(t *testing.T) {
	dir := t.TempDir()
	tree, rec := filepath.Join(dir, "tree.xml"), filepath.Join(dir, "run.btlog")
	if err := os.WriteFile(tree, []byte(roundTripXML), 0o666); err != nil {
		t.Fatal(err)
	}
	for _, naming := range [][]string{nil, {"--uids"}, {"--paths"}, {"--paths", "--uids"}} {
		replayRoundTrip(t, tree, rec, naming)
	}
}

// replayRoundTrip runs tree with --log, naming its nodes as the flags naming say, and
// replays the file it recorded, rec, with the same flags.
func replayRoundTrip(t *testing.T, tree, rec string, naming []string) {
	out, errOut, code := runBT(t, append([]string{"run", "--btlog", rec, "--log", "--stats", "--ticks", "6", "--interval", "7ms", tree}, naming...)...)
	if code != 0 {
		t.Fatalf("bt run: exit %d\n%s%s", code, out, errOut)
	}
	run, table, ok := strings.Cut(out, "\nblackboard ")
	if !ok {
		t.Fatalf("bt run printed no blackboard:\n%s", out)
	}
	run += "\n"
	_, table, _ = strings.Cut(table, "\n")
	step := map[string]string{"": "]: Step ", "--uids": "]: Step::8 ", "--paths": "]: Count::5/Step ", "--paths --uids": "]: Count::5/Step::8 "}
	for _, want := range []string{"log INFO Log::", "RUNNING -> IDLE", step[strings.Join(naming, " ")], "tick 6 RUNNING"} {
		if !strings.Contains(run, want) {
			t.Errorf("bt run --log %v does not print %q; the tree no longer tests what it should:\n%s", naming, want, run)
		}
	}

	replayed, errOut, code := runBT(t, append([]string{"replay", rec}, naming...)...)
	if code != 0 || errOut != "" {
		t.Fatalf("bt replay: exit %d\n%s", code, errOut)
	}
	if replayed != changeLines(run) {
		t.Errorf("bt replay %v printed\n%s\nbt run --log printed\n%s", naming, replayed, changeLines(run))
	}
	withStats, _, _ := runBT(t, append([]string{"replay", "--stats", rec}, naming...)...)
	if want := replayed + table; withStats != want {
		t.Errorf("bt replay --stats printed\n%s\nwant\n%s", withStats, want)
	}
}

// cppXML is a tree as BehaviorTree.CPP 4.10's WriteTreeToXML(tree, true, true) writes
// it (tinyxml2's layout, attributes in its order, custom nodes whose kind only the
// TreeNodesModel gives, a subtree instance with its _fullpath).
const cppXML = `<root BTCPP_format="4">
    <BehaviorTree ID="MainTree" _fullpath="">
        <Fallback name="root" _uid="1">
            <Sequence name="door_open_sequence" _uid="2">
                <IsDoorClosed name="IsDoorClosed" _uid="3"/>
                <SubTree ID="DoorClosed" _fullpath="DoorClosed::4" _uid="4" _autoremap="false"/>
            </Sequence>
            <PassThroughWindow name="PassThroughWindow" _uid="7"/>
        </Fallback>
    </BehaviorTree>
    <BehaviorTree ID="DoorClosed" _fullpath="DoorClosed::4">
        <RetryUntilSuccessful name="RetryUntilSuccessful" _uid="5" num_attempts="3">
            <OpenDoor name="OpenDoor" _uid="6"/>
        </RetryUntilSuccessful>
    </BehaviorTree>
    <TreeNodesModel>
        <Condition ID="IsDoorClosed"/>
        <Action ID="OpenDoor"/>
        <Action ID="PassThroughWindow"/>
        <Decorator ID="RetryUntilSuccessful">
            <input_port name="num_attempts" type="int">Execute again a failing child up to N times. Use -1 to create an infinite loop.</input_port>
        </Decorator>
        <SubTree ID="SubTree">
            <input_port name="_autoremap" type="bool" default="false">If true, all the ports with the same name will be remapped</input_port>
        </SubTree>
    </TreeNodesModel>
</root>
`

// cppLog builds a .btlog file byte by byte from FileLogger2's format: "BTCPP4-FileLogger2",
// the protocol byte 1, the XML's length (int32, little-endian) and text, the first
// timestamp (int64 µs, little-endian), then 9-byte records.
func cppLog(records ...[9]byte) []byte {
	b := append([]byte("BTCPP4-FileLogger2"), 1)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(cppXML)))
	b = append(b, cppXML...)
	b = binary.LittleEndian.AppendUint64(b, 1_700_000_000_250_000) // 2023-11-14T22:13:20.25Z
	for _, r := range records {
		b = append(b, r[:]...)
	}
	return b
}

// record is a record of the file: the µs since the first timestamp (the low 6 bytes,
// little-endian), the node's UID (2 bytes, little-endian) and its new status.
func record(us uint64, uid uint16, status byte) [9]byte {
	return [9]byte{byte(us), byte(us >> 8), byte(us >> 16), byte(us >> 24), byte(us >> 32), byte(us >> 40),
		byte(uid), byte(uid >> 8), status}
}

// The statuses as the file stores them.
const (
	idle, running, success, failure = 0, 1, 2, 3
)

// cppRun is BehaviorTree.CPP's run of the door tree: the door is closed, opening it
// fails once and then succeeds (the RetryUntilSuccessful resets it to IDLE in between).
var cppRun = [][9]byte{
	record(0, 1, running), record(0, 2, running), record(0, 3, success),
	record(10, 4, running), record(11, 5, running), record(12, 6, failure), record(12, 6, idle),
	record(1_500_000, 6, running), record(2_000_123, 6, success), record(2_000_124, 6, idle),
	record(2_000_125, 5, success), record(2_000_125, 5, idle), record(2_000_126, 4, success),
	record(2_000_200, 3, idle), record(2_000_200, 4, idle), record(2_000_201, 2, success),
	record(2_000_201, 2, idle), record(2_000_202, 1, success), record(2_000_202, 1, idle),
}

// cppChanges are the lines of cppRun.
const cppChanges = `[0.000]: root                      IDLE -> RUNNING
[0.000]: door_open_sequence        IDLE -> RUNNING
[0.000]: IsDoorClosed              IDLE -> SUCCESS
[0.000]: DoorClosed                IDLE -> RUNNING
[0.000]: RetryUntilSuccessful      IDLE -> RUNNING
[0.000]: OpenDoor                  IDLE -> FAILURE
[0.000]: OpenDoor                  FAILURE -> IDLE
[1.500]: OpenDoor                  IDLE -> RUNNING
[2.000]: OpenDoor                  RUNNING -> SUCCESS
[2.000]: OpenDoor                  SUCCESS -> IDLE
[2.000]: RetryUntilSuccessful      RUNNING -> SUCCESS
[2.000]: RetryUntilSuccessful      SUCCESS -> IDLE
[2.000]: DoorClosed                RUNNING -> SUCCESS
[2.000]: IsDoorClosed              SUCCESS -> IDLE
[2.000]: DoorClosed                SUCCESS -> IDLE
[2.000]: door_open_sequence        RUNNING -> SUCCESS
[2.000]: door_open_sequence        SUCCESS -> IDLE
[2.000]: root                      RUNNING -> SUCCESS
[2.000]: root                      SUCCESS -> IDLE
`

// cppPaths are cppChanges as --paths prints them, padded to the longest path.
const cppPaths = `[0.000]: root                                  IDLE -> RUNNING
[0.000]: door_open_sequence                    IDLE -> RUNNING
[0.000]: IsDoorClosed::3                       IDLE -> SUCCESS
[0.000]: DoorClosed::4                         IDLE -> RUNNING
[0.000]: DoorClosed::4/RetryUntilSuccessful::5 IDLE -> RUNNING
[0.000]: DoorClosed::4/OpenDoor::6             IDLE -> FAILURE
[0.000]: DoorClosed::4/OpenDoor::6             FAILURE -> IDLE
[1.500]: DoorClosed::4/OpenDoor::6             IDLE -> RUNNING
[2.000]: DoorClosed::4/OpenDoor::6             RUNNING -> SUCCESS
[2.000]: DoorClosed::4/OpenDoor::6             SUCCESS -> IDLE
[2.000]: DoorClosed::4/RetryUntilSuccessful::5 RUNNING -> SUCCESS
[2.000]: DoorClosed::4/RetryUntilSuccessful::5 SUCCESS -> IDLE
[2.000]: DoorClosed::4                         RUNNING -> SUCCESS
[2.000]: IsDoorClosed::3                       SUCCESS -> IDLE
[2.000]: DoorClosed::4                         SUCCESS -> IDLE
[2.000]: door_open_sequence                    RUNNING -> SUCCESS
[2.000]: door_open_sequence                    SUCCESS -> IDLE
[2.000]: root                                  RUNNING -> SUCCESS
[2.000]: root                                  SUCCESS -> IDLE
`

// TestReplayCPP replays a file in BehaviorTree.CPP's FileLogger2 format, built byte by
// byte, whole and cut short.
func TestReplayCPP(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o666); err != nil {
			t.Fatal(err)
		}
		return path
	}
	whole := write("door.btlog", cppLog(cppRun...))
	firstRecord := 18 + 1 + 4 + len(cppXML) + 8
	cut := write("cut.btlog", cppLog(cppRun...)[:firstRecord+3*9+4])
	badUID := write("uid.btlog", cppLog(cppRun[0], record(1, 8, running)))

	absolute := strings.NewReplacer("[0.000]", "[1700000000.250]", "[1.500]", "[1700000001.750]", "[2.000]", "[1700000002.250]").Replace(cppChanges)
	table := `UID  PATH                                   TRANSITIONS  SUCCESS  FAILURE  LAST RESULT  STATUS
1    root                                   2            1        0        SUCCESS      IDLE
2    door_open_sequence                     2            1        0        SUCCESS      IDLE
3    IsDoorClosed::3                        1            1        0        SUCCESS      IDLE
4    DoorClosed::4                          2            1        0        SUCCESS      IDLE
5    DoorClosed::4/RetryUntilSuccessful::5  2            1        0        SUCCESS      IDLE
6    DoorClosed::4/OpenDoor::6              3            1        1        SUCCESS      IDLE
7    PassThroughWindow::7                   0            0        0        IDLE         IDLE
`
	lines := strings.SplitAfter(cppChanges, "\n")
	for _, c := range []struct {
		args           []string
		stdout, stderr string
		code           int
	}{
		{[]string{"replay", whole}, cppChanges, "", 0},
		{[]string{"replay", "--paths", whole}, cppPaths, "", 0},
		{[]string{"replay", "--absolute", whole}, absolute, "", 0},
		{[]string{"replay", whole, "--stats"}, cppChanges + table, "", 0},
		{[]string{"replay", cut}, strings.Join(lines[:3], ""),
			"bt: " + cut + ": byte " + strconv.Itoa(firstRecord+27) + ": the file ends inside a record (4 of 9 bytes)\n", 1},
		{[]string{"replay", badUID}, lines[0],
			"bt: " + badUID + ": byte " + strconv.Itoa(firstRecord+9+6) + ": UID 8 is not a node of the tree\n", 1},
	} {
		stdout, stderr, code := runBT(t, c.args...)
		if stdout != c.stdout || stderr != c.stderr || code != c.code {
			t.Errorf("bt %s: exit %d\n--- stdout\n%s--- stderr\n%s--- want exit %d\n--- stdout\n%s--- stderr\n%s",
				strings.Join(c.args, " "), code, stdout, stderr, c.code, c.stdout, c.stderr)
		}
	}
}

// TestSniperBtlog: examples/sniper/sniper.btlog, which the README replays, is what
// bt run --btlog records of the sniper (go test -update rewrites it), and replays to
// what bt run --log prints.
func TestSniperBtlog(t *testing.T) {
	shipped := filepath.Join(moduleRoot, "examples", "sniper", "sniper.btlog")
	rec := filepath.Join(t.TempDir(), "sniper.btlog")
	out, errOut, code := runBT(t, "run", "--btlog", rec, "--log", filepath.Join(moduleRoot, "examples", "sniper", "sniper.xml"))
	if code != 0 {
		t.Fatalf("bt run: exit %d\n%s%s", code, out, errOut)
	}
	got, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(shipped, got, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	if want, err := os.ReadFile(shipped); err != nil || !bytes.Equal(got, want) {
		t.Errorf("%s is not what bt run --btlog records (go test -update rewrites it): %v", shipped, err)
	}
	if replayed, _, _ := runBT(t, "replay", shipped); replayed != changeLines(out) {
		t.Errorf("bt replay %s printed\n%s\nbt run --log printed\n%s", shipped, replayed, changeLines(out))
	}
}

// TestReplayInterrupted checks that an interrupt stops a long replay: what was written
// before it stays, nothing follows it, and the status is 1 with "bt: interrupted".
func TestReplayInterrupted(t *testing.T) {
	dir := t.TempDir()
	tree, rec := filepath.Join(dir, "loop.xml"), filepath.Join(dir, "loop.btlog")
	xml := `<root BTCPP_format="4"><BehaviorTree ID="M"><KeepRunningUntilFailure><AlwaysSuccess/></KeepRunningUntilFailure></BehaviorTree></root>`
	if err := os.WriteFile(tree, []byte(xml), 0o666); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := runBT(t, "run", "--ticks", "1500", "--btlog", rec, tree); code != 0 {
		t.Fatalf("bt run: exit %d: %s", code, errOut)
	}
	whole, _, _ := runBT(t, "replay", "--stats", rec)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := &cancelAfterWrite{cancel: cancel}
	var errOut bytes.Buffer
	c := &cmd{ctx: ctx, stdout: out, stderr: &errOut}
	code := c.main([]string{"replay", "--stats", rec})
	got := out.String()
	if code != exitError || errOut.String() != "bt: interrupted\n" {
		t.Errorf("exit %d, stderr %q; want 1 and %q", code, errOut.String(), "bt: interrupted\n")
	}
	if got == "" || len(got) >= len(whole) || !strings.HasPrefix(whole, got) {
		t.Errorf("interrupted replay wrote %d bytes of the %d of the whole one, or other bytes", len(got), len(whole))
	}
}

// cancelAfterWrite is an output whose first write interrupts the command.
type cancelAfterWrite struct {
	bytes.Buffer
	cancel context.CancelFunc
}

func (w *cancelAfterWrite) Write(p []byte) (int, error) {
	defer w.cancel()
	return w.Buffer.Write(p)
}
