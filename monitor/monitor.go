package monitor

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gobt/bt"
	"github.com/gobt/bt/btlog"
)

//go:embed page
var pageFS embed.FS

// Monitor is an http.Handler that serves the page and the data of the trees added to
// it: live trees (Add) and recorded runs (AddLog), each under a name.
//
//	GET /                          the page (index.html and assets/)
//	GET /api/trees                 the trees: name, live or replay, last tick, watchers
//	GET /api/trees/{name}          a tree's snapshot: its nodes, blackboard scopes and history
//	GET /api/trees/{name}/events   server-sent events: a snapshot, then a "tick" per frame
//
// It is read-only, and refuses requests from other origins (see ServeHTTP). Mount it
// under a prefix with http.StripPrefix: the page uses relative URLs.
type Monitor struct {
	cfg config
	mux *http.ServeMux

	viewers atomic.Int32 // event streams being served

	mu    sync.Mutex
	trees map[string]*hub
	names []string // in the order they were added
}

type config struct {
	history    int
	buffer     int
	always     bool
	gap        time.Duration
	heartbeat  time.Duration
	maxViewers int
}

// An Option configures a Monitor.
type Option func(*config)

// History keeps the last n frames (ticks) of each live tree for the timeline (default
// 1000; n < 1 means 1). A replay keeps every step of its file.
func History(n int) Option { return func(c *config) { c.history = max(n, 1) } }

// Buffer lets a browser have n messages waiting before it is resynchronised from a
// snapshot (default 256; n < 1 means 1). It also bounds the frames a Feed hands over
// before its monitor takes them.
func Buffer(n int) Option { return func(c *config) { c.buffer = max(n, 1) } }

// ObserveAlways makes feeds observe their trees also while no browser is connected,
// so that the timeline holds the last ticks from the start. The trees then cost what
// an observed tree costs (see Feed).
func ObserveAlways() Option { return func(c *config) { c.always = true } }

// StepGap sets the pause that separates the steps of a replay (default DefaultGap): a
// .btlog file records when each change happened, not in which tick.
func StepGap(d time.Duration) Option { return func(c *config) { c.gap = d } }

// DefaultMaxViewers is how many event streams a Monitor serves at a time (see MaxViewers).
const DefaultMaxViewers = 32

// MaxViewers lets at most n browsers follow trees at a time, all trees together
// (default DefaultMaxViewers; n < 1 means 1): the stream of one more is refused with
// 503 Service Unavailable, while the page and the other requests are served as usual.
func MaxViewers(n int) Option { return func(c *config) { c.maxViewers = max(n, 1) } }

// New returns a Monitor with no trees.
func New(opts ...Option) *Monitor {
	m := &Monitor{cfg: config{history: 1000, buffer: 256, gap: DefaultGap, heartbeat: 15 * time.Second,
		maxViewers: DefaultMaxViewers},
		trees: map[string]*hub{}}
	for _, o := range opts {
		if o != nil {
			o(&m.cfg)
		}
	}
	page, err := fs.Sub(pageFS, "page")
	if err != nil {
		panic(err)
	}
	m.mux = http.NewServeMux()
	m.mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		http.ServeFileFS(w, r, page, "index.html")
	})
	m.mux.Handle("GET /assets/", http.FileServerFS(page))
	m.mux.HandleFunc("GET /api/trees", m.serveList)
	m.mux.HandleFunc("GET /api/trees/{name}", m.serveSnapshot)
	m.mux.HandleFunc("GET /api/trees/{name}/events", m.serveEvents)
	return m
}

// Add adds the tree t under name and returns its Feed, which follows the tree by
// itself. Call it before the tree ticks or between ticks, on the goroutine that ticks
// it; with ObserveAlways, the feed observes the tree from there on.
func (m *Monitor) Add(name string, t *bt.Tree) (*Feed, error) {
	switch {
	case t == nil:
		return nil, errors.New("monitor: Add: nil tree")
	case t.Root() == nil:
		return nil, fmt.Errorf("monitor: Add %q: %w", name, bt.ErrEmptyTree)
	}
	info, scopes := describe(name, t)
	h := newHub(info, m.cfg.history, m.cfg.buffer, m.cfg.always)
	if err := m.add(name, h); err != nil {
		return nil, err
	}
	return newFeed(m, name, h, t, scopes), nil
}

// AddLog adds the recorded run l (btlog.Read, btlog.ReadFile) under name: the page
// shows it with its timeline. Its steps are the bursts of changes of the file (see
// StepGap).
func (m *Monitor) AddLog(name string, l *btlog.Log) error {
	if l == nil {
		return errors.New("monitor: AddLog: nil log")
	}
	info, err := describeLog(name, l)
	if err != nil {
		return err
	}
	h := newHub(info, 0, m.cfg.buffer, false)
	h.replay = newReplay(h.info, l, m.cfg.gap)
	return m.add(name, h)
}

func (m *Monitor) add(name string, h *hub) error {
	if name == "" {
		return errors.New("monitor: a tree needs a name")
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, dup := m.trees[name]; dup {
		return fmt.Errorf("monitor: there is already a tree named %q", name)
	}
	m.trees[name] = h
	m.names = append(m.names, name)
	return nil
}

// Remove removes the tree name; browsers watching it are told it is gone. The feed of
// a live tree stops observing it at the start of its next tick (Feed.Close, on the
// ticking goroutine, stops at once). It may be called from any goroutine.
func (m *Monitor) Remove(name string) {
	m.mu.Lock()
	h := m.trees[name]
	m.mu.Unlock()
	if h != nil {
		m.remove(name, h)
	}
}

func (m *Monitor) remove(name string, h *hub) {
	m.mu.Lock()
	if m.trees[name] == h {
		delete(m.trees, name)
		for i, n := range m.names {
			if n == name {
				m.names = append(m.names[:i:i], m.names[i+1:]...)
				break
			}
		}
	}
	m.mu.Unlock()
	h.remove()
}

// Names returns the names of the trees, in the order they were added.
func (m *Monitor) Names() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.names...)
}

func (m *Monitor) tree(name string) *hub {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.trees[name]
}

// ServeHTTP serves the page and the data. Only GET and HEAD are served (405 otherwise),
// and a request from another origin — an Origin header that is not this host's, or a
// browser's Sec-Fetch-Site "cross-site" — is refused with 403, so that no other site
// open in the browser can read the trees. On a loopback connection, a request whose
// Host is not a loopback name or address is refused with 403 too: a site whose name was
// made to resolve to 127.0.0.1 (DNS rebinding) cannot read the trees either.
func (m *Monitor) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "the monitor is read-only", http.StatusMethodNotAllowed)
		return
	}
	if !sameOrigin(r) {
		http.Error(w, "cross-origin request refused", http.StatusForbidden)
		return
	}
	if !knownHost(r) {
		http.Error(w, "request for another host refused", http.StatusForbidden)
		return
	}
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'")
	h.Set("Referrer-Policy", "no-referrer")
	m.mux.ServeHTTP(w, r)
}

// knownHost reports whether r, when it came on a loopback connection, names a loopback
// host: "localhost", a name under .localhost, or a loopback address. A page of another
// site whose name was made to resolve to 127.0.0.1 (DNS rebinding) sends its own name
// in Host, and its requests are same-origin for the browser: only the Host header tells
// them apart. On any other connection (a monitor served on a network address, which
// answers to the names that reach it) Host is not checked.
func knownHost(r *http.Request) bool {
	local, ok := r.Context().Value(http.LocalAddrContextKey).(*net.TCPAddr)
	if !ok || !local.IP.IsLoopback() || r.Host == "" {
		return true
	}
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(strings.TrimSuffix(strings.TrimPrefix(host, "["), "]"))
	return ip != nil && ip.IsLoopback()
}

// sameOrigin reports whether r comes from a page of this host, or not from a page.
func sameOrigin(r *http.Request) bool {
	if r.Header.Get("Sec-Fetch-Site") == "cross-site" {
		return false
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true // not a cross-origin request of a browser
	}
	u, err := url.Parse(origin)
	return err == nil && u.Host != "" && strings.EqualFold(u.Host, r.Host)
}

func (m *Monitor) serveList(w http.ResponseWriter, r *http.Request) {
	list := []summary{}
	for _, name := range m.Names() {
		if h := m.tree(name); h != nil {
			list = append(list, h.summary(name))
		}
	}
	writeJSON(w, list)
}

func (m *Monitor) serveSnapshot(w http.ResponseWriter, r *http.Request) {
	h := m.tree(r.PathValue("name"))
	if h == nil {
		http.Error(w, fmt.Sprintf("no tree named %q", r.PathValue("name")), http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	if r.Method == http.MethodHead {
		return
	}
	out := newStreamWriter(w)
	h.snapshot(nil).WriteTo(out)
	out.Write([]byte("\n"))
}

func writeJSON(w http.ResponseWriter, v any) {
	js, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(append(js, '\n'))
}
