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
	c, ok := h.join()
	if !ok {
		http.Error(w, fmt.Sprintf("no tree named %q", r.PathValue("name")), http.StatusNotFound)
		return
	}
	defer h.leave(c)
	rc := http.NewResponseController(w)
	hd := w.Header()
	hd.Set("Content-Type", "text/event-stream")
	hd.Set("Cache-Control", "no-store")
	hd.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		return
	}
	write := func(chunks ...[]byte) bool {
		rc.SetWriteDeadline(time.Now().Add(writeTimeout))
		for _, b := range chunks {
			if _, err := w.Write(b); err != nil {
				return false
			}
		}
		return rc.Flush() == nil
	}
	if !write([]byte("retry: 1000\n\n")) {
		return
	}
	beat := time.NewTicker(m.cfg.heartbeat)
	defer beat.Stop()
	for {
		snap, msgs := h.take(c)
		if snap != nil {
			msgs = append([][]byte{snap}, msgs...)
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
