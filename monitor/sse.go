package monitor

import (
	"fmt"
	"net/http"
	"time"
)

// writeTimeout bounds one write to a browser: a browser that takes longer (stuck, or
// gone without closing the connection) is disconnected, and reconnects if it can.
const writeTimeout = 10 * time.Second

// serveEvents streams a tree to a browser as server-sent events: first "snapshot"
// (the tree, its blackboard scopes and its history), then a "tick" per frame, "stale"
// when the feed stops observing the tree (its state is no longer followed) and "gone"
// when the tree is removed. A browser that falls behind gets a new snapshot.
func (m *Monitor) serveEvents(w http.ResponseWriter, r *http.Request) {
	h := m.tree(r.PathValue("name"))
	if h == nil {
		http.Error(w, fmt.Sprintf("no tree named %q", r.PathValue("name")), http.StatusNotFound)
		return
	}
	if int(m.viewers.Add(1)) > m.cfg.maxViewers {
		m.viewers.Add(-1)
		w.Header().Set("Retry-After", "10")
		http.Error(w, fmt.Sprintf("too many viewers: this monitor serves %d at a time", m.cfg.maxViewers), http.StatusServiceUnavailable)
		return
	}
	defer m.viewers.Add(-1)
	c, ok := h.join()
	if !ok {
		http.Error(w, fmt.Sprintf("no tree named %q", r.PathValue("name")), http.StatusNotFound)
		return
	}
	defer h.leave(c)
	out := newStreamWriter(w) // each write sets its deadline: the server's WriteTimeout does not end the stream
	hd := w.Header()
	hd.Set("Content-Type", "text/event-stream")
	hd.Set("Cache-Control", "no-store")
	hd.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		return
	}
	write := func(chunks ...[]byte) bool {
		for _, b := range chunks {
			if _, err := out.Write(b); err != nil {
				return false
			}
		}
		return out.rc.Flush() == nil
	}
	if !write([]byte("retry: 1000\n\n")) {
		return
	}
	beat := time.NewTicker(m.cfg.heartbeat)
	defer beat.Stop()
	for {
		snap, msgs := h.take(c)
		if snap != nil {
			out.Write([]byte("event: snapshot\ndata: "))
			snap.WriteTo(out)
			if !write([]byte("\n\n")) {
				return
			}
		}
		if len(msgs) > 0 && !write(msgs...) {
			return
		}
		select {
		case <-c.kick:
		case <-beat.C:
			if !write([]byte(": ping\n\n")) {
				return
			}
		case <-h.done:
			write([]byte("event: gone\ndata: {}\n\n"))
			return
		case <-r.Context().Done():
			return
		}
	}
}

// streamWriter writes a response, each write bounded by writeTimeout: a browser that
// does not read is cut off however long the response, and one that reads is never cut
// off by the server's write timeout. After an error it writes nothing.
type streamWriter struct {
	w   http.ResponseWriter
	rc  *http.ResponseController
	err error
}

func newStreamWriter(w http.ResponseWriter) *streamWriter {
	return &streamWriter{w: w, rc: http.NewResponseController(w)}
}

func (s *streamWriter) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	s.rc.SetWriteDeadline(time.Now().Add(writeTimeout))
	var n int
	n, s.err = s.w.Write(p)
	return n, s.err
}
