package main

import (
	"encoding/binary"
	"hash/fnv"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/palimpsest-mem/memory/kv"
)

// newestMetaIsPage0 reports whether the newest valid meta page of the
// bbolt file at path is page 0 (16-byte page header; txid at 48; an
// FNV-64a of the first 56 bytes at 56).
func newestMetaIsPage0(t *testing.T, path string) bool {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	txid := func(off int) uint64 {
		m := b[off+16 : off+80]
		h := fnv.New64a()
		h.Write(m[:56])
		if h.Sum64() != binary.LittleEndian.Uint64(m[56:]) {
			return 0
		}
		return binary.LittleEndian.Uint64(m[48:])
	}
	return txid(0) > txid(4096)
}

// The reproduction through memctl: after the newest commit's meta
// page is zeroed, every command warns, writes are refused until memctl
// repair, and check lists the repair.
func TestStaleStoreWarnsUntilRepaired(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	lost := 0
	for lost < 2 || !newestMetaIsPage0(t, db) {
		lost++
		ok(t, "--db", db, "add", "Fact number "+strconv.Itoa(lost)+".")
	}
	f, err := os.OpenFile(db, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(make([]byte, 4096), 0); err != nil { // dd if=/dev/zero bs=4096 count=1 conv=notrunc
		t.Fatal(err)
	}
	f.Close()

	warning := regexp.MustCompile(`^memctl: warning: store is answering from an older commit: commit \d+; a meta page failed its checksum, so commit \d+ may have been lost; run memctl repair\n`)
	r := memctl(t, "", "--db", db, "list", "--all")
	if r.code != 0 || !warning.MatchString(r.stderr) || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("list of a stale store: exit %d, stderr %q", r.code, r.stderr)
	}
	if strings.Contains(r.stdout, "Fact number "+strconv.Itoa(lost)+".") || !strings.Contains(r.stdout, "Fact number 1.") {
		t.Errorf("list of a stale store:\n%s", r.stdout)
	}
	r = memctl(t, "", "--db", db, "add", "A new fact.")
	if r.code != 1 || r.stdout != "" || !warning.MatchString(r.stderr) || !strings.HasSuffix(r.stderr, "memctl: write refused until the store is repaired (run memctl repair)\n") {
		t.Errorf("add to a stale store: %+v", r)
	}
	if msg := fails(t, 1, "--db", db, "check"); !strings.Contains(msg, "failed its checksum") || !strings.HasSuffix(msg, "; run memctl repair\n") {
		t.Errorf("check of a stale store: %q", msg)
	}

	out := ok(t, "--db", db, "repair")
	want := "a meta page failed its checksum and commit \\d+ may have been lost \\(answers came from commit \\d+\\); ids " +
		strconv.Itoa(lost) + "\\.\\." + strconv.Itoa(lost) + " may have been handed out by it and are never reused; next id " + strconv.Itoa(lost+1) + "\n$"
	if !regexp.MustCompile("^repaired .*: " + want).MatchString(out) {
		t.Errorf("repair printed %q", out)
	}
	if out := ok(t, "--db", db, "add", "A new fact."); out != "added fact "+strconv.Itoa(lost+1)+": A new fact.\n" {
		t.Errorf("add after the repair: %q", out)
	}
	out = ok(t, "--db", db, "check")
	if !regexp.MustCompile("^ok\nrepaired .*: " + want).MatchString(out) {
		t.Errorf("check after the repair printed %q", out)
	}
	res := decode[map[string]any](t, ok(t, "--db", db, "check", "--json"))
	if reps, _ := res["repairs"].([]any); res["ok"] != true || len(reps) != 1 {
		t.Errorf("check --json after the repair: %v", res)
	}
	if out := ok(t, "--db", db, "repair"); out != "nothing to repair\n" {
		t.Errorf("a second repair printed %q", out)
	}
}

// check is not ok while a hard delete's scrub is pending (a process died
// between the delete's commit and its scrub; the mark is set here the way
// that commit sets it), and says how to finish it.
func TestCheckSaysAScrubIsPending(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	ok(t, "--db", db, "add", "I like tea.")
	k, err := kv.Open(db, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := k.Update(func(tx *kv.Tx) error { return tx.MarkScrubPending() }); err != nil {
		t.Fatal(err)
	}
	if err := k.Close(); err != nil {
		t.Fatal(err)
	}
	// check opens read-only, which finishes nothing.
	if msg := fails(t, 1, "--db", db, "check"); !strings.Contains(msg, "scrub of the file's free pages is pending") || !strings.Contains(msg, "run memctl repair to finish it") {
		t.Errorf("check with a scrub pending: %q", msg)
	}
	if out := ok(t, "--db", db, "repair"); out != "nothing to repair\n" {
		t.Errorf("repair printed %q", out)
	}
	if out := ok(t, "--db", db, "check"); out != "ok\n" {
		t.Errorf("check after the scrub finished: %q", out)
	}
}

func TestRepairOfNoStore(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	if msg := fails(t, 1, "--db", db, "repair"); !strings.Contains(msg, "no store at") {
		t.Errorf("repair of a missing store: %q", msg)
	}
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Errorf("repair made a file: %v", err)
	}
}
