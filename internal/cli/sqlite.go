package cli

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/gobt/bt/btlog"
)

// isDatabase reports whether name is a SQLite database of a SqliteLogger by its
// extension, as BehaviorTree.CPP and Groot2 tell them.
func isDatabase(name string) bool {
	ext := filepath.Ext(name)
	return ext == ".db3" || ext == ".btdb"
}

// errNoSQLite is the error of a command given a database by a bt built without the
// SQLite logger.
var errNoSQLite = errors.New("this bt was built without SQLite support; the command of the repository's cmd/bt has it")

// sessionsError is a database that holds several sessions, read without --session:
// it lists them.
type sessionsError struct {
	name     string
	sessions []SQLiteSession
}

func (e *sessionsError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s holds %d sessions; choose one with --session ID:\n", e.name, len(e.sessions))
	for _, s := range e.sessions {
		fmt.Fprintf(&b, "  %d\t%s\t%d transitions\n", s.ID, s.Date, s.Transitions)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// readLog reads the recorded run name, a .btlog file or a session of a database:
// session if it is not 0, else the only one. For a .btlog file cut short it returns
// what was read before the cut with the error.
func (c *cmd) readLog(name string, session int64) (*btlog.Log, error) {
	if !isDatabase(name) {
		if session != 0 {
			return nil, fmt.Errorf("--session: %s is not a database (.db3 or .btdb)", name)
		}
		return btlog.ReadFile(name)
	}
	if c.sqlite == nil {
		return nil, fmt.Errorf("%s: %w", name, errNoSQLite)
	}
	if session == 0 {
		sessions, err := c.sqlite.Sessions(name)
		switch {
		case err != nil:
			return nil, err
		case len(sessions) == 0:
			return nil, fmt.Errorf("%s holds no session", name)
		case len(sessions) > 1:
			return nil, &sessionsError{name, sessions}
		}
		session = sessions[0].ID
	}
	return c.sqlite.Read(name, session)
}

// readFailed reports the error of readLog and returns the exit status: a usage error
// when the database needs --session.
func (c *cmd) readFailed(err error) int {
	c.fail(readError(err))
	var se *sessionsError
	if errors.As(err, &se) {
		return exitUsage
	}
	return exitError
}
