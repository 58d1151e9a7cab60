package blackboard

import (
	"math"
	"math/bits"
	"reflect"
	"time"
)

// Get reads the entry as a T, converting when needed:
//
//   - absent or empty entry: an error wrapping ErrNotExist or ErrEmpty;
//   - a value of type T (or of a type implementing an interface T): as is;
//   - numbers and bools into numeric T and bool: when exactly representable (float 3.0
//     reads as int 3, 3.5 does not; 0 and 1 read as bool, true reads as 1);
//   - a string into any T: Parse, with the enums given to New (strings are universal
//     donors);
//   - a number or bool into a string T: formatted (shortest float form, "true");
//   - other values: type assertion to T.
//
// Reading a number, bool or string into a matching basic type allocates nothing, nor
// does reading a value of another kind as its own type (a pointer, say), which takes
// a type assertion.
func Get[T any](e *Entry) (T, error) {
	var out T
	v, meta := e.load()
	if v.kind == KindEmpty {
		return out, e.missing(meta)
	}
	ok := false
	switch p := any(&out).(type) {
	case *int:
		if ok = v.kind == KindInt && bits.UintSize == 64; ok {
			*p = int(int64(v.bits))
			break
		}
		var n int64
		n, ok = exactInt(v, bits.UintSize)
		*p = int(n)
	case *int8:
		var n int64
		n, ok = exactInt(v, 8)
		*p = int8(n)
	case *int16:
		var n int64
		n, ok = exactInt(v, 16)
		*p = int16(n)
	case *int32:
		var n int64
		n, ok = exactInt(v, 32)
		*p = int32(n)
	case *int64:
		if ok = v.kind == KindInt; ok {
			*p = int64(v.bits)
			break
		}
		*p, ok = exactInt(v, 64)
	case *uint:
		var u uint64
		u, ok = exactUint(v, bits.UintSize)
		*p = uint(u)
	case *uint8:
		var u uint64
		u, ok = exactUint(v, 8)
		*p = uint8(u)
	case *uint16:
		var u uint64
		u, ok = exactUint(v, 16)
		*p = uint16(u)
	case *uint32:
		var u uint64
		u, ok = exactUint(v, 32)
		*p = uint32(u)
	case *uint64:
		*p, ok = exactUint(v, 64)
	case *float32:
		var f float64
		f, ok = toFloat(v, 32)
		*p = float32(f)
	case *float64:
		if ok = v.kind == KindFloat; ok {
			*p = math.Float64frombits(v.bits)
			break
		}
		*p, ok = toFloat(v, 64)
	case *bool:
		*p, ok = toBool(v)
	case *string:
		*p, ok = v.s(), v.kind == KindString
	case *time.Duration:
		var n int64
		n, ok = exactInt(v, 64)
		*p = time.Duration(n)
	case *Value:
		*p, ok = v, true
	}
	if ok {
		return out, nil
	}
	if v.kind == KindOther { // a pointer, a struct, a slice … of type T: no reflection
		if x, ok := v.other().(T); ok {
			return x, nil
		}
	}
	x, err := e.convert(v, reflect.TypeFor[T]())
	if err != nil {
		var zero T
		return zero, err
	}
	return x.(T), nil
}

func (e *Entry) missing(meta uint64) error {
	switch {
	case e.env == nil:
		return e.invalid()
	case meta&metaExists == 0:
		return errorf(ErrNotExist, nil, "entry %q does not exist", e.Key())
	}
	return errorf(ErrEmpty, nil, "entry %q is empty", e.Key())
}

// convert is Get's general path: v (not empty) into a value of type t.
func (e *Entry) convert(v Value, t reflect.Type) (any, error) {
	vt := v.Type()
	k := t.Kind()
	switch {
	case vt == t, k == reflect.Interface && vt.Implements(t):
		return v.Any(), nil
	case v.kind == KindString:
		x, err := Parse(v.s(), t, e.enums())
		if err != nil {
			return nil, errorf(ErrType, err, "entry %q: %v", e.Key(), err)
		}
		return x, nil
	case isScalar(v) && isScalarKind(k):
		if c, ok := castScalar(v, declOf(t)); ok {
			return c.Any(), nil
		}
	case isScalar(v) && k == reflect.String:
		return formatScalar(v, declOf(t)).Any(), nil
	case v.kind == KindOther && vt.AssignableTo(t): // e.g. []int read as a named slice type
		return reflect.ValueOf(v.other()).Convert(t).Interface(), nil
	}
	if isJSONObjectFor(v, t) { // a JSON object imported as a map, read as a struct
		m, _ := jsonObject(v)
		x, err := decodeObject(m, t)
		if err != nil {
			return nil, errorf(ErrType, err, "entry %q: %v", e.Key(), err)
		}
		return x, nil
	}
	return nil, errorf(ErrType, nil, "entry %q: cannot read %s as %s", e.Key(), v.describe(), t)
}

// Put writes v, a Go value, into the entry with Set semantics (Entry.Set takes a Value;
// the port writers of package bt, bt.Set and Out.Set, come down to Put). Numbers and
// bools of the basic types (and time.Duration) are written without allocating.
func Put[T any](e *Entry, v T) error {
	var val Value
	switch x := any(&v).(type) { // a pointer, so that v does not escape
	case *int:
		val = Value{kind: KindInt, tc: tcInt, bits: uint64(*x)}
	case *int8:
		val = Value{kind: KindInt, tc: tcInt8, bits: uint64(*x)}
	case *int16:
		val = Value{kind: KindInt, tc: tcInt16, bits: uint64(*x)}
	case *int32:
		val = Value{kind: KindInt, tc: tcInt32, bits: uint64(*x)}
	case *int64:
		val = Value{kind: KindInt, tc: tcInt64, bits: uint64(*x)}
	case *uint:
		val = uintValue(uint64(*x), tcUint)
	case *uint8:
		val = Value{kind: KindInt, tc: tcUint8, bits: uint64(*x)}
	case *uint16:
		val = Value{kind: KindInt, tc: tcUint16, bits: uint64(*x)}
	case *uint32:
		val = Value{kind: KindInt, tc: tcUint32, bits: uint64(*x)}
	case *uint64:
		val = uintValue(*x, tcUint64)
	case *float32:
		val = Value{kind: KindFloat, tc: tcFloat32, bits: math.Float64bits(float64(*x))}
	case *float64:
		val = Value{kind: KindFloat, tc: tcFloat64, bits: math.Float64bits(*x)}
	case *bool:
		val = Value{kind: KindBool, tc: tcBool, bits: b2u(*x)}
	case *string:
		val = String(*x)
	case *time.Duration:
		val = Value{kind: KindInt, tc: tcDuration, bits: uint64(*x)}
	default:
		val = ValueOf(v)
	}
	return e.Set(val)
}
