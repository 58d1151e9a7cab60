package groot2

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// FuzzRequest sends any request to a publisher (without its sockets): the reply is
// always an error of two parts or a reply header of the request's type and id, and
// nothing panics.
func FuzzRequest(f *testing.F) {
	for _, seed := range []struct{ typ, body string }{
		{"T", ""}, {"S", ""}, {"B", "MainTree;x"}, {"I", hookBody(2, breakpoint, pre, false)},
		{"I", "[" + hookBody(2, replace, post, true) + "]"}, {"R", `{"uid":2,"position":0}`},
		{"U", unlockBody(2, pre, "SUCCESS", true)}, {"D", ""}, {"A", ""}, {"X", ""},
		{"r", "start"}, {"t", ""}, {"I", `{"enabled":true,"uid":1e3}`},
	} {
		f.Add(append([]byte{protocolID, seed.typ[0]}, 1, 2, 3, 4), []byte(seed.body), true)
	}
	tree, _ := buildTree(f, mainTree(`<Sequence><Count name="a"/><AlwaysSuccess/></Sequence>`))
	p, err := newPublisher(tree, DefaultHeartbeat)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, header, body []byte, withBody bool) {
		req := [][]byte{header}
		if withBody {
			req = append(req, body)
		}
		reply := p.handle(req)
		switch {
		case len(reply) == 2 && string(reply[0]) == "error":
		case len(reply) >= 1 && len(reply) <= 2 && len(reply[0]) == replyHeaderSize &&
			bytes.Equal(reply[0][:requestHeaderSize], header):
		default:
			t.Fatalf("reply %q to %q", reply, req)
		}
		p.enableAllHooks(false)                    // no breakpoint may pause the tick
		if _, err := tree.TickOnce(); err != nil { // sets and removes tick functions
			t.Fatal(err)
		}
	})
}

// FuzzJSONToMsgpack converts any JSON without panicking.
func FuzzJSONToMsgpack(f *testing.F) {
	for _, s := range []string{`null`, `{"a":[1,-2,3.5,"x",true]}`, `18446744073709551616`, `-9223372036854775809`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := jsonToMsgpack(data)
		if err == nil && len(b) == 0 {
			t.Fatalf("%q: no bytes", data)
		}
	})
}

// FuzzGuardScan: the guard reads any bytes a peer sends, whole or a byte at a time,
// to the same verdict and state, and never lets a message beyond its limit pass.
func FuzzGuardScan(f *testing.F) {
	f.Add([]byte{flagMore, 0, flagMore, 3, 'a', 'b', 'c', 0, 1, 'x'})
	f.Add(binary.BigEndian.AppendUint64([]byte{flagLong}, 1<<40))
	f.Add(append([]byte{flagCommand, 5}, "PING\x00"...))
	f.Fuzz(func(t *testing.T, wire []byte) {
		whole := &guard{limit: maxSubMessage}
		errWhole := whole.scan(wire)
		bytewise := &guard{limit: maxSubMessage}
		var errBytes error
		for i := 0; i < len(wire) && errBytes == nil; i++ {
			errBytes = bytewise.scan(wire[i : i+1])
		}
		if (errWhole == nil) != (errBytes == nil) {
			t.Fatalf("whole: %v; a byte at a time: %v", errWhole, errBytes)
		}
		if errWhole != nil {
			return
		}
		if whole.state != bytewise.state || whole.frames != bytewise.frames || whole.total != bytewise.total {
			t.Fatalf("whole and a byte at a time end in different states: %+v, %+v", whole, bytewise)
		}
		if whole.total > whole.limit || whole.pending.Load() != int64(whole.total) {
			t.Fatalf("a message of %d bytes (%d noted) passed the limit of %d", whole.total, whole.pending.Load(), whole.limit)
		}
	})
}
