package bt

import (
	"testing"
	"unsafe"
)

// TestNodeSizes keeps a node to the 32 bytes a tick reads, half a cache line, and its
// meta to 16 (see Node and nodeMeta).
func TestNodeSizes(t *testing.T) {
	if s := unsafe.Sizeof(Node{}); s != 32 {
		t.Errorf("a Node takes %d bytes, want 32", s)
	}
	if s := unsafe.Sizeof(nodeMeta{}); s != 16 {
		t.Errorf("a nodeMeta takes %d bytes, want 16", s)
	}
}
