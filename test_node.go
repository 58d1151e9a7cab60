package bt

import (
	"errors"
	"fmt"
	"time"

	"github.com/gobt/bt/script"
)

// TestNode is a configurable stand-in action (BehaviorTree.CPP's TestNode), for mocks
// and dry runs: a substitution rule (see Factory.LoadSubstitutions) puts it in place of
// nodes whose real implementation is not wanted, or not linked in.
//
//	first tick, async_delay 0 → complete (below) at once
//	first tick    → start a timer of async_delay on the tree's clock; Running
//	timer pending → Running
//	timer expired → complete
//	complete      → the status is return_status_script's value if given (a status
//	                name or number; the names IDLE … SKIPPED are enums in this script
//	                only), else return_status (default SUCCESS); IDLE is an error. Then
//	                success_script runs after SUCCESS, failure_script after FAILURE,
//	                and post_script after any status; the status is returned
//	halted        → stop the timer; no script runs
//
// When the timer expires it wakes the tree up. XML:
//
//	<TestNode return_status="FAILURE" async_delay="200" failure_script="tries += 1"/>
func TestNode(cfg TestNodeConfig) *Spec { return cfg.spec(testNodeModel.Spec()) }

// TestNodeConfig configures a TestNode; its fields are the TestNodeConfigs fields of a
// substitution file.
type TestNodeConfig struct {
	ReturnStatus       Status        // the status to return; the zero value (Idle) means Success
	ReturnStatusScript string        // if set, a script whose value is the status; it wins over ReturnStatus
	SuccessScript      string        // runs when the node completes with Success
	FailureScript      string        // runs when the node completes with Failure
	PostScript         string        // runs when the node completes, after the two above
	AsyncDelay         time.Duration // > 0: the node runs this long before it completes
}

// spec sets the ports of s from the configuration.
func (cfg *TestNodeConfig) spec(s *Spec) *Spec {
	if cfg.ReturnStatus != Idle {
		s.With("return_status", cfg.ReturnStatus.String())
	}
	for _, p := range [...]struct{ port, code string }{
		{"return_status_script", cfg.ReturnStatusScript}, {"success_script", cfg.SuccessScript},
		{"failure_script", cfg.FailureScript}, {"post_script", cfg.PostScript},
	} {
		if p.code != "" {
			s.withScript(p.port, p.code)
		}
	}
	if cfg.AsyncDelay != 0 {
		s.With("async_delay", cfg.AsyncDelay.String())
	}
	return s
}

// check reports the problems of a configuration: bad statuses and scripts.
func (cfg *TestNodeConfig) check() error {
	var errs []error
	if s := cfg.ReturnStatus; s > Skipped {
		errs = append(errs, fmt.Errorf("return_status: %v is not a status", s))
	}
	for _, p := range [...]struct{ name, code string }{
		{"return_status_script", cfg.ReturnStatusScript}, {"success_script", cfg.SuccessScript},
		{"failure_script", cfg.FailureScript}, {"post_script", cfg.PostScript},
	} {
		if p.code == "" {
			continue
		}
		if _, err := script.Parse(p.code); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", p.name, err))
		}
	}
	if cfg.AsyncDelay < 0 {
		errs = append(errs, fmt.Errorf("async_delay: %v is negative", cfg.AsyncDelay))
	}
	return errors.Join(errs...)
}

var testNodeModel = &Model{
	ID: "TestNode", Kind: KindAction,
	Description: "A configurable mock: returns a given status, optionally after a delay, and runs scripts.",
	Ports:       testNodePorts,
	build:       func(c *NodeConfig) (ticker, error) { return newTestNode(c) },
}

var testNodePorts = []PortDef{
	InputPort[Status]("return_status", "the status to return: SUCCESS, FAILURE, RUNNING or SKIPPED").WithDefault("SUCCESS"),
	InputPort[string]("return_status_script", "a script whose value is the status to return (wins over return_status)").holdsScript(),
	InputPort[string]("success_script", "a script to run after SUCCESS").holdsScript(),
	InputPort[string]("failure_script", "a script to run after FAILURE").holdsScript(),
	InputPort[string]("post_script", "a script to run after any completion").holdsScript(),
	InputPort[time.Duration]("async_delay", "how long to run before completing, in milliseconds (0: complete at once)").WithDefault("0"),
}

type testNode struct {
	status     In[Status]
	delay      In[time.Duration]
	statusCode optionalScript // return_status_script, with the status names as enums
	onSuccess  optionalScript
	onFailure  optionalScript
	post       optionalScript
	alarm      alarm
}

func newTestNode(c *NodeConfig) (*testNode, error) {
	t := &testNode{}
	t.statusCode.statusNames = true
	err := errors.Join(
		t.status.bind(c, "return_status"), t.delay.bind(c, "async_delay"),
		t.statusCode.bind(c, "return_status_script"), t.onSuccess.bind(c, "success_script"),
		t.onFailure.bind(c, "failure_script"), t.post.bind(c, "post_script"),
	)
	if t.status.set && t.status.val == Idle {
		err = errors.Join(err, errors.New("a TestNode cannot return IDLE"))
	}
	return t, err
}

func (t *testNode) tick(n *Node) Status {
	switch n.Status() {
	case Idle:
		d := t.delay.mustGet(n)
		if d <= 0 {
			return t.complete(n)
		}
		t.alarm.set(n, d)
		return Running
	case Running:
		if t.alarm.done() {
			return t.complete(n)
		}
		return Running
	}
	return n.Status() // completed, not reset yet: the same result, as a stateful action
}

func (t *testNode) complete(n *Node) Status {
	var s Status
	if t.statusCode.set {
		s = scriptStatus(n, t.statusCode.run(n))
	} else {
		s = t.status.mustGet(n)
	}
	if s == Idle || s > Skipped {
		n.Abort(fmt.Errorf("a TestNode cannot return %v", s))
	}
	switch s {
	case Success:
		t.onSuccess.run(n)
	case Failure:
		t.onFailure.run(n)
	}
	t.post.run(n)
	return s
}

func (t *testNode) Halt(*Node) { t.alarm.stop() }

// scriptStatus converts the value of return_status_script to a status.
func scriptStatus(n *Node, v script.Value) Status {
	switch v.Kind() {
	case script.KindString:
		s, err := ParseStatus(v.Str())
		if err != nil {
			n.Abort(fmt.Errorf("return_status_script: %w", err))
		}
		return s
	case script.KindInt, script.KindFloat:
		if f := v.Float(); f == float64(int64(f)) && f >= 0 && f <= float64(Skipped) {
			return Status(f)
		}
	}
	n.Abort(fmt.Errorf("return_status_script: %v is not a status", v))
	return Idle
}

// optionalScript is a port that may hold a script. Its text is a literal, compiled when
// the node is built, or "{key}", compiled when the entry's text changes.
type optionalScript struct {
	code        codePort
	set         bool
	statusNames bool // the script sees IDLE … SKIPPED as enums (return_status_script)
}

func (o *optionalScript) bind(c *NodeConfig, name string) error {
	if _, _, set, err := portText(c, name); err != nil || !set {
		return err
	}
	o.set = true
	if !o.statusNames {
		return o.code.bind(c, name)
	}
	return o.code.bindEnv(c, name, statusEnvOf)
}

// run runs the script, if there is one, and returns its value.
func (o *optionalScript) run(n *Node) script.Value {
	if !o.set {
		return script.Value{}
	}
	v, err := o.code.program(n).Run()
	if err != nil {
		n.Abort(err)
	}
	return v
}

// statusEnv is a node's script environment with the status names as enums (they win
// over the factory's enums, as in BehaviorTree.CPP's TestNode).
type statusEnv struct{ *scope }

func statusEnvOf(n *Node) script.Env { return statusEnv{envOf(n)} }

func (e statusEnv) Enum(name string) (int64, bool) {
	if s, err := ParseStatus(name); err == nil {
		return int64(s), true
	}
	return e.scope.Enum(name)
}

// saveState saves the timer of async_delay.
func (t *testNode) saveState(_ *Node, w *stateWriter) { t.alarm.saveState(w) }

func (t *testNode) restoreState(n *Node, r *stateReader) { t.alarm.restoreState(n, r) }
