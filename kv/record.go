package kv

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
)

var be = binary.BigEndian

// Record is the stored form of one fact version. Times are Unix nanoseconds
// (UTC); an unset time is 0 together with its Has flag cleared.
type Record struct {
	ID           uint64
	User         string
	Text         string
	Pinned       bool
	Auto         bool // written by automation rather than stated by the user
	RecordedAt   int64
	ValidUntil   int64 // 0: current
	SupersededBy uint64
	Supersedes   uint64 // the fact this one replaced when it was written
	// AlsoSupersedes are the facts it replaced later, when a person kept
	// it over them in conflicts; records before version 4 have none.
	AlsoSupersedes []uint64
	EventFrom      int64
	EventUntil     int64
	HasFrom        bool
	HasUntil       bool
	// EventSource says where EventFrom came from: "given" by the caller,
	// the "model"'s answer, or the "words" of the text; "" when unset.
	EventSource string
	// EventUntilSource says the same of EventUntil; records before version
	// 3 have none.
	EventUntilSource string
	Source           Source
	// Claims are what the fact states; records of version 1, written
	// before claims existed, have none.
	Claims []Claim
}

// Claim is one (subject, relation, object) claim of a fact, with the kind of
// its object. kv stores it as given; memory validates it.
type Claim struct {
	Subject, Relation, Object, Kind string
}

// Source is a fact's provenance.
type Source struct {
	Kind   string
	Ref    string
	Quote  string
	SaidAt int64 // 0: unknown
}

// Current reports whether the record is neither superseded nor retracted.
func (r *Record) Current() bool { return r.ValidUntil == 0 }

// recordVersion 2 added the claims, 3 where the event's end came from, 4
// the further facts a fact replaced; earlier versions still decode,
// without them.
const recordVersion = 4

const (
	flagPinned = 1 << iota
	flagAuto
	flagHasFrom
	flagHasUntil
)

// ErrDecode wraps every decoding failure; it is a form of corruption.
var ErrDecode = fmt.Errorf("%w: undecodable record", ErrCorrupt)

// appendRecord appends the binary form of r to b. The ID is the key and is
// not repeated in the value.
func appendRecord(b []byte, r *Record) []byte {
	return sealed(appendRecordBody(b, r), len(b))
}

func appendRecordBody(b []byte, r *Record) []byte {
	var flags byte
	if r.Pinned {
		flags |= flagPinned
	}
	if r.Auto {
		flags |= flagAuto
	}
	if r.HasFrom {
		flags |= flagHasFrom
	}
	if r.HasUntil {
		flags |= flagHasUntil
	}
	b = append(b, recordVersion, flags)
	b = appendString(b, r.User)
	b = appendString(b, r.Text)
	b = binary.AppendVarint(b, r.RecordedAt)
	b = binary.AppendVarint(b, r.ValidUntil)
	b = binary.AppendUvarint(b, r.SupersededBy)
	b = binary.AppendUvarint(b, r.Supersedes)
	b = binary.AppendVarint(b, r.EventFrom)
	b = binary.AppendVarint(b, r.EventUntil)
	b = appendString(b, r.Source.Kind)
	b = appendString(b, r.Source.Ref)
	b = appendString(b, r.Source.Quote)
	b = binary.AppendVarint(b, r.Source.SaidAt)
	b = appendString(b, r.EventSource)
	b = binary.AppendUvarint(b, uint64(len(r.Claims)))
	for _, c := range r.Claims {
		b = appendString(b, c.Subject)
		b = appendString(b, c.Relation)
		b = appendString(b, c.Object)
		b = appendString(b, c.Kind)
	}
	b = appendString(b, r.EventUntilSource)
	b = binary.AppendUvarint(b, uint64(len(r.AlsoSupersedes)))
	for _, id := range r.AlsoSupersedes {
		b = binary.AppendUvarint(b, id)
	}
	return b
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// sealed appends a CRC-32C of b[start:] to b. bbolt checksums only its meta
// pages, so without this a flipped byte in a record would decode into a
// silently wrong fact.
func sealed(b []byte, start int) []byte {
	return be.AppendUint32(b, crc32.Checksum(b[start:], castagnoli))
}

// unseal verifies and strips the checksum that sealed appended.
func unseal(b []byte) ([]byte, error) {
	if len(b) < 4 {
		return nil, errShort
	}
	body := b[:len(b)-4]
	if crc32.Checksum(body, castagnoli) != be.Uint32(b[len(b)-4:]) {
		return nil, errors.New("checksum mismatch")
	}
	return body, nil
}

// decodeRecord decodes a value written by appendRecord. Strings are copied,
// so r stays valid after the transaction ends.
func decodeRecord(id uint64, b []byte) (Record, error) {
	b, err := unseal(b)
	if err != nil {
		return Record{}, fmt.Errorf("%w: fact %d: %v", ErrDecode, id, err)
	}
	d := decoder{b: b}
	v := d.byte()
	if v < 1 || v > recordVersion {
		return Record{}, fmt.Errorf("%w: fact %d: version %d", ErrDecode, id, v)
	}
	flags := d.byte()
	r := Record{
		ID:       id,
		Pinned:   flags&flagPinned != 0,
		Auto:     flags&flagAuto != 0,
		HasFrom:  flags&flagHasFrom != 0,
		HasUntil: flags&flagHasUntil != 0,
	}
	r.User = d.string()
	r.Text = d.string()
	r.RecordedAt = d.varint()
	r.ValidUntil = d.varint()
	r.SupersededBy = d.uvarint()
	r.Supersedes = d.uvarint()
	r.EventFrom = d.varint()
	r.EventUntil = d.varint()
	r.Source.Kind = d.string()
	r.Source.Ref = d.string()
	r.Source.Quote = d.string()
	r.Source.SaidAt = d.varint()
	if v == 1 {
		if d.err == nil && len(d.b) > 0 { // absent in records written before it existed
			r.EventSource = d.string()
		}
	} else {
		r.EventSource = d.string()
		n := d.uvarint()
		// Each claim takes at least four bytes: a bound before allocating.
		if d.err == nil && n > uint64(len(d.b))/4 {
			d.err = errShort
		}
		if d.err == nil && n > 0 {
			r.Claims = make([]Claim, n)
			for i := range r.Claims {
				r.Claims[i] = Claim{Subject: d.string(), Relation: d.string(), Object: d.string(), Kind: d.string()}
			}
		}
		if v >= 3 {
			r.EventUntilSource = d.string()
		}
		if v >= 4 {
			n := d.uvarint()
			// Each id takes at least a byte: a bound before allocating.
			if d.err == nil && n > uint64(len(d.b)) {
				d.err = errShort
			}
			if d.err == nil && n > 0 {
				r.AlsoSupersedes = make([]uint64, n)
				for i := range r.AlsoSupersedes {
					r.AlsoSupersedes[i] = d.uvarint()
				}
			}
		}
	}
	if d.err == nil && len(d.b) != 0 {
		d.err = errors.New("trailing bytes")
	}
	if d.err != nil {
		return Record{}, fmt.Errorf("%w: fact %d: %v", ErrDecode, id, d.err)
	}
	return r, nil
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

var errShort = errors.New("truncated")

// decoder reads fields in order and remembers the first error, so callers
// check once at the end.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) byte() byte {
	if d.err != nil || len(d.b) == 0 {
		d.err = errShort
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *decoder) varint() int64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.err = errShort
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = errShort
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) string() string {
	n := d.uvarint()
	if d.err != nil {
		return ""
	}
	if n > uint64(len(d.b)) {
		d.err = errShort
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}
