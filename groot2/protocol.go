package groot2

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/gobt/bt"
)

// The request types of BehaviorTree.CPP's Groot2 protocol (groot2_protocol.h): the
// second byte of a request header.
const (
	reqFullTree         = 'T' // the tree's XML
	reqStatus           = 'S' // the status buffer
	reqBlackboard       = 'B' // the named blackboards, as MessagePack
	reqHookInsert       = 'I'
	reqHookRemove       = 'R'
	breakpointReached   = 'N' // published on the PUB socket, never a request
	reqBreakpointUnlock = 'U'
	reqHooksDump        = 'D'
	reqRemoveAllHooks   = 'A'
	reqDisableAllHooks  = 'X'
	reqToggleRecording  = 'r'
	reqGetTransitions   = 't'
)

// protocolID is the first byte of every header.
const protocolID = 2

// Sizes of the headers on the wire: a request header is the protocol id, the request
// type and a uint32 id (little-endian); a reply header repeats it and adds the 16-byte
// UUID of the tree.
const (
	requestHeaderSize = 6
	replyHeaderSize   = requestHeaderSize + 16
)

// The texts of BehaviorTree.CPP's error replies (a reply of two parts: "error" and
// the text).
const (
	errWrongHeader   = "wrong request header"
	errTwoParts      = "must be 2 parts message"
	errNodeNotFound  = "Node ID not found"
	errNotRecognized = "Request not recognized"
	// errWrongProtocol has no counterpart: BehaviorTree.CPP does not look at the
	// protocol byte.
	errWrongProtocol = "wrong protocol: this publisher speaks protocol 2"
	// errClosedText has no counterpart either: a request read just before Close closed
	// the socket inserts no hook.
	errClosedText = "the publisher is closed"
	// errReadOnly has no counterpart either: BehaviorTree.CPP has no read-only mode.
	errReadOnly = "read-only: this publisher takes no hooks (breakpoints or fault injection)"
)

// changesHooks reports whether a request of type typ sets, changes or removes
// hooks, or lets a breakpoint go: what a read-only publisher refuses. (With no hooks
// ever set, REMOVE_ALL_HOOKS and DISABLE_ALL_HOOKS would change nothing; they are
// refused all the same, so that a client learns at once that it cannot debug.)
func changesHooks(typ byte) bool {
	switch typ {
	case reqHookInsert, reqHookRemove, reqBreakpointUnlock, reqRemoveAllHooks, reqDisableAllHooks:
		return true
	}
	return false
}

var errClosed = errors.New(errClosedText)

// header is a request header: [protocol, type, id (uint32, little-endian)].
type header struct {
	typ byte
	id  uint32
}

func parseHeader(b []byte) (header, error) {
	if len(b) != requestHeaderSize {
		return header{}, errors.New(errWrongHeader)
	}
	if b[0] != protocolID {
		return header{}, errors.New(errWrongProtocol)
	}
	return header{typ: b[1], id: binary.LittleEndian.Uint32(b[2:])}, nil
}

func (h header) append(b []byte) []byte {
	return binary.LittleEndian.AppendUint32(append(b, protocolID, h.typ), h.id)
}

// position is where a hook runs: before (0) or after (1) the node's tick.
type position int

const (
	pre position = iota
	post
)

// mode is what a hook does: a breakpoint (0) pauses the tick until Groot2 unlocks it; a
// replacement (1) returns its desired status at once.
type mode int

const (
	breakpoint mode = iota
	replace
)

// hook is a breakpoint or a status replacement on one node, as Groot2 sets it
// (BehaviorTree.CPP's Monitor::Hook).
type hook struct {
	uid      uint16
	position position
	mode     mode
	enabled  bool
	once     bool      // removed after it ran once ("once", remove_when_done)
	desired  bt.Status // the status it replaces the node's with ("desired_status")
	ready    bool      // a breakpoint was unlocked (before or while it was reached)
}

// hookJSON is a hook as JSON, in the key order of nlohmann::json (sorted).
type hookJSON struct {
	Desired  string `json:"desired_status"`
	Enabled  bool   `json:"enabled"`
	Mode     int    `json:"mode"`
	Once     bool   `json:"once"`
	Position int    `json:"position"`
	UID      uint16 `json:"uid"`
}

func (h *hook) json() hookJSON {
	return hookJSON{Desired: h.desired.String(), Enabled: h.enabled, Mode: int(h.mode), Once: h.once,
		Position: int(h.position), UID: h.uid}
}

// jsonObject is a JSON object whose fields are read as nlohmann::json's at() and
// get<T>() read them, with their error messages, which BehaviorTree.CPP sends back.
type jsonObject map[string]json.RawMessage

// parseJSON parses a request's JSON: an object, or with array, an array of objects.
func parseJSON(data []byte, array bool) ([]jsonObject, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("[json.exception.parse_error.101] parse error: %v", err)
	}
	if dec.More() {
		return nil, errors.New("[json.exception.parse_error.101] parse error: syntax error - unexpected text after the JSON value")
	}
	list, isArray := v.([]any)
	if !isArray || !array {
		list = []any{v}
	}
	objs := make([]jsonObject, len(list))
	for i, x := range list {
		m, ok := x.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("[json.exception.type_error.304] cannot use at() with %s", jsonType(x))
		}
		objs[i] = jsonObject{}
		for k, v := range m {
			raw, err := json.Marshal(v)
			if err != nil {
				return nil, err
			}
			objs[i][k] = raw
		}
	}
	return objs, nil
}

// jsonType names the type of a decoded JSON value as nlohmann::json's type_name does.
func jsonType(x any) string {
	switch x := x.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	default:
		return fmt.Sprintf("%T", x)
	}
}

func (o jsonObject) field(key string) (any, error) {
	raw, ok := o[key]
	if !ok {
		return nil, fmt.Errorf("[json.exception.out_of_range.403] key '%s' not found", key)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}

func typeError(want string, got any) error {
	return fmt.Errorf("[json.exception.type_error.302] type must be %s, but is %s", want, jsonType(got))
}

func (o jsonObject) bool(key string) (bool, error) {
	v, err := o.field(key)
	if err != nil {
		return false, err
	}
	b, ok := v.(bool)
	if !ok {
		return false, typeError("boolean", v)
	}
	return b, nil
}

func (o jsonObject) string(key string) (string, error) {
	v, err := o.field(key)
	if err != nil {
		return "", err
	}
	s, ok := v.(string)
	if !ok {
		return "", typeError("string", v)
	}
	return s, nil
}

// int reads an integer in [lo, hi]. nlohmann::json casts any number, truncating and
// wrapping it; out-of-range values are refused here instead.
func (o jsonObject) int(key string, lo, hi int64) (int64, error) {
	v, err := o.field(key)
	if err != nil {
		return 0, err
	}
	num, ok := v.(json.Number)
	if !ok {
		return 0, typeError("number", v)
	}
	n, err := strconv.ParseInt(num.String(), 10, 64)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%s: %s is not an integer from %d to %d", key, num, lo, hi)
	}
	return n, nil
}

func (o jsonObject) uid() (uint16, error) {
	n, err := o.int("uid", 0, math.MaxUint16)
	return uint16(n), err
}

func (o jsonObject) position() (position, error) {
	n, err := o.int("position", int64(pre), int64(post))
	return position(n), err
}

// parseHook reads a hook as BehaviorTree.CPP's HOOK_INSERT does: "uid" and "position"
// first, to find the hook, then every key in from_json's order; every key is required,
// and the first one missing or mistyped is the error.
func parseHook(o jsonObject) (*hook, error) {
	h := &hook{}
	var err error
	if h.uid, err = o.uid(); err != nil {
		return nil, err
	}
	if h.position, err = o.position(); err != nil {
		return nil, err
	}
	if h.enabled, err = o.bool("enabled"); err != nil {
		return nil, err
	}
	if h.once, err = o.bool("once"); err != nil {
		return nil, err
	}
	m, err := o.int("mode", int64(breakpoint), int64(replace))
	if err != nil {
		return nil, err
	}
	h.mode = mode(m)
	desired, err := o.string("desired_status")
	if err != nil {
		return nil, err
	}
	if h.desired, err = parseStatus(desired); err != nil {
		return nil, err
	}
	return h, nil
}

var statuses = []bt.Status{bt.Idle, bt.Running, bt.Success, bt.Failure, bt.Skipped}

// parseStatus reads a status as BehaviorTree.CPP's convertFromString<NodeStatus>.
func parseStatus(s string) (bt.Status, error) {
	i := slices.IndexFunc(statuses, func(st bt.Status) bool { return st.String() == s })
	if i < 0 {
		return 0, fmt.Errorf("Cannot convert this to NodeStatus: %s", s)
	}
	return statuses[i], nil
}

// unlock is the body of BREAKPOINT_UNLOCK.
type unlock struct {
	uid      uint16
	position position
	desired  bt.Status // SUCCESS or FAILURE replace the node's tick; anything else resumes it
	remove   bool
}

func parseUnlock(o jsonObject) (u unlock, err error) {
	if u.uid, err = o.uid(); err != nil {
		return u, err
	}
	desired, err := o.string("desired_status")
	if err != nil {
		return u, err
	}
	if u.position, err = o.position(); err != nil {
		return u, err
	}
	if u.remove, err = o.bool("remove_when_done"); err != nil {
		return u, err
	}
	switch desired {
	case "SUCCESS":
		u.desired = bt.Success
	case "FAILURE":
		u.desired = bt.Failure
	default:
		u.desired = bt.Skipped
	}
	return u, nil
}
