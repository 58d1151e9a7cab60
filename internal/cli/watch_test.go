package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// bt run --watch reloads the tree when its file changes: a broken edit prints its
// errors with their positions and the tree runs on; an edit that builds is reloaded
// between two ticks, what it did not touch keeps its state (the Sequence goes on at
// its second child, n counts on), and what changed is printed. The ticks are 100 ms
// apart, the file is looked at every 70 ms, in fake time.
func TestWatch(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "tree.xml")
	const v1 = `<root BTCPP_format="4"><BehaviorTree ID="M"><Sequence>
  <Script code="n := 0"/>
  <KeepRunningUntilFailure><Script code="n += 1"/></KeepRunningUntilFailure>
</Sequence></BehaviorTree></root>`
	write := func(xml string) {
		if err := os.WriteFile(path, []byte(xml), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	write(v1)
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second) // (fake time) a run that does not end fails
		defer cancel()
		var out, errOut bytes.Buffer
		cm := &cmd{ctx: ctx, stdout: &out, stderr: &errOut}
		code := make(chan int)
		go func() {
			code <- cm.main([]string{"run", "--watch", "--watch-every", "70ms", "--interval", "100ms", path})
		}()
		time.Sleep(150 * time.Millisecond) // ticks 1 and 2
		write(strings.Replace(v1, `<Script code="n += 1"/>`, `<Script code="n += 1">`, 1))
		time.Sleep(170 * time.Millisecond) // seen at 210 ms, reloaded before tick 4 (300 ms)
		write(strings.Replace(v1, `<Script code="n += 1"/>`, `<ScriptCondition code="n &lt; 0"/>`, 1))
		if c := <-code; c != exitOK { // seen at 350 ms, reloaded before tick 5 (400 ms), which fails
			t.Errorf("exit %d; stderr:\n%s", c, errOut.String())
		}
		want := `tick 1 RUNNING
tick 2 RUNNING
tick 3 RUNNING
tick 4 RUNNING
reload ` + path + `: 2 kept, 1 added, 1 removed, 1 changed, 1 halted
  added: ScriptCondition::4
  removed: Script::4
  changed: KeepRunningUntilFailure::3
  halted: KeepRunningUntilFailure::3
tick 5 FAILURE
blackboard {"n":4}
`
		if out.String() != want {
			t.Errorf("stdout:\n%s\nwant:\n%s", out.String(), want)
		}
		if e := errOut.String(); !strings.Contains(e, "--watch: "+path+" was not reloaded; the tree runs on unchanged:\n  "+path+":3:") {
			t.Errorf("stderr:\n%s", e)
		}
	})
}

// --watch refuses the outputs that describe one structure.
func TestWatchFlags(t *testing.T) {
	for _, args := range [][]string{{"--log"}, {"--stats"}, {"--save", "s.json"}, {"--watch-every", "0"}} {
		var out, errOut bytes.Buffer
		cm := &cmd{ctx: context.Background(), stdout: &out, stderr: &errOut}
		if c := cm.main(append(append([]string{"run", "--watch"}, args...), "tree.xml")); c != exitUsage || !strings.Contains(errOut.String(), "--watch") {
			t.Errorf("%v: exit %d, %s", args, c, errOut.String())
		}
	}
}

// --watch looks at the files a tree comes from beside the main one: a models file that
// no longer declares a node the tree uses is reloaded (--mock-all then mocks the node
// as the file uses it), and so is an included file whose subtree changes.
func TestWatchIncludesAndModels(t *testing.T) {
	dir := t.TempDir()
	write := func(name, xml string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(xml), 0o666); err != nil {
			t.Fatal(err)
		}
		return path
	}
	main := write("main.xml", `<root BTCPP_format="4" main_tree_to_execute="M"><include path="sub.xml"/>
<BehaviorTree ID="M"><Sequence><Script code="n := 0"/><SubTree ID="S" _autoremap="true"/><Work/></Sequence></BehaviorTree></root>`)
	const sub = `<root BTCPP_format="4"><BehaviorTree ID="S">
  <KeepRunningUntilFailure><Script code="n += 1"/></KeepRunningUntilFailure>
</BehaviorTree></root>`
	write("sub.xml", sub)
	const models = `<root BTCPP_format="4"><TreeNodesModel><Action ID="Work"/></TreeNodesModel></root>`
	modelsPath := write("models.xml", models)
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second) // (fake time)
		defer cancel()
		var out, errOut bytes.Buffer
		cm := &cmd{ctx: ctx, stdout: &out, stderr: &errOut}
		code := make(chan int)
		go func() {
			code <- cm.main([]string{"run", "--watch", "--watch-every", "70ms", "--interval", "100ms",
				"--models", modelsPath, "--mock-all", main})
		}()
		// Ticks every 100 ms, a look at the files every 70 ms: the writes fall between.
		time.Sleep(150 * time.Millisecond)
		write("models.xml", `<root BTCPP_format="4"><TreeNodesModel/></root>`) // Work is no longer declared
		time.Sleep(230 * time.Millisecond)
		write("sub.xml", strings.Replace(sub, `<Script code="n += 1"/>`, `<ScriptCondition code="n &lt; 0"/>`, 1))
		<-code
		if o := out.String(); strings.Count(o, "reload "+main+":") != 2 || !strings.HasSuffix(o, "FAILURE\nblackboard {\"n\":5}\n") {
			t.Errorf("stdout:\n%s\nwant a reload after models.xml changed, one after sub.xml changed, then FAILURE", o)
		}
		if e := errOut.String(); !strings.HasPrefix(e, "bt: --mock-all: no model for Work") {
			t.Errorf("stderr:\n%s\nwant Work mocked once models.xml no longer declares it", e)
		}
	})
}
