package btlog

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/gobt/bt"
)

// Slog writes a record per status change to a *slog.Logger, with the message
// "status change" and the attributes node (the path), uid, prev and status:
//
//	level=INFO msg="status change" node=nav/MoveTo uid=7 prev=IDLE status=RUNNING
//
// The record's time is the change's, from the tree's clock. Records are made and
// handed to the logger's handler by the Slog's own goroutine, so a slow handler never
// holds up a tick; Flush waits for them.
type Slog struct{ stream }

// SlogOptions configure a Slog; the zero value (or nil) logs every change at
// slog.LevelInfo.
type SlogOptions struct {
	// Level is the level of the records; nil means slog.LevelInfo.
	Level slog.Leveler
	// Filter, when set, chooses the changes to log.
	Filter Filter
}

// NewSlog attaches a Slog to t that logs to l.
func NewSlog(t *bt.Tree, l *slog.Logger, o *SlogOptions) (*Slog, error) {
	if l == nil {
		return nil, errors.New("btlog: nil *slog.Logger")
	}
	if o == nil {
		o = &SlogOptions{}
	}
	s := &Slog{}
	if err := s.init(t, o.Filter); err != nil {
		return nil, err
	}
	level := o.Level
	if level == nil {
		level = slog.LevelInfo
	}
	s.run(t, &slogSink{h: l.Handler(), level: level, nodes: s.nodes, start: s.start})
	return s, nil
}

type slogSink struct {
	h     slog.Handler
	level slog.Leveler
	nodes []NodeInfo
	start time.Time
}

func (s *slogSink) write(batch []Transition) error {
	ctx := context.Background()
	level := s.level.Level()
	if !s.h.Enabled(ctx, level) {
		return nil
	}
	var errs error
	for _, tr := range batch {
		r := slog.NewRecord(s.start.Add(tr.Offset), level, "status change", 0)
		r.AddAttrs(slog.String("node", s.nodes[tr.UID-1].Path), slog.Int("uid", int(tr.UID)),
			slog.String("prev", tr.Previous.String()), slog.String("status", tr.Status.String()))
		if err := s.h.Handle(ctx, r); err != nil && errs == nil {
			errs = err
		}
	}
	return errs
}

func (s *slogSink) flush() error { return nil }

func (s *slogSink) close(time.Duration) error { return nil }
