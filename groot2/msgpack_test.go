package groot2

import (
	"encoding/hex"
	"strings"
	"testing"
)

// The expected bytes follow nlohmann::json 3.11.3's to_msgpack (BehaviorTree.CPP's
// contrib/json.hpp), worked out by hand from its rules.
func TestJSONToMsgpack(t *testing.T) {
	long := func(n int) string { return strings.Repeat("x", n) }
	xs := func(n int) string { return strings.Repeat("78", n) }
	for _, c := range []struct{ json, want string }{
		{`null`, "c0"},
		{`true`, "c3"},
		{`false`, "c2"},
		{`0`, "00"},
		{`-0`, "00"},
		{`127`, "7f"},
		{`128`, "cc80"},
		{`255`, "ccff"},
		{`256`, "cd0100"},
		{`65535`, "cdffff"},
		{`65536`, "ce00010000"},
		{`4294967295`, "ceffffffff"},
		{`4294967296`, "cf0000000100000000"},
		{`18446744073709551615`, "cfffffffffffffffff"},
		{`18446744073709551616`, "ca5f800000"}, // beyond uint64: a float, 2^64 fits a float32
		{`-1`, "ff"},
		{`-32`, "e0"},
		{`-33`, "d0df"},
		{`-128`, "d080"},
		{`-129`, "d1ff7f"},
		{`-32768`, "d18000"},
		{`-32769`, "d2ffff7fff"},
		{`-2147483648`, "d280000000"},
		{`-2147483649`, "d3ffffffff7fffffff"},
		{`-9223372036854775808`, "d38000000000000000"},
		{`1.0`, "ca3f800000"},
		{`2e0`, "ca40000000"}, // an exponent makes a float
		{`-2.5`, "cac0200000"},
		{`0.30000001192092896`, "ca3e99999a"},
		{`3.4028234663852886e38`, "ca7f7fffff"},
		{`0.1`, "cb3fb999999999999a"}, // not exact as a float32
		{`1e-7`, "cb3e7ad7f29abcaf48"},
		{`1e39`, "cb48078287f49c4a1d"}, // beyond float32
		{`""`, "a0"},
		{`"a"`, "a161"},
		{`"` + long(31) + `"`, "bf" + xs(31)},
		{`"` + long(32) + `"`, "d920" + xs(32)},
		{`"` + long(255) + `"`, "d9ff" + xs(255)},
		{`"` + long(256) + `"`, "da0100" + xs(256)},
		{`"` + long(65536) + `"`, "db00010000" + xs(65536)},
		{`"\u00e9"`, "a2c3a9"},
		{`[]`, "90"},
		{`[1,"a",null]`, "9301a161c0"},
		{`[` + strings.Repeat("0,", 14) + `0]`, "9f" + strings.Repeat("00", 15)},
		{`[` + strings.Repeat("0,", 15) + `0]`, "dc0010" + strings.Repeat("00", 16)},
		{`{}`, "80"},
		{`{"b":1,"a":2}`, "82a16102a16201"},   // keys sorted
		{`{"a":1,"a":2}`, "81a16102"},         // the last of duplicates
		{`{"é":1,"z":2}`, "82a17a02a2c3a901"}, // byte-wise order
		{`{"MainTree":{"x":7}}`, "81a84d61696e5472656581a17807"},
	} {
		got, err := jsonToMsgpack([]byte(c.json))
		if err != nil {
			t.Errorf("%.40s: %v", c.json, err)
			continue
		}
		if h := hex.EncodeToString(got); h != c.want {
			t.Errorf("%.40s: %.60s, want %.60s", c.json, h, c.want)
		}
	}
	// Sixteen keys take a map 16.
	obj := "{"
	want := "de0010"
	for i := range 16 {
		if i > 0 {
			obj += ","
		}
		k := string(rune('a' + i))
		obj += `"` + k + `":0`
		want += "a1" + hex.EncodeToString([]byte(k)) + "00"
	}
	if got, _ := jsonToMsgpack([]byte(obj + "}")); hex.EncodeToString(got) != want {
		t.Errorf("16 keys: %x, want %s", got, want)
	}
	for _, bad := range []string{``, `{`, `[1,]`, `1 2`, `nul`} {
		if _, err := jsonToMsgpack([]byte(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
