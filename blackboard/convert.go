package blackboard

import (
	"math"
	"math/bits"
	"reflect"
	"strconv"
)

// Numeric conversion rules, shared by Set, Assign and Get:
//   - into an integer type: the exact value, in range (2.0 → 2; 2.5, -1 → uint, 300 → int8 fail);
//   - into a float type: an integer only if exactly representable, a float rounded to the
//     nearest (float64 → float32) unless it overflows;
//   - into bool: exactly 0 or 1; a bool into a number gives 1 or 0.

const two63 = 1 << 63 // as a float64: 9.223372036854775808e18, exact

func bitSize(k reflect.Kind) int {
	switch k {
	case reflect.Int8, reflect.Uint8:
		return 8
	case reflect.Int16, reflect.Uint16:
		return 16
	case reflect.Int32, reflect.Uint32, reflect.Float32:
		return 32
	case reflect.Int, reflect.Uint, reflect.Uintptr:
		return bits.UintSize
	}
	return 64
}

// exactInt returns v as a signed integer of the given size when it is exactly one.
func exactInt(v Value, size int) (int64, bool) {
	var n int64
	switch v.kind {
	case KindInt, KindBool:
		n = int64(v.bits)
	case KindFloat:
		f := math.Float64frombits(v.bits)
		if f != math.Trunc(f) || f < -two63 || f >= two63 {
			return 0, false
		}
		n = int64(f)
	default: // KindUint is above math.MaxInt64 by construction
		return 0, false
	}
	if size < 64 && (n < -1<<(size-1) || n > 1<<(size-1)-1) {
		return 0, false
	}
	return n, true
}

// exactUint returns v as an unsigned integer of the given size when it is exactly one.
func exactUint(v Value, size int) (uint64, bool) {
	var u uint64
	switch v.kind {
	case KindInt:
		if int64(v.bits) < 0 {
			return 0, false
		}
		u = v.bits
	case KindUint, KindBool:
		u = v.bits
	case KindFloat:
		f := math.Float64frombits(v.bits)
		if f != math.Trunc(f) || f < 0 || f >= 2*two63 {
			return 0, false
		}
		u = uint64(f)
	default:
		return 0, false
	}
	if size < 64 && u > 1<<size-1 {
		return 0, false
	}
	return u, true
}

// toFloat returns v as a float of the given size (the result is a float64 holding a
// float32 value when size is 32).
func toFloat(v Value, size int) (float64, bool) {
	var f float64
	switch v.kind {
	case KindFloat:
		f = math.Float64frombits(v.bits)
		if size == 32 {
			f32 := float64(float32(f))
			if math.IsInf(f32, 0) && !math.IsInf(f, 0) {
				return 0, false
			}
			return f32, true
		}
		return f, true
	case KindInt:
		n := int64(v.bits)
		f = float64(n)
		if f >= two63 || int64(f) != n {
			return 0, false
		}
	case KindUint:
		f = float64(v.bits)
		if f >= 2*two63 || uint64(f) != v.bits {
			return 0, false
		}
	case KindBool:
		return float64(v.bits), true
	default:
		return 0, false
	}
	if size == 32 && float64(float32(f)) != f {
		return 0, false
	}
	return f, true
}

// toBool returns v as a bool: a KindBool, or a number that is exactly 0 or 1.
func toBool(v Value) (bool, bool) {
	switch v.kind {
	case KindBool:
		return v.bits != 0, true
	case KindInt:
		if v.bits <= 1 {
			return v.bits == 1, true
		}
	case KindFloat:
		switch math.Float64frombits(v.bits) {
		case 0:
			return false, true
		case 1:
			return true, true
		}
	}
	return false, false
}

func isScalar(v Value) bool {
	return v.kind >= KindInt && v.kind <= KindBool
}

// castScalar converts a number or bool into the scalar type d, if the value survives.
func castScalar(v Value, d *declared) (Value, bool) {
	k := scalarKind(d.tc, d.t)
	switch {
	case isIntKind(k):
		if n, ok := exactInt(v, bitSize(k)); ok {
			return scalar(KindInt, uint64(n), "", d), true
		}
	case isUintKind(k):
		if u, ok := exactUint(v, bitSize(k)); ok {
			kind := KindInt
			if u > math.MaxInt64 {
				kind = KindUint
			}
			return scalar(kind, u, "", d), true
		}
	case isFloatKind(k):
		if f, ok := toFloat(v, bitSize(k)); ok {
			return scalar(KindFloat, math.Float64bits(f), "", d), true
		}
	case k == reflect.Bool:
		if b, ok := toBool(v); ok {
			return scalar(KindBool, b2u(b), "", d), true
		}
	}
	return Value{}, false
}

// formatScalar converts a number or bool into the string type d (Get[string] from a number).
func formatScalar(v Value, d *declared) Value {
	return scalar(KindString, 0, v.text(), d)
}

// intSizeOK reports whether n fits a signed integer of the given size.
func intSizeOK(n int64, size int) bool {
	return size >= 64 || (n >= -1<<(size-1) && n <= 1<<(size-1)-1)
}

// quote quotes s for messages, shortened.
func quote(s string) string { return strconv.Quote(shorten(s)) }
