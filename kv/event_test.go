package kv

import (
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// A log rewritten in the transaction that deleted it keeps its steps in
// order, and a step appended after it goes last, whatever the pages: when
// the log fills a leaf page of its own, the delete empties that page until
// the commit, and bbolt's Prev stops on an emptied page as if the bucket
// began there. Appends then restarted at step 0, over the recording.
func TestLogRewrittenAcrossPagesKeepsItsSteps(t *testing.T) {
	for _, compacted := range []bool{false, true} {
		// Lengths around one and two leaf pages of steps, so that some log
		// fills a page that holds nothing else.
		for n := 40; n <= 200; n += 3 {
			t.Run(fmt.Sprintf("compacted=%v/steps=%d", compacted, n), func(t *testing.T) {
				db := openTest(t)
				want := make([]Event, n)
				err := db.Update(func(tx *Tx) error {
					for _, text := range []string{"I work at company A.", "I work at company B."} {
						id, err := tx.NextID()
						if err != nil {
							return err
						}
						if err := tx.Put(&Record{ID: id, Text: text, RecordedAt: 1}); err != nil {
							return err
						}
					}
					for i := range want {
						want[i] = Event{Kind: Pinned + EventKind(i%2), At: int64(i + 1), Cause: "toggled"}
						if i == 0 {
							want[i].Kind = Recorded
						}
						if err := tx.Append(1, &want[i]); err != nil {
							return err
						}
					}
					return tx.Append(2, &Event{Kind: Recorded, At: 1})
				})
				if err != nil {
					t.Fatal(err)
				}
				if compacted {
					if err := db.Compact(); err != nil { // full pages, as after a hard delete
						t.Fatal(err)
					}
				}
				extra := Event{Kind: Restored, At: int64(n + 1), Cause: "successor deleted"}
				var last int64
				err = db.Update(func(tx *Tx) error {
					evs, err := tx.Events(1)
					if err != nil {
						return err
					}
					if err := tx.ReplaceEvents(1, evs); err != nil {
						return err
					}
					if err := tx.Append(1, &extra); err != nil {
						return err
					}
					last, err = tx.LastEventAt(1)
					return err
				})
				if err != nil {
					t.Fatal(err)
				}
				if last != extra.At {
					t.Errorf("last step at %d in the rewriting transaction, want %d", last, extra.At)
				}
				_ = db.View(func(tx *Tx) error {
					got, err := tx.Events(1)
					if err != nil {
						t.Fatal(err)
					}
					if w := append(slices.Clone(want), extra); !slices.Equal(got, w) {
						t.Errorf("log of %d steps after rewrite and append; want %d, first %v", len(got), len(w), got[0])
					}
					return nil
				})
			})
		}
	}
}

// A step appended to a fact in the transaction that deleted the next fact,
// whose long log had a page of its own, goes after the fact's own steps.
func TestAppendAfterDeletingTheNextFactsLog(t *testing.T) {
	for _, compacted := range []bool{false, true} {
		for n := 40; n <= 200; n += 3 {
			t.Run(fmt.Sprintf("compacted=%v/steps=%d", compacted, n), func(t *testing.T) {
				db := openTest(t)
				err := db.Update(func(tx *Tx) error {
					for i := range 3 {
						id, err := tx.NextID()
						if err != nil {
							return err
						}
						if err := tx.Put(&Record{ID: id, Text: "I like tea.", RecordedAt: 1}); err != nil {
							return err
						}
						steps := 1
						if i == 1 {
							steps = n
						}
						for j := range steps {
							e := Event{Kind: Pinned + EventKind(j%2), At: 1, Cause: "toggled"}
							if j == 0 {
								e.Kind = Recorded
							}
							if err := tx.Append(id, &e); err != nil {
								return err
							}
						}
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				if compacted {
					if err := db.Compact(); err != nil {
						t.Fatal(err)
					}
				}
				err = db.Update(func(tx *Tx) error {
					if err := tx.Delete(2); err != nil {
						return err
					}
					return tx.Append(1, &Event{Kind: Pinned, At: 2})
				})
				if err != nil {
					t.Fatal(err)
				}
				_ = db.View(func(tx *Tx) error {
					got, err := tx.Events(1)
					if err != nil {
						t.Fatal(err)
					}
					if len(got) != 2 || got[0].Kind != Recorded || got[1].Kind != Pinned {
						t.Errorf("log of fact 1 after the append: %v", got)
					}
					return nil
				})
			})
		}
	}
}

// An event of the current encoding keeps its decision references.
func TestEventVersion2KeepsDecisionReferences(t *testing.T) {
	for _, e := range []Event{
		{Kind: Retracted, At: 9, Auto: true, Cause: "decision 7", Decision: 7},
		{Kind: Superseded, At: 9, Auto: true, By: 12, End: -3, Decision: 8},
		{Kind: Restored, At: 10, Cause: "undo of decision 7", Undoes: 7},
		// The cause is text for people: a user's reason that reads like a
		// reference is not one.
		{Kind: Retracted, At: 11, Cause: "decision 7"},
	} {
		b := appendEvent(nil, &e)
		if b[0] != eventVersion {
			t.Fatalf("written as version %d, want %d", b[0], eventVersion)
		}
		got, err := decodeEvent(b)
		if err != nil || got != e {
			t.Errorf("round trip of %+v: %+v, %v", e, got, err)
		}
	}
}

// Events written by version 1 of the encoding (the bytes below are what
// it wrote) still decode, and the decision references they kept in their
// cause, as Remember and Undo wrote it, become the fields: an old store's
// decisions can still be undone.
func TestEventVersion1DecodesDecisionReferences(t *testing.T) {
	for _, c := range []struct {
		hex  string
		want Event
	}{
		{"0103018080d0dfbd94b9863100000a6465636973696f6e2037bfa4a5df",
			Event{Kind: Retracted, At: 1767225600000000000, Auto: true, Cause: "decision 7", Decision: 7}},
		{"0104008280d0dfbd94b98631000012756e646f206f66206465636973696f6e20370ec47090",
			Event{Kind: Restored, At: 1767225600000000001, Cause: "undo of decision 7", Undoes: 7}},
		{"0102018480d0dfbd94b986310c80e098d8d48eb9863100bced813d",
			Event{Kind: Superseded, At: 1767225600000000002, Auto: true, By: 12, End: 1767225500000000000}},
		// Not as %d writes a number: no reference.
		{"0103008680d0dfbd94b9863100000b6465636973696f6e203037f37c8ebb",
			Event{Kind: Retracted, At: 1767225600000000003, Cause: "decision 07"}},
	} {
		b, err := hex.DecodeString(c.hex)
		if err != nil {
			t.Fatal(err)
		}
		got, err := decodeEvent(b)
		if err != nil || got != c.want {
			t.Errorf("%s: %+v, %v; want %+v", c.hex, got, err, c.want)
		}
	}
}

func TestDecisionRefs(t *testing.T) {
	for cause, want := range map[string][2]uint64{
		"decision 1":                    {1, 0},
		"decision 18446744073709551615": {18446744073709551615, 0},
		"undo of decision 42":           {0, 42},
		"decision 0":                    {},
		"decision -1":                   {},
		"decision +1":                   {},
		"decision 1 ":                   {},
		" decision 1":                   {},
		"decision 18446744073709551616": {},
		"Decision 1":                    {},
		"decision":                      {},
		"undo of decision 0":            {},
		"":                              {},
		"conflict 1 resolved: keep new": {},
	} {
		// Each text on the step its writer wrote it on.
		kind, auto := Retracted, strings.HasPrefix(cause, "decision")
		d, u := DecisionRefs(kind, auto, cause)
		if got := [2]uint64{d, u}; got != want {
			t.Errorf("DecisionRefs(%q) = %v, want %v", cause, got, want)
		}
	}
	// The same words on another step were a person's: no reference.
	for _, c := range []struct {
		kind  EventKind
		auto  bool
		cause string
	}{
		{Retracted, false, "decision 3"},        // a user's retraction with that reason
		{Restored, true, "decision 3"},          // Remember never restored
		{Superseded, true, "decision 3"},        // old supersedes wrote no cause
		{Retracted, true, "undo of decision 3"}, // undo steps were the user's
		{Pinned, false, "undo of decision 3"},
	} {
		if d, u := DecisionRefs(c.kind, c.auto, c.cause); d != 0 || u != 0 {
			t.Errorf("DecisionRefs(%s, auto %v, %q) = %d, %d, want none", c.kind, c.auto, c.cause, d, u)
		}
	}
	if _, u := DecisionRefs(Restored, false, "undo of decision 3"); u != 3 {
		t.Errorf("Undo's restoration lost its reference")
	}
}

// A confirmed step round-trips, and names its decision.
func TestEventConfirmedRoundTrips(t *testing.T) {
	e := Event{Kind: Confirmed, At: 12, Auto: true, Cause: "told again", Decision: 4}
	got, err := decodeEvent(appendEvent(nil, &e))
	if err != nil || got != e {
		t.Fatalf("round trip of %+v: %+v, %v", e, got, err)
	}
	if k, ok := ParseEventKind("confirmed"); !ok || k != Confirmed || Confirmed.String() != "confirmed" {
		t.Fatalf("ParseEventKind(confirmed) = %v, %v", k, ok)
	}
	bad := e
	bad.Kind = Unconfirmed + 1 // past the last kind
	if _, err := decodeEvent(appendEvent(nil, &bad)); !errors.Is(err, ErrDecode) {
		t.Fatalf("kind %d decoded: %v", bad.Kind, err)
	}
}
