package kv

import (
	"errors"
	"reflect"
	"testing"
)

func TestRecordClaimsRoundTrip(t *testing.T) {
	r := Record{ID: 5, User: "u", Text: "I work at company A. Моя сестра живёт в Казани.", RecordedAt: 7, EventSource: "",
		Claims: []Claim{{Subject: "user", Relation: "works_at", Object: "company a", Kind: "company"},
			{Subject: "сестра", Relation: "lives_in", Object: "казань", Kind: "city"}}}
	got, err := decodeRecord(r.ID, appendRecord(nil, &r))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, r) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, r)
	}
}

// appendV1 is the encoding of version 1, before claims: the same fields up
// to EventSource, without the claim count (nor EventUntilSource).
func appendV1(r *Record) []byte {
	body := appendRecordBody(nil, &Record{User: r.User, Text: r.Text, RecordedAt: r.RecordedAt, EventSource: r.EventSource,
		Pinned: r.Pinned, Source: r.Source})
	body[0] = 1
	body = body[:len(body)-3] // the zero claim count, the empty EventUntilSource, no further predecessors
	return sealed(body, 0)
}

// appendV2 is the encoding of version 2: claims, but no EventUntilSource.
func appendV2(r *Record) []byte {
	c := *r
	c.EventUntilSource = ""
	body := appendRecordBody(nil, &c)
	body[0] = 2
	body = body[:len(body)-2] // the empty EventUntilSource, no further predecessors
	return sealed(body, 0)
}

// appendV3 is the encoding of version 3: no further predecessors.
func appendV3(r *Record) []byte {
	c := *r
	c.AlsoSupersedes = nil
	body := appendRecordBody(nil, &c)
	body[0] = 3
	body = body[:len(body)-1] // the zero count of further predecessors
	return sealed(body, 0)
}

// Records written before a fact could replace several decode with none,
// and the current version keeps them.
func TestRecordVersion3DecodesWithoutFurtherPredecessors(t *testing.T) {
	r := Record{ID: 6, User: "u", Text: "Я работаю в Яндексе.", RecordedAt: 11, Supersedes: 3, EventUntilSource: "words"}
	got, err := decodeRecord(r.ID, appendV3(&r))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, r) {
		t.Errorf("v3 record:\n got %+v\nwant %+v", got, r)
	}
	r.AlsoSupersedes = []uint64{22, 1 << 40}
	if got, err := decodeRecord(r.ID, appendRecord(nil, &r)); err != nil || !reflect.DeepEqual(got, r) {
		t.Errorf("v4 record: %+v, %v", got, err)
	}
	// A count larger than the bytes left is corruption, not an allocation.
	b := appendRecordBody(nil, &Record{Text: "x"})
	b = append(b[:len(b)-1], 0xff, 0xff, 0xff, 0x7f)
	if _, err := decodeRecord(1, sealed(b, 0)); !errors.Is(err, ErrCorrupt) {
		t.Errorf("huge count: %v", err)
	}
}

// Records written before the end's source existed decode with none.
func TestRecordVersion2DecodesWithoutUntilSource(t *testing.T) {
	r := Record{ID: 4, User: "u", Text: "I am in Rome until Friday.", RecordedAt: 11, EventUntil: 99, HasUntil: true,
		Claims: []Claim{{Subject: "user", Relation: "lives_in", Object: "rome", Kind: "city"}}}
	got, err := decodeRecord(r.ID, appendV2(&r))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, r) {
		t.Errorf("v2 record:\n got %+v\nwant %+v", got, r)
	}
	r.EventUntilSource = "words"
	if got, err := decodeRecord(r.ID, appendRecord(nil, &r)); err != nil || got.EventUntilSource != "words" {
		t.Errorf("v3 record: %+v, %v", got, err)
	}
}

// Records written before claims existed still decode, with none.
func TestRecordVersion1DecodesWithoutClaims(t *testing.T) {
	r := Record{ID: 9, User: "u", Text: "I work at company A.", RecordedAt: 11, EventSource: "words", Pinned: true}
	got, err := decodeRecord(r.ID, appendV1(&r))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, r) || got.Claims != nil {
		t.Errorf("v1 record:\n got %+v\nwant %+v", got, r)
	}
	// A version that never existed is refused.
	b := appendRecordBody(nil, &r)
	b[0] = recordVersion + 1
	if _, err := decodeRecord(r.ID, sealed(b, 0)); !errors.Is(err, ErrCorrupt) {
		t.Errorf("version %d: %v", recordVersion+1, err)
	}
}

// A claim count larger than the bytes left is corruption, not a huge
// allocation.
func TestRecordClaimCountBounded(t *testing.T) {
	b := appendRecordBody(nil, &Record{Text: "x"})
	b = b[:len(b)-2]
	b = append(b, 0xff, 0xff, 0xff, 0xff, 0x0f)
	if _, err := decodeRecord(1, sealed(b, 0)); !errors.Is(err, ErrCorrupt) {
		t.Errorf("huge claim count: %v", err)
	}
}
