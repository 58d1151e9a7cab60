package groot2

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
)

// jsonToMsgpack converts a JSON document to MessagePack byte for byte as
// nlohmann::json's to_msgpack does, which is how BehaviorTree.CPP sends blackboards to
// Groot2:
//
//	null, false, true          0xc0, 0xc2, 0xc3
//	integer ≥ 0                positive fixint, then uint 8/16/32/64, the smallest that holds it
//	integer < 0                negative fixint (≥ -32), then int 8/16/32/64
//	other number               float 32 when the value survives the round trip, else float 64
//	string                     fixstr (< 32 bytes), str 8/16/32
//	array                      fixarray (< 16), array 16/32
//	object                     fixmap (< 16), map 16/32, keys sorted byte-wise (std::map),
//	                           the last of duplicate keys kept
//
// A JSON number is an integer when it has no fraction and no exponent and fits in 64
// bits (uint64 for a non-negative one), as nlohmann's lexer reads it.
func jsonToMsgpack(data []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("unexpected text after the JSON value")
	}
	return appendMsgpack(nil, v), nil
}

// appendMsgpack appends v, a value decoded by encoding/json with UseNumber.
func appendMsgpack(b []byte, v any) []byte {
	switch v := v.(type) {
	case nil:
		return append(b, 0xc0)
	case bool:
		if v {
			return append(b, 0xc3)
		}
		return append(b, 0xc2)
	case json.Number:
		return appendNumber(b, v.String())
	case string:
		return append(appendLength(b, len(v), 0xa0, 32, 0xd9, 0xda), v...)
	case []any:
		b = appendLength(b, len(v), 0x90, 16, 0, 0xdc)
		for _, x := range v {
			b = appendMsgpack(b, x)
		}
		return b
	case map[string]any:
		b = appendLength(b, len(v), 0x80, 16, 0, 0xde)
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			b = appendMsgpack(b, k)
			b = appendMsgpack(b, v[k])
		}
		return b
	}
	panic("groot2: not a decoded JSON value") // unreachable: the decoder makes no other type
}

// appendLength appends the header of a string, array or map of n elements: fix|n
// below fixMax, else the 8-bit form (strings only: code8 is 0 otherwise), the 16-bit
// one (code16) or the 32-bit one (code16+1).
func appendLength(b []byte, n int, fix byte, fixMax int, code8, code16 byte) []byte {
	switch {
	case n < fixMax:
		return append(b, fix|byte(n))
	case code8 != 0 && n <= math.MaxUint8:
		return append(b, code8, byte(n))
	case n <= math.MaxUint16:
		return binary.BigEndian.AppendUint16(append(b, code16), uint16(n))
	default:
		return binary.BigEndian.AppendUint32(append(b, code16+1), uint32(n))
	}
}

func appendNumber(b []byte, s string) []byte {
	if !strings.ContainsAny(s, ".eE") {
		if s[0] == '-' {
			if n, err := strconv.ParseInt(s, 10, 64); err == nil {
				return appendInt(b, n)
			}
		} else if n, err := strconv.ParseUint(s, 10, 64); err == nil {
			return appendUint(b, n)
		}
	}
	f, _ := strconv.ParseFloat(s, 64) // a JSON number, ±Inf when out of range
	if f >= -math.MaxFloat32 && f <= math.MaxFloat32 && float64(float32(f)) == f {
		return binary.BigEndian.AppendUint32(append(b, 0xca), math.Float32bits(float32(f)))
	}
	return binary.BigEndian.AppendUint64(append(b, 0xcb), math.Float64bits(f))
}

func appendUint(b []byte, n uint64) []byte {
	switch {
	case n < 128:
		return append(b, byte(n))
	case n <= math.MaxUint8:
		return append(b, 0xcc, byte(n))
	case n <= math.MaxUint16:
		return binary.BigEndian.AppendUint16(append(b, 0xcd), uint16(n))
	case n <= math.MaxUint32:
		return binary.BigEndian.AppendUint32(append(b, 0xce), uint32(n))
	default:
		return binary.BigEndian.AppendUint64(append(b, 0xcf), n)
	}
}

func appendInt(b []byte, n int64) []byte {
	switch {
	case n >= 0:
		return appendUint(b, uint64(n))
	case n >= -32:
		return append(b, byte(n))
	case n >= math.MinInt8:
		return append(b, 0xd0, byte(n))
	case n >= math.MinInt16:
		return binary.BigEndian.AppendUint16(append(b, 0xd1), uint16(n))
	case n >= math.MinInt32:
		return binary.BigEndian.AppendUint32(append(b, 0xd2), uint32(n))
	default:
		return binary.BigEndian.AppendUint64(append(b, 0xd3), uint64(n))
	}
}
