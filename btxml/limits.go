package btxml

import (
	"errors"
	"io/fs"
	"math"
)

// Limits bound the resources Parse and Load spend on a document. A zero field
// means the default; the package documentation lists the defaults. Exceeding
// a limit is an error at the position where it happened, and parsing stops.
//
//	doc, err := btxml.Limits{MaxDepth: 64}.Load(fsys, "main.xml")
type Limits struct {
	// MaxBytes is the total size of the input: the document for Parse, the
	// sum of all files for Load. Default 64 MiB; at most 2 GiB - 1, so that
	// lines and columns fit in Pos's int32 fields.
	MaxBytes int
	// MaxDepth is how deep a tree may nest: the child of <BehaviorTree> is at
	// depth 1. Default 256, BehaviorTree.CPP's limit.
	MaxDepth int
	// MaxAttrLen is the length in bytes of one attribute value or text, as
	// written. Default 1 MiB.
	MaxAttrLen int
	// MaxAttrs is the number of attributes of one element. Default 256.
	MaxAttrs int
	// MaxNodes is the number of elements, attributes and comments together,
	// in all files of a Load. It bounds memory: an element costs about 120
	// bytes, an attribute 64 and a comment 40, however short they are
	// written. Default 1,000,000.
	MaxNodes int
	// MaxIncludeDepth is how deep includes may nest: a file included by the
	// top file is at depth 1. Default 32.
	MaxIncludeDepth int
	// MaxIncludes is the number of files a Load may include. Default 1024.
	MaxIncludes int
}

// Default limits.
const (
	DefaultMaxBytes        = 64 << 20
	DefaultMaxDepth        = 256
	DefaultMaxAttrLen      = 1 << 20
	DefaultMaxAttrs        = 256
	DefaultMaxNodes        = 1_000_000
	DefaultMaxIncludeDepth = 32
	DefaultMaxIncludes     = 1024
)

// withDefaults replaces zero (and negative) fields by the defaults.
func (l Limits) withDefaults() Limits {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&l.MaxBytes, DefaultMaxBytes)
	l.MaxBytes = min(l.MaxBytes, math.MaxInt32)
	def(&l.MaxDepth, DefaultMaxDepth)
	def(&l.MaxAttrLen, DefaultMaxAttrLen)
	def(&l.MaxAttrs, DefaultMaxAttrs)
	def(&l.MaxNodes, DefaultMaxNodes)
	def(&l.MaxIncludeDepth, DefaultMaxIncludeDepth)
	def(&l.MaxIncludes, DefaultMaxIncludes)
	return l
}

// Parse parses one document with the limits l. See the package function Parse.
func (l Limits) Parse(file string, data []byte) (*Document, error) {
	l = l.withDefaults()
	var sink errorSink
	if len(data) > l.MaxBytes {
		sink.add(Pos{File: file}, errTooLarge(l.MaxBytes))
		return nil, sink.result()
	}
	nodes := 0
	d, ok := parseFile(file, string(data), l, &sink, &nodes)
	checkDocument(d, &sink, ok && len(d.Includes) == 0, false)
	return d, sink.result().Err()
}

// Load loads a document and its includes with the limits l. See the package
// function Load.
func (l Limits) Load(fsys fs.FS, name string) (*Document, error) {
	if fsys == nil {
		return nil, errors.New("btxml: Load: the file system is nil")
	}
	return load(fsys, name, l.withDefaults())
}
