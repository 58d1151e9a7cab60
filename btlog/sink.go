package btlog

import (
	"errors"
	"fmt"
	"time"

	"github.com/gobt/bt"
)

// A Sink is the writing end of a logger made elsewhere (the SQLite logger of the
// btsqlite module) on btlog's stream: NewStream takes the tree's changes off the
// ticking goroutine as every logger of this package does, and hands them to the Sink
// on the stream's own goroutine, one call at a time.
type Sink interface {
	// Write records batch: consecutive Transitions in the order they happened, at
	// most 2,048 of them, which may begin or end in the middle of a tick. The batch
	// is reused once Write returns. After an error nothing more is written, and the
	// error is what Flush and Close return.
	Write(batch []Transition) error
	// Flush makes what Write recorded reach the destination; Stream.Flush calls it
	// once everything queued before was written.
	Flush() error
	// Close ends the log at end (since the stream's start), after the last Write,
	// and closes what the sink opened.
	Close(end time.Duration) error
}

// A Drainer is a Sink told when the stream has handed it every change queued so far,
// after one or more Writes: a database commits there the transaction its Writes
// began, so that the more the writer fell behind, the bigger its transactions. An
// error of Drained is taken as one of Write.
type Drainer interface {
	Sink
	Drained() error
}

// Stream is a logger whose writing a Sink does: Flush, Close and SetEnabled as for
// every logger of the package (see the package doc for what they promise).
type Stream struct{ stream }

// NewStream attaches to t a logger that hands its changes to the sink that newSink
// makes, given the tree's nodes (by UID-1, in UID order) and the time the Transitions'
// Offsets count from (the tree's clock when the logger attached). A filter, if not
// nil, chooses the changes the sink sees. An error of newSink is returned as it is,
// and nothing is attached.
func NewStream(t *bt.Tree, filter Filter, newSink func(nodes []NodeInfo, start time.Time) (Sink, error)) (*Stream, error) {
	if newSink == nil {
		return nil, errors.New("btlog: nil sink constructor")
	}
	s := &Stream{}
	if err := s.init(t, filter); err != nil {
		return nil, err
	}
	sk, err := newSink(s.nodes, s.start)
	if err != nil {
		return nil, err
	}
	if sk == nil {
		return nil, errors.New("btlog: the sink constructor returned no sink")
	}
	s.run(t, sinkOf{sk})
	return s, nil
}

// Start returns the time the Offsets of the Transitions count from.
func (s *Stream) Start() time.Time { return s.start }

// sinkOf adapts a Sink to the package's own sink.
type sinkOf struct{ Sink }

func (k sinkOf) write(batch []Transition) error { return k.Write(batch) }
func (k sinkOf) flush() error                   { return k.Flush() }
func (k sinkOf) close(end time.Duration) error  { return k.Close(end) }

func (k sinkOf) drained() error {
	if d, ok := k.Sink.(Drainer); ok {
		return d.Drained()
	}
	return nil
}

// ReadTreeXML describes the nodes of a tree written with UIDs (WriteTreeXML, or
// BehaviorTree.CPP's WriteTreeToXML as its loggers store it), sorted by UID, as
// Read does for the XML of a .btlog file. A problem names the byte of data where it
// is.
func ReadTreeXML(data []byte) ([]NodeInfo, error) {
	nodes, err := xmlNodes(data)
	var xe *xmlError
	if errors.As(err, &xe) {
		return nil, fmt.Errorf("btlog: byte %d of the tree XML: %s", xe.offset, xe.msg)
	}
	return nodes, err
}
