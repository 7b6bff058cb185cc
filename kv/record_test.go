package kv

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestRecordRoundTrip(t *testing.T) {
	for _, r := range []Record{
		{ID: 1, Text: "x", RecordedAt: 1},
		{ID: 7, User: "алиса", Text: "Я работаю в компании.\nВторая строка", Pinned: true, Auto: true,
			RecordedAt: 1_780_000_000_000_000_000, ValidUntil: 1_790_000_000_000_000_000, SupersededBy: 9, Supersedes: 3,
			EventFrom: -2_000_000_000_000_000_000, EventUntil: 5, HasFrom: true, HasUntil: true,
			Source: Source{Kind: "chat", Ref: "msg-1", Quote: "q", SaidAt: 42}, EventSource: "words", EventUntilSource: "given"},
	} {
		got, err := decodeRecord(r.ID, appendRecord(nil, &r))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, r) {
			t.Errorf("round trip:\n got %+v\nwant %+v", got, r)
		}
	}
}

func TestEventRoundTrip(t *testing.T) {
	e := Event{Kind: Superseded, At: 123, Auto: true, By: 4, End: -5, Cause: "причина"}
	got, err := decodeEvent(appendEvent(nil, &e))
	if err != nil || got != e {
		t.Errorf("round trip: %+v, %v", got, err)
	}
}

// Every prefix of a valid encoding, and arbitrary bytes, decode to an error
// wrapping ErrCorrupt or to a record, never a panic.
func FuzzDecodeRecord(f *testing.F) {
	r := Record{ID: 1, User: "u", Text: "text", RecordedAt: 99, HasFrom: true, EventFrom: 5, Source: Source{Quote: "q"}}
	full := appendRecord(nil, &r)
	for i := range full {
		f.Add(full[:i])
	}
	f.Add(full)
	f.Add([]byte{1, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	f.Fuzz(func(t *testing.T, b []byte) {
		if _, err := decodeRecord(1, b); err != nil && !errors.Is(err, ErrCorrupt) {
			t.Errorf("error does not wrap ErrCorrupt: %v", err)
		}
		if _, err := decodeEvent(b); err != nil && !errors.Is(err, ErrCorrupt) {
			t.Errorf("event error does not wrap ErrCorrupt: %v", err)
		}
	})
}

// Any single flipped byte of an encoded record is detected.
func TestRecordFlipDetected(t *testing.T) {
	r := Record{ID: 3, User: "u", Text: "I work at company A.", RecordedAt: 1_780_000_000_000_000_000}
	enc := appendRecord(nil, &r)
	for i := range enc {
		b := append([]byte(nil), enc...)
		b[i] ^= 0x10
		if _, err := decodeRecord(3, b); !errors.Is(err, ErrCorrupt) {
			t.Errorf("flip at byte %d: %v", i, err)
		}
	}
}

// A delete whose scrub never ran (the process died) is scrubbed at the
// next Open, so the deleted bytes do not linger in free pages.
func TestPendingScrubFinishesAtOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.db")
	db, err := Open(path, 0, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	secret := "PENDING-SECRET-TEXT"
	r := Record{ID: 1, Text: secret, RecordedAt: 5}
	if err := db.Update(func(tx *Tx) error { return tx.Put(&r) }); err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *Tx) error {
		if err := tx.MarkScrubPending(); err != nil {
			return err
		}
		return tx.Delete(1)
	})
	if err != nil {
		t.Fatal(err)
	}
	db.Close() // "crash" before Scrub
	if b, _ := os.ReadFile(path); !bytes.Contains(b, []byte(secret)) {
		t.Fatal("test is void: the freed page no longer holds the text")
	}
	db, err = Open(path, 0, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if b, _ := os.ReadFile(path); bytes.Contains(b, []byte(secret)) {
		t.Error("the deleted text is still in the file after Open")
	}
	if db.ScrubPending() {
		t.Error("the pending mark survived the scrub")
	}
}
