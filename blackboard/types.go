package blackboard

import (
	"reflect"
	"time"
)

// tcode names the Go type of a scalar payload without a reflect.Type, so that numbers,
// bools and strings of the common types are stored and copied as plain integers.
// tcNamed means "some other type": the reflect.Type then travels next to the payload.
type tcode uint8

const (
	tcNone tcode = iota // Empty or Other: the type is the dynamic type of the value
	tcInt
	tcInt8
	tcInt16
	tcInt32
	tcInt64
	tcUint
	tcUint8
	tcUint16
	tcUint32
	tcUint64
	tcUintptr
	tcFloat32
	tcFloat64
	tcBool
	tcString
	tcDuration
	tcNamed
)

// basicTypes maps a code to its type. It is read-only after package initialisation.
var basicTypes = [...]reflect.Type{
	tcInt:      reflect.TypeFor[int](),
	tcInt8:     reflect.TypeFor[int8](),
	tcInt16:    reflect.TypeFor[int16](),
	tcInt32:    reflect.TypeFor[int32](),
	tcInt64:    reflect.TypeFor[int64](),
	tcUint:     reflect.TypeFor[uint](),
	tcUint8:    reflect.TypeFor[uint8](),
	tcUint16:   reflect.TypeFor[uint16](),
	tcUint32:   reflect.TypeFor[uint32](),
	tcUint64:   reflect.TypeFor[uint64](),
	tcUintptr:  reflect.TypeFor[uintptr](),
	tcFloat32:  reflect.TypeFor[float32](),
	tcFloat64:  reflect.TypeFor[float64](),
	tcBool:     reflect.TypeFor[bool](),
	tcString:   reflect.TypeFor[string](),
	tcDuration: reflect.TypeFor[time.Duration](),
	tcNamed:    nil,
}

// basicKinds gives the reflect.Kind of each basic code, so conversions into a basic
// type need no reflection at all.
var basicKinds = [...]reflect.Kind{
	tcInt:      reflect.Int,
	tcInt8:     reflect.Int8,
	tcInt16:    reflect.Int16,
	tcInt32:    reflect.Int32,
	tcInt64:    reflect.Int64,
	tcUint:     reflect.Uint,
	tcUint8:    reflect.Uint8,
	tcUint16:   reflect.Uint16,
	tcUint32:   reflect.Uint32,
	tcUint64:   reflect.Uint64,
	tcUintptr:  reflect.Uintptr,
	tcFloat32:  reflect.Float32,
	tcFloat64:  reflect.Float64,
	tcBool:     reflect.Bool,
	tcString:   reflect.String,
	tcDuration: reflect.Int64,
	tcNamed:    reflect.Invalid,
}

// declared is the fixed type of an entry. Entries of a basic type point into
// basicDecls, so typing an entry after an int or a float64 allocates nothing.
type declared struct {
	t  reflect.Type
	tc tcode    // tcNamed when t is not a basic type
	p  *payload // tcNamed: the box carrying t, shared by the scalars made for it
}

var basicDecls = func() (d [tcNamed]declared) {
	for tc := tcInt; tc < tcNamed; tc++ {
		d[tc] = declared{t: basicTypes[tc], tc: tc}
	}
	return d
}()

// codeOf returns the basic code of t, or tcNamed.
func codeOf(t reflect.Type) tcode {
	for tc := tcInt; tc < tcNamed; tc++ {
		if basicTypes[tc] == t {
			return tc
		}
	}
	return tcNamed
}

// anyType is the empty interface, the type of an entry that holds values of any type.
var anyType = reflect.TypeFor[any]()

// anyDecl is the declaration of an entry of type any (a port of type any declared it,
// BT.CPP's BT::Any): unlike a generic entry, it never takes the type of a value
// written to it.
var anyDecl = &declared{t: anyType, tc: tcNamed, p: &payload{x: anyType}}

// declOf returns the declaration for t: nil (generic) for nil, anyDecl for the empty
// interface.
func declOf(t reflect.Type) *declared {
	switch {
	case t == nil:
		return nil
	case t == anyType || t.Kind() == reflect.Interface && t.NumMethod() == 0:
		return anyDecl
	}
	if tc := codeOf(t); tc != tcNamed {
		return &basicDecls[tc]
	}
	return namedDecl(t)
}

func namedDecl(t reflect.Type) *declared {
	return &declared{t: t, tc: tcNamed, p: &payload{x: t}}
}

// scalarKind returns the reflect.Kind behind a code, looking at t for named types.
func scalarKind(tc tcode, t reflect.Type) reflect.Kind {
	if tc == tcNamed {
		return t.Kind()
	}
	return basicKinds[tc]
}

func isIntKind(k reflect.Kind) bool { return k >= reflect.Int && k <= reflect.Int64 }

func isUintKind(k reflect.Kind) bool { return k >= reflect.Uint && k <= reflect.Uintptr }

func isFloatKind(k reflect.Kind) bool { return k == reflect.Float32 || k == reflect.Float64 }

// isScalarKind reports kinds a number or a bool can be converted into.
func isScalarKind(k reflect.Kind) bool {
	return isIntKind(k) || isUintKind(k) || isFloatKind(k) || k == reflect.Bool
}

// typeName is the name used in error messages.
func typeName(t reflect.Type) string {
	if t == nil || t == anyType {
		return "any"
	}
	return t.String()
}
