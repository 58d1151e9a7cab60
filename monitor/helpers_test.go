package monitor

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/gobt/bt"
)

// browser is a fake ResponseWriter for a stream of events: it keeps what the handler
// writes and, while stuck, makes its writes wait, as a browser that does not read
// does. Handler tests run under testing/synctest with it, so that synctest.Wait
// knows when the handler has written everything.
type browser struct {
	header http.Header
	code   int
	stuck  chan struct{} // while not nil, writes wait until it is closed

	mu  sync.Mutex
	buf bytes.Buffer
}

func newBrowser() *browser { return &browser{header: http.Header{}} }

func (b *browser) Header() http.Header  { return b.header }
func (b *browser) WriteHeader(code int) { b.code = code }
func (b *browser) Flush()               {}

func (b *browser) Write(p []byte) (int, error) {
	b.mu.Lock()
	stuck := b.stuck
	b.mu.Unlock()
	if stuck != nil {
		<-stuck
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *browser) text() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// event is one server-sent event.
type event struct {
	name string
	data string
}

// events parses the stream written so far: its events in order ("retry" and comment
// blocks are left out). It fails on a block that is not an event.
func (b *browser) events(t *testing.T) []event {
	t.Helper()
	var out []event
	text := b.text()
	if !strings.HasSuffix(text, "\n\n") && text != "" {
		t.Fatalf("the stream does not end with a blank line: %q", text[max(0, len(text)-80):])
	}
	for _, block := range strings.Split(strings.TrimSuffix(text, "\n\n"), "\n\n") {
		if strings.HasPrefix(block, "retry: ") || strings.HasPrefix(block, ":") || block == "" {
			continue
		}
		lines := strings.Split(block, "\n")
		if len(lines) != 2 || !strings.HasPrefix(lines[0], "event: ") || !strings.HasPrefix(lines[1], "data: ") {
			t.Fatalf("not an event: %q", block)
		}
		out = append(out, event{strings.TrimPrefix(lines[0], "event: "), strings.TrimPrefix(lines[1], "data: ")})
	}
	return out
}

// connect starts the handler of a request for the stream of tree name; cancel
// disconnects the browser.
func connect(m *Monitor, name string) (b *browser, cancel func()) {
	b = newBrowser()
	ctx, cancel := context.WithCancel(context.Background())
	r := httptest.NewRequest("GET", "/api/trees/"+name+"/events", nil).WithContext(ctx)
	go m.ServeHTTP(b, r)
	return b, cancel
}

// decode unmarshals an event's data.
func decode[T any](t *testing.T, data string) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(data), &v); err != nil {
		t.Fatalf("%v: %s", err, data)
	}
	return v
}

// wireFrame is a frame as the page reads it.
type wireFrame struct {
	Tick     uint64   `json:"tick"`
	Statuses []int    `json:"statuses"`
	Changes  [][3]int `json:"changes"`
	BB       []struct {
		Scope   int             `json:"scope"`
		Entries json.RawMessage `json:"entries"`
	} `json:"bb"`
}

type wireSnapshot struct {
	Info   treeInfo    `json:"info"`
	Synced bool        `json:"synced"`
	Base   wireFrame   `json:"base"`
	Frames []wireFrame `json:"frames"`
}

// statusesOf returns the status of every node of t, by UID-1.
func statusesOf(t *bt.Tree) []int {
	var out []int
	for n := range t.Nodes() {
		out = append(out, int(n.Status()))
	}
	return out
}

// stepper is an action that returns the statuses it is given, one per tick, then
// SUCCESS.
func stepper(id string, script ...bt.Status) *bt.Spec {
	i := 0
	return bt.Action(id, func() bt.Status {
		if i == len(script) {
			return bt.Success
		}
		i++
		return script[i-1]
	})
}
