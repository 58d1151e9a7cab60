package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gobt/bt"
	"github.com/gobt/bt/btlog"
	"github.com/gobt/bt/monitor"
)

// serving runs the command with args until it prints the address it serves at, on
// stdout or stderr (the stream named by where), and returns it with what the command
// printed so far and a function that interrupts the command and returns its exit
// status and all it printed.
type serving struct {
	url      string
	lines    chan string // the lines of the stream that gives the address
	stop     func() (code int, stdout, stderr string)
	captured *strings.Builder
}

func serve(t *testing.T, args []string, where string) *serving {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	var out, errOut strings.Builder
	c := &cmd{ctx: ctx, stdout: &out, stderr: &errOut, pid: 1}
	captured := &errOut
	if where == "stdout" {
		c.stdout, captured = pw, &out
	} else {
		c.stderr = pw
	}
	code := make(chan int, 1)
	go func() { code <- c.main(args); pw.Close() }()
	s := &serving{lines: make(chan string, 100), captured: captured}
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			captured.WriteString(sc.Text() + "\n")
			s.lines <- sc.Text()
		}
		close(s.lines)
	}()
	for line := range s.lines {
		if _, after, ok := strings.Cut(line, " at http://"); ok {
			s.url = "http://" + strings.Fields(after)[0]
			break
		}
	}
	if s.url == "" {
		cancel()
		t.Fatalf("bt %s printed no address: %s / %s", strings.Join(args, " "), out.String(), errOut.String())
	}
	s.stop = func() (int, string, string) {
		cancel()
		n := <-code
		for range s.lines { // what is left
		}
		return n, out.String(), errOut.String()
	}
	return s
}

// wait waits for a line that starts with prefix.
func (s *serving) wait(t *testing.T, prefix string) {
	t.Helper()
	for line := range s.lines {
		if strings.HasPrefix(line, prefix) {
			return
		}
	}
	t.Fatalf("no line %q", prefix)
}

// frames reads the stream of events of tree name until it has the frame of tick
// last, and returns the statuses after each frame, by tick.
func frames(t *testing.T, url, name string, last uint64) map[uint64][]int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", url+"api/trees/"+name+"/events", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	type frame struct {
		Tick     uint64   `json:"tick"`
		Statuses []int    `json:"statuses"`
		Changes  [][3]int `json:"changes"`
	}
	out := map[uint64][]int{}
	var cur []int
	add := func(f frame) {
		if f.Statuses != nil {
			cur = slices.Clone(f.Statuses)
		}
		for _, c := range f.Changes {
			cur[c[0]-1] = c[2]
		}
		out[f.Tick] = slices.Clone(cur)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	event := ""
	for sc.Scan() {
		line := sc.Text()
		if e, ok := strings.CutPrefix(line, "event: "); ok {
			event = e
		}
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			continue
		}
		switch event {
		case "snapshot":
			var snap struct {
				Base   frame   `json:"base"`
				Frames []frame `json:"frames"`
			}
			if err := json.Unmarshal([]byte(data), &snap); err != nil {
				t.Fatal(err)
			}
			clear(out)
			cur = slices.Clone(snap.Base.Statuses)
			for _, f := range snap.Frames {
				add(f)
			}
		case "tick":
			var f frame
			if err := json.Unmarshal([]byte(data), &f); err != nil {
				t.Fatal(err)
			}
			add(f)
		}
		if _, ok := out[last]; ok {
			return out
		}
	}
	t.Fatalf("the stream ended before tick %d: %v", last, sc.Err())
	return nil
}

const serveTree = `<root BTCPP_format="4"><BehaviorTree ID="M"><Sequence>
  <Script code="n := 0"/>
  <KeepRunningUntilFailure><ScriptCondition code="n += 1; n &lt; 3"/></KeepRunningUntilFailure>
</Sequence></BehaviorTree></root>`

// TestRunServe serves a run: the page and its stream show every tick of it, with the
// statuses the tree had; the command prints what it prints without --serve, and on
// stderr where it serves; once the run is over it serves until interrupted, then
// exits with status 0.
func TestRunServe(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tree.xml")
	if err := os.WriteFile(path, []byte(serveTree), 0o666); err != nil {
		t.Fatal(err)
	}
	s := serve(t, []string{"run", "--serve", "127.0.0.1:0", path}, "stderr")
	s.wait(t, "bt: the run is over")
	got := frames(t, s.url, "M", 3)

	f := bt.NewFactory() // the same run, to compare
	if err := f.LoadString("tree.xml", serveTree); err != nil {
		t.Fatal(err)
	}
	tree, err := f.NewTree("")
	if err != nil {
		t.Fatal(err)
	}
	for tick := uint64(0); tick <= 3; tick++ {
		if tick > 0 {
			tree.TickOnce()
		}
		var want []int
		for n := range tree.Nodes() {
			want = append(want, int(n.Status()))
		}
		if !reflect.DeepEqual(got[tick], want) {
			t.Errorf("tick %d: served %v, the tree has %v", tick, got[tick], want)
		}
	}

	code, stdout, stderr := s.stop()
	stderr = regexp.MustCompile(`127\.0\.0\.1:\d+`).ReplaceAllString(stderr, "127.0.0.1:PORT")
	wantErr := "bt: serving the tree M at http://127.0.0.1:PORT/\n" +
		"bt: the run is over; serving it at http://127.0.0.1:PORT/ until interrupted (Ctrl-C)\n"
	if code != 0 || stdout != "tick 1 RUNNING\ntick 2 RUNNING\ntick 3 FAILURE\nblackboard {\"n\":3}\n" || stderr != wantErr {
		t.Errorf("exit %d\n--- stdout\n%s--- stderr\n%s--- want stderr\n%s", code, stdout, stderr, wantErr)
	}
}

// TestView serves a .btlog file: its steps hold the file's transitions in order, and a
// file cut short is served up to the cut, with a warning.
func TestView(t *testing.T) {
	file := filepath.Join("..", "..", "examples", "sniper", "sniper.btlog")
	l, err := btlog.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(t.TempDir(), "cut.btlog")
	if err := os.WriteFile(cut, data[:len(data)-4], 0o666); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		file, warning string
		transitions   int
	}{
		{file, "", len(l.Transitions)},
		{cut, "bt: warning: " + cut + ": byte ", len(l.Transitions) - 1},
	} {
		s := serve(t, []string{"view", "--serve", "127.0.0.1:0", tc.file}, "stdout")
		resp, err := http.Get(s.url + "api/trees/" + filepath.Base(tc.file))
		if err != nil {
			t.Fatal(err)
		}
		var snap struct {
			Frames []struct {
				Changes [][3]int `json:"changes"`
			} `json:"frames"`
		}
		err = json.NewDecoder(resp.Body).Decode(&snap)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		var served [][3]int
		for _, f := range snap.Frames {
			served = append(served, f.Changes...)
		}
		var want [][3]int
		for _, tr := range l.Transitions[:tc.transitions] {
			want = append(want, [3]int{int(tr.UID), int(tr.Previous), int(tr.Status)})
		}
		if !reflect.DeepEqual(served, want) || len(snap.Frames) < 2 {
			t.Errorf("%s: %d steps, changes %v, want %v", tc.file, len(snap.Frames), served, want)
		}
		code, stdout, stderr := s.stop()
		if code != 0 || !strings.HasPrefix(stdout, "bt: serving "+tc.file+" at http://127.0.0.1:") || !strings.HasPrefix(stderr, tc.warning) || (tc.warning == "") != (stderr == "") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", tc.file, code, stdout, stderr)
		}
	}
}

// TestServeAddress: --serve takes an address as the next argument only when it reads
// as one, and a busy address is an error.
func TestServeAddress(t *testing.T) {
	for _, tc := range []struct{ in, want []string }{
		{[]string{"--serve", ":0", "t.xml"}, []string{"--serve=:0", "t.xml"}},
		{[]string{"--serve", "localhost:80", "t.xml"}, []string{"--serve=localhost:80", "t.xml"}},
		{[]string{"-serve", "[::1]:8080", "t.xml"}, []string{"-serve=[::1]:8080", "t.xml"}},
		{[]string{"--serve", "t.xml"}, []string{"--serve", "t.xml"}},
		{[]string{"--serve", "a:b.xml"}, []string{"--serve", "a:b.xml"}},
		{[]string{"--", "--serve", ":0"}, []string{"--", "--serve", ":0"}},
		{[]string{"--serve", "8080", "t.xml"}, []string{"--serve=8080", "t.xml"}},
		{[]string{"--mock-all", "failure", "t.xml"}, []string{"--mock-all=failure", "t.xml"}},
		{[]string{"--mock-all", "t.xml"}, []string{"--mock-all", "t.xml"}},
	} {
		if got := joinFlagValues(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("joinFlagValues(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	s := serve(t, []string{"view", "--addr", "127.0.0.1:0", filepath.Join("..", "..", "examples", "sniper", "sniper.btlog")}, "stdout")
	defer s.stop()
	addr := strings.TrimSuffix(strings.TrimPrefix(s.url, "http://"), "/")
	var out, errOut strings.Builder
	c := &cmd{ctx: context.Background(), stdout: &out, stderr: &errOut}
	if code := c.main([]string{"view", "--addr", addr, filepath.Join("..", "..", "examples", "sniper", "sniper.btlog")}); code != 1 ||
		errOut.String() != "bt: cannot serve at "+addr+": the address is in use (another bt run --serve or bt view?); give another with --serve=ADDR, or --serve=127.0.0.1:0 for a free port\n" {
		t.Errorf("a busy address: exit %d, stderr %q", code, errOut.String())
	}
}

// TestServeLimits: the server of --serve and view closes idle connections, bounds
// the time a request takes and caps the connections (monitor.NewServer).
func TestServeLimits(t *testing.T) {
	s, err := listen(monitor.New(), "127.0.0.1:0", io.Discard, "nothing")
	if err != nil {
		t.Fatal(err)
	}
	defer s.srv.Close()
	srv := s.srv
	if srv.IdleTimeout != 30*time.Second || srv.ReadTimeout != 30*time.Second || srv.ReadHeaderTimeout != 10*time.Second ||
		srv.WriteTimeout != 30*time.Second || srv.MaxConns != monitor.DefaultMaxConns {
		t.Errorf("idle %v, read %v, header %v, write %v, %d connections", srv.IdleTimeout, srv.ReadTimeout,
			srv.ReadHeaderTimeout, srv.WriteTimeout, srv.MaxConns)
	}
	resp, err := http.Get(s.url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("GET %s: %d", s.url, resp.StatusCode)
	}
}
