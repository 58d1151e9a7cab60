package btlog

import (
	"io"
	"strconv"
	"time"

	"github.com/gobt/bt"
)

// JSONL writes a JSON object per status change, a line each (JSON Lines), with the
// attributes Slog gives its records:
//
//	{"time":"2000-01-01T00:00:00.012Z","node":"nav/MoveTo","uid":7,"prev":"IDLE","status":"RUNNING"}
//
// The time is the change's, from the tree's clock, in UTC. Lines are formatted and
// written by the logger's own goroutine; Flush waits for them.
type JSONL struct{ stream }

// JSONLOptions configure a JSONL; the zero value (or nil) writes every change.
type JSONLOptions struct {
	// Filter, when set, chooses the changes to write.
	Filter Filter
}

// NewJSONL attaches a JSONL to t that writes to w.
func NewJSONL(t *bt.Tree, w io.Writer, o *JSONLOptions) (*JSONL, error) {
	if o == nil {
		o = &JSONLOptions{}
	}
	j := &JSONL{}
	out, err := j.open(t, w, nil, o.Filter)
	if err != nil {
		return nil, err
	}
	paths := make([][]byte, len(j.nodes))
	for i, n := range j.nodes {
		paths[i] = appendJSON(nil, n.Path)
	}
	j.run(t, &jsonlSink{output: out, paths: paths, start: j.start.UTC()})
	return j, nil
}

type jsonlSink struct {
	output
	paths [][]byte // of the nodes, as JSON, by UID-1
	start time.Time
}

func (j *jsonlSink) write(batch []Transition) error {
	for _, tr := range batch {
		b := append(j.buf, `{"time":"`...)
		b = j.start.Add(tr.Offset).AppendFormat(b, time.RFC3339Nano)
		b = append(b, `","node":`...)
		b = append(b, j.paths[tr.UID-1]...)
		b = append(b, `,"uid":`...)
		b = strconv.AppendUint(b, uint64(tr.UID), 10)
		b = append(b, `,"prev":"`...)
		b = append(b, tr.Previous.String()...)
		b = append(b, `","status":"`...)
		b = append(b, tr.Status.String()...)
		j.buf = append(b, "\"}\n"...)
	}
	return j.emit()
}

func (j *jsonlSink) close(time.Duration) error { return j.output.close() }
