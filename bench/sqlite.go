package main

// The SQLite baseline: the original system's schema (rows with valid_until
// and superseded_by, current facts selected WHERE valid_until IS NULL, an
// FTS5 table for the keyword lookup) run on the same workload as our store,
// so that perf can print the ratio of our speed to SQLite's beside each of
// our rows. The driver is modernc.org/sqlite, pure Go, so no cgo is needed.

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	_ "modernc.org/sqlite"
)

// sqliteSchema is the original schema. The FTS5 table indexes the text of
// every fact (external content, rowid = id); the lookup joins it to the
// current facts of the user.
const sqliteSchema = `
CREATE TABLE IF NOT EXISTS facts(
	id INTEGER PRIMARY KEY,
	user TEXT NOT NULL,
	text TEXT NOT NULL,
	recorded_at INTEGER NOT NULL,
	valid_until INTEGER,
	superseded_by INTEGER,
	event_from INTEGER,
	event_until INTEGER,
	pinned INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS facts_user_current ON facts(user, valid_until);
CREATE VIRTUAL TABLE IF NOT EXISTS facts_fts USING fts5(
	text, content='facts', content_rowid='id', tokenize='unicode61 remove_diacritics 0'
);`

const sqlFactCols = `f.id, f.user, f.text, f.recorded_at, f.valid_until, f.superseded_by, f.event_from, f.event_until, f.pinned`

// sqlFact is one row of facts, every column read, as our store's reads
// return whole facts.
type sqlFact struct {
	ID                       int64
	User, Text               string
	RecordedAt               int64
	ValidUntil, SupersededBy sql.NullInt64
	EventFrom, EventUntil    sql.NullInt64
	Pinned                   bool
}

// sqliteStore is the original system's store on SQLite: WAL, synchronous =
// FULL (an fsync per commit, like ours), foreign keys off, one connection.
type sqliteStore struct {
	db                                          *sql.DB
	insFact, insFTS, markOld, list, now, lookup *sql.Stmt
}

func openSQLite(path string) (*sqliteStore, error) {
	q := url.Values{"_pragma": {"journal_mode(WAL)", "synchronous(FULL)", "foreign_keys(0)"}}
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	b := &sqliteStore{db: db}
	if err := b.init(); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlite %s: %w", path, err)
	}
	return b, nil
}

func (b *sqliteStore) init() error {
	var mode string
	if err := b.db.QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil {
		return err
	}
	var sync int
	if err := b.db.QueryRow(`PRAGMA synchronous`).Scan(&sync); err != nil {
		return err
	}
	if mode != "wal" || sync != 2 {
		return fmt.Errorf("journal_mode %s, synchronous %d: want wal, 2 (FULL)", mode, sync)
	}
	if _, err := b.db.Exec(sqliteSchema); err != nil {
		return err
	}
	for _, p := range []struct {
		st **sql.Stmt
		q  string
	}{
		{&b.insFact, `INSERT INTO facts(user, text, recorded_at, event_from, event_until) VALUES(?, ?, ?, ?, ?)`},
		{&b.insFTS, `INSERT INTO facts_fts(rowid, text) VALUES(?, ?)`},
		{&b.markOld, `UPDATE facts SET valid_until = ?1, superseded_by = ?2 WHERE id = ?3 AND user = ?4 AND valid_until IS NULL`},
		{&b.list, `SELECT ` + sqlFactCols + ` FROM facts f WHERE f.user = ? AND f.valid_until IS NULL ORDER BY f.id`},
		{&b.now, `SELECT ` + sqlFactCols + ` FROM facts f WHERE f.user = ?1 AND f.valid_until IS NULL
			AND coalesce(f.event_from, f.recorded_at) <= ?2 AND (f.event_until IS NULL OR f.event_until > ?2) ORDER BY f.id`},
		{&b.lookup, `SELECT ` + sqlFactCols + ` FROM facts_fts JOIN facts f ON f.id = facts_fts.rowid
			WHERE facts_fts MATCH ?1 AND f.user = ?2 AND f.valid_until IS NULL ORDER BY bm25(facts_fts) LIMIT ?3`},
	} {
		st, err := b.db.Prepare(p.q)
		if err != nil {
			return err
		}
		*p.st = st
	}
	return nil
}

func (b *sqliteStore) Close() error { return b.db.Close() }

// insert writes a fact and its FTS row within tx and returns its id.
func (b *sqliteStore) insert(tx *sql.Tx, user, text string, at int64, from, until sql.NullInt64) (int64, error) {
	res, err := tx.Stmt(b.insFact).Exec(user, text, at, from, until)
	if err != nil {
		return 0, err
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, err
	}
	_, err = tx.Stmt(b.insFTS).Exec(id, text)
	return id, err
}

// inTx runs fn in one transaction, committed when fn returns nil.
func (b *sqliteStore) inTx(fn func(tx *sql.Tx) error) error {
	tx, err := b.db.Begin()
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// add is a single durable add: the fact and its FTS row in one transaction.
func (b *sqliteStore) add(user, text string, at int64) (id int64, err error) {
	err = b.inTx(func(tx *sql.Tx) error {
		id, err = b.insert(tx, user, text, at, sql.NullInt64{}, sql.NullInt64{})
		return err
	})
	return id, err
}

// supersede inserts the new fact and marks the old one in one transaction;
// an old fact that is not a current fact of user fails it.
func (b *sqliteStore) supersede(oldID int64, user, text string, at int64) (id int64, err error) {
	err = b.inTx(func(tx *sql.Tx) error {
		if id, err = b.insert(tx, user, text, at, sql.NullInt64{}, sql.NullInt64{}); err != nil {
			return err
		}
		res, err := tx.Stmt(b.markOld).Exec(at, id, oldID, user)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return fmt.Errorf("supersede fact %d of %q: %d rows marked (%v)", oldID, user, n, err)
		}
		return nil
	})
	return id, err
}

// bulk loads facts in one transaction, laid out as fillStore lays ours: fact
// i (from 1) belongs to user-(i-1)/perUser, recorded at t0 + i seconds.
func (b *sqliteStore) bulk(texts []string, perUser int) error {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	return b.inTx(func(tx *sql.Tx) error {
		for i, text := range texts {
			at := t0.Add(time.Duration(i+1) * time.Second).UnixNano()
			if _, err := b.insert(tx, fmt.Sprintf("user-%d", i/perUser), text, at, sql.NullInt64{}, sql.NullInt64{}); err != nil {
				return err
			}
		}
		return nil
	})
}

// bulkExport loads the facts of an export (the lines writeExport writes) in
// one transaction, in the file's order, so that they keep their ids, and
// returns how many it loaded.
func (b *sqliteStore) bulkExport(r io.Reader) (int, error) {
	dec := json.NewDecoder(r)
	var hdr struct{ Format string }
	if err := dec.Decode(&hdr); err != nil || hdr.Format != "palimpsest-memory" {
		return 0, fmt.Errorf("export header %q: %w", hdr.Format, err)
	}
	n := 0
	err := b.inTx(func(tx *sql.Tx) error {
		for {
			var f struct {
				ID         int64
				User, Text string
				RecordedAt time.Time `json:"recorded_at"`
			}
			if err := dec.Decode(&f); err == io.EOF {
				return nil
			} else if err != nil {
				return fmt.Errorf("export line %d: %w", n+2, err)
			}
			id, err := b.insert(tx, f.User, f.Text, f.RecordedAt.UnixNano(), sql.NullInt64{}, sql.NullInt64{})
			if err != nil {
				return err
			}
			if n++; id != f.ID {
				return fmt.Errorf("export fact %d became row %d", f.ID, id)
			}
		}
	})
	return n, err
}

func scanFacts(rows *sql.Rows, err error) ([]sqlFact, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []sqlFact
	for rows.Next() {
		var f sqlFact
		if err := rows.Scan(&f.ID, &f.User, &f.Text, &f.RecordedAt, &f.ValidUntil, &f.SupersededBy,
			&f.EventFrom, &f.EventUntil, &f.Pinned); err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, rows.Err()
}

// current lists the current facts of user, in id order.
func (b *sqliteStore) current(user string) ([]sqlFact, error) { return scanFacts(b.list.Query(user)) }

// trueAt returns the current facts of user whose event interval contains
// at; a fact without event_from starts when it was recorded.
func (b *sqliteStore) trueAt(user string, at int64) ([]sqlFact, error) {
	return scanFacts(b.now.Query(user, at))
}

// keywords is the original lookup: the text's lowercased words of four or
// more letters, ORed, matched among user's current facts, best k by bm25.
func (b *sqliteStore) keywords(user, text string, k int) ([]sqlFact, error) {
	q := ftsQuery(text)
	if q == "" {
		return nil, nil
	}
	return scanFacts(b.lookup.Query(q, user, k))
}

// ftsQuery ORs the distinct lowercased words of 4+ letters of text, each
// quoted as an FTS5 string.
func ftsQuery(text string) string {
	seen := map[string]bool{}
	var terms []string
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) }) {
		if utf8.RuneCountInString(w) >= 4 && !seen[w] {
			seen[w] = true
			terms = append(terms, `"`+w+`"`)
		}
	}
	return strings.Join(terms, " OR ")
}

// sqliteScale is the SQLite side of one scale of perf.
type sqliteScale struct {
	imp                       importFigures
	list, now, look, add, sup []time.Duration
	// bigList and bigNow are the reads of the big user's facts, when the
	// store has one.
	bigList, bigNow []time.Duration
}

// measureSQLiteScale imports the export file our store was imported from
// into SQLite, in a fresh process, and times, reads times each, the current
// facts of user-0, its facts true now, and the keyword lookup k = 12 with
// the queries scaleRows gives ours (and bigReads times each the big user's
// current facts and those true now, when l has one); then writes single
// durable adds to user-0 and writes supersedes, one of each added fact,
// with texts of the corpus readWriteRows writes ours from.
func measureSQLiteScale(ctx context.Context, dir, export string, texts []string, n int, l perfLayout, reads, bigReads, writes int) (sqliteScale, error) {
	var r sqliteScale
	path := filepath.Join(dir, fmt.Sprintf("sqlite%d.db", n))
	imp, err := importInChild(ctx, importSpec{Export: export, Path: path, SQLite: true})
	if err != nil {
		return r, err
	}
	if imp.Facts != n {
		return r, fmt.Errorf("sqlite import: %d facts, want %d", imp.Facts, n)
	}
	r.imp = imp
	b, err := openSQLite(path)
	if err != nil {
		return r, err
	}
	defer b.Close()
	r.list = timeN(reads, func(int) error { _, err := b.current("user-0"); return err })
	r.now = timeN(reads, func(int) error { _, err := b.trueAt("user-0", time.Now().UnixNano()); return err })
	if l.big > 0 {
		r.bigList = timeN(bigReads, func(int) error { return wantRows(b.current(bigUser))(l.big) })
		r.bigNow = timeN(bigReads, func(int) error { return wantRows(b.trueAt(bigUser, time.Now().UnixNano()))(l.big) })
	}
	c := newCorpus(texts, 2)
	c.next() // ours answers it before its clock starts
	r.look = timeN(reads, func(int) error { _, err := b.keywords("user-0", c.next(), 12); return err })
	c = newCorpus(texts, 3)
	ids := make([]int64, writes)
	r.add = timeN(writes, func(i int) (err error) {
		ids[i], err = b.add("user-0", c.next(), time.Now().UnixNano())
		return err
	})
	r.sup = timeN(writes, func(i int) error {
		_, err := b.supersede(ids[i], "user-0", c.next(), time.Now().UnixNano())
		return err
	})
	return r, nil
}

// wantRows checks that a query returned n rows: a read of the wrong user's
// facts would time something else.
func wantRows(facts []sqlFact, err error) func(n int) error {
	return func(n int) error {
		if err == nil && len(facts) != n {
			err = fmt.Errorf("%d rows, want %d", len(facts), n)
		}
		return err
	}
}

// vsSQLite is the row of a SQLite operation timed as ours was; its ratio is
// ours / SQLite in ops/s, > 1 when we are faster.
func vsSQLite(op string, sq, ours []time.Duration) row {
	r := latRow("SQLite: "+op, sq, 0)
	if r.Note == "" && len(ours) > 0 && ours[0] >= 0 {
		r.Ratio, r.Note = rate(ours)/r.OpsS, "ratio ours / SQLite"
	}
	return r
}
