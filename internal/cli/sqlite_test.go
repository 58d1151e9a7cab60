package cli

import (
	"bytes"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gobt/bt"
	"github.com/gobt/bt/btlog"
)

// fakeSQLite stands in for the btsqlite module, which the main module cannot import:
// it notes what run gives it, and serves the sessions it is given.
type fakeSQLite struct {
	created   string
	appending bool
	closed    int
	sessions  []SQLiteSession
	read      int64 // the session Read was asked for
}

func (f *fakeSQLite) sqlite() SQLite {
	return SQLite{
		Create: func(tree *bt.Tree, name string, appending bool) (io.Closer, error) {
			f.created, f.appending = name, appending
			return closer(func() error { f.closed++; return nil }), nil
		},
		Sessions: func(string) ([]SQLiteSession, error) { return f.sessions, nil },
		Read: func(_ string, session int64) (*btlog.Log, error) {
			f.read = session
			return &btlog.Log{}, nil
		},
	}
}

func runSQLite(f *fakeSQLite, args ...string) (stdout, stderr string, code int) {
	var out, errs bytes.Buffer
	var opts []Option
	if f != nil {
		opts = append(opts, WithSQLite(f.sqlite()))
	}
	code = Main(args, &out, &errs, opts...)
	return out.String(), errs.String(), code
}

func TestRunSQLite(t *testing.T) {
	tree := writeTree(t, `<AlwaysSuccess/>`)
	db := filepath.Join(t.TempDir(), "runs.db3")
	f := &fakeSQLite{}
	if _, errs, code := runSQLite(f, "run", "--sqlite", db, "--sqlite-append", tree); code != 0 || errs != "" {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if f.created != db || !f.appending || f.closed != 1 {
		t.Errorf("the logger: %+v, want it created on %s, appending, and closed", f, db)
	}
	for _, c := range []struct {
		f    *fakeSQLite
		args []string
		want string
	}{
		{nil, []string{"--sqlite", db}, "--sqlite: this bt was built without SQLite support"},
		{f, []string{"--sqlite", "runs.sqlite"}, "--sqlite runs.sqlite: the file's name must end in .db3 or .btdb"},
		{f, []string{"--sqlite-append"}, "--sqlite-append: give --sqlite too"},
		{f, []string{"--sqlite", tree}, "--sqlite and FILE.xml name the same file"},
	} {
		_, errs, code := runSQLite(c.f, append(append([]string{"run"}, c.args...), tree)...)
		if code != exitUsage || !strings.Contains(errs, c.want) {
			t.Errorf("bt run %v: exit %d, %s; want %q", c.args, code, errs, c.want)
		}
	}
}

func TestReplaySQLite(t *testing.T) {
	db := filepath.Join(t.TempDir(), "runs.db3")
	one := &fakeSQLite{sessions: []SQLiteSession{{ID: 4, Date: "2026-01-02 03:04:05", Transitions: 9}}}
	if _, errs, code := runSQLite(one, "replay", db); code != 0 || errs != "" || one.read != 4 {
		t.Errorf("replay of one session: exit %d, %s; read session %d, want 4", code, errs, one.read)
	}
	two := &fakeSQLite{sessions: []SQLiteSession{{ID: 1, Date: "d1", Transitions: 3}, {ID: 2, Date: "d2", Transitions: 5}}}
	want := "bt: " + db + " holds 2 sessions; choose one with --session ID:\n  1\td1\t3 transitions\n  2\td2\t5 transitions\n"
	for _, cmd := range []string{"replay", "view"} {
		if _, errs, code := runSQLite(two, cmd, db); code != exitUsage || errs != want {
			t.Errorf("%s of two sessions: exit %d\n%s\nwant\n%s", cmd, code, errs, want)
		}
	}
	if _, errs, code := runSQLite(two, "replay", "--session", "2", db); code != 0 || errs != "" || two.read != 2 {
		t.Errorf("replay --session 2: exit %d, %s; read session %d", code, errs, two.read)
	}
	none := &fakeSQLite{}
	if _, errs, code := runSQLite(none, "replay", db); code != exitError || !strings.Contains(errs, "holds no session") {
		t.Errorf("replay of an empty database: exit %d, %s", code, errs)
	}
	if _, errs, code := runSQLite(nil, "replay", db); code != exitError || !strings.Contains(errs, "built without SQLite support") {
		t.Errorf("replay without SQLite: exit %d, %s", code, errs)
	}
	if _, errs, code := runSQLite(one, "replay", "--session", "1", "x.btlog"); code != exitError || !strings.Contains(errs, "--session: x.btlog is not a database") {
		t.Errorf("replay --session of a .btlog: exit %d, %s", code, errs)
	}
}
