package snapcodec

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
)

// The snapshots forged here are for the tests of the readers, this package's and
// package bt's (FuzzReadSnapshot seeds with them): each is one that a reader must
// answer in bounded time and memory.

// ManyFieldsJSON returns a JSON snapshot of a tree of one node, which has n fields,
// each of a name of its own.
func ManyFieldsJSON(fingerprint string, n int) []byte {
	return ManyNodesJSON(fingerprint, 1, n)
}

// ManyNodesJSON returns a JSON snapshot of nodes nodes, each with fields fields.
func ManyNodesJSON(fingerprint string, nodes, fields int) []byte {
	b := fmt.Appendf(nil, `{"format": "bt snapshot", "version": 1, "fingerprint": %q, "nodes": %d, "taken": "2025-01-01T00:00:00Z", "state": [`, fingerprint, nodes)
	for uid := 1; uid <= nodes; uid++ {
		if uid > 1 {
			b = append(b, ',')
		}
		b = fmt.Appendf(b, `{"uid": %d`, uid)
		for i := range fields {
			b = fmt.Appendf(b, `, "f%d": 1`, i)
		}
		b = append(b, '}')
	}
	return append(b, `], "blackboards": [{"path": "", "entries": []}]}`...)
}

// ClaimingBinary returns a binary snapshot of a tree of one node whose root blackboard
// claims entries entries, followed by size zeros (each minEntrySize zeros read as an
// empty entry), with a checksum that matches.
func ClaimingBinary(fingerprint string, size, entries int) []byte {
	b := append([]byte(nil), binaryMagic...)
	b = binary.AppendUvarint(b, Version)
	b = appendString(b, "")
	b = appendString(b, fingerprint)
	b = binary.AppendUvarint(b, 1)
	b = binary.AppendVarint(b, 1735689600e9) // taken 2025-01-01
	b = append(b, 0)
	b = binary.AppendUvarint(b, 0) // wake-ups
	b = binary.AppendUvarint(b, 0) // restarts
	b = binary.AppendUvarint(b, 0) // node states
	b = binary.AppendUvarint(b, 1) // blackboards
	b = binary.AppendUvarint(b, 0) // the root's
	b = appendString(b, "")
	b = binary.AppendUvarint(b, uint64(entries))
	b = append(b, make([]byte, size)...)
	return binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
}
