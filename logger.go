package bt

import "log/slog"

// WithLogger makes the tree's logger l, which the Log node writes to (the default is
// slog.Default()).
func WithLogger(l *slog.Logger) Option { return func(t *Tree) { t.config().logger = l } }

// Logger returns the tree's logger: the one given WithLogger, or slog.Default().
func (t *Tree) Logger() *slog.Logger {
	if t.cfg == nil || t.cfg.logger == nil { // (t.cfg is nil in the zero Tree)
		return slog.Default()
	}
	return t.cfg.logger
}
