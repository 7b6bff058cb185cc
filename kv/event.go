package kv

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// EventKind names a step in a fact's lifecycle.
type EventKind uint8

// Lifecycle steps. The log of a fact is append-only; hard delete is the one
// operation that removes it.
const (
	Recorded EventKind = iota + 1
	Superseded
	Retracted
	Restored
	Pinned
	Unpinned
)

var eventNames = [...]string{"", "recorded", "superseded", "retracted", "restored", "pinned", "unpinned"}

func (k EventKind) String() string {
	if int(k) < len(eventNames) && k > 0 {
		return eventNames[k]
	}
	return fmt.Sprintf("event(%d)", k)
}

// ParseEventKind is the inverse of String.
func ParseEventKind(s string) (EventKind, bool) {
	for i, n := range eventNames {
		if i > 0 && n == s {
			return EventKind(i), true
		}
	}
	return 0, false
}

// Event is one entry of a fact's lifecycle log.
type Event struct {
	Kind EventKind
	At   int64 // record time, Unix nanoseconds
	Auto bool  // done by automation rather than by the user
	// By is the successor for Superseded (0 once that successor was hard-deleted).
	By uint64
	// End is where the fact's event interval closed for Superseded: the start
	// of the successor's interval, kept here so it outlives the successor.
	End   int64
	Cause string
}

const eventVersion = 1

// AppendEvent appends the binary form of e to b.
func AppendEvent(b []byte, e *Event) []byte {
	start := len(b)
	var auto byte
	if e.Auto {
		auto = 1
	}
	b = append(b, eventVersion, byte(e.Kind), auto)
	b = binary.AppendVarint(b, e.At)
	b = binary.AppendUvarint(b, e.By)
	b = binary.AppendVarint(b, e.End)
	return sealed(appendString(b, e.Cause), start)
}

// DecodeEvent decodes a value written by AppendEvent.
func DecodeEvent(b []byte) (Event, error) {
	b, err := unseal(b)
	if err != nil {
		return Event{}, fmt.Errorf("%w: event: %v", ErrDecode, err)
	}
	d := decoder{b: b}
	if v := d.byte(); v != eventVersion {
		return Event{}, fmt.Errorf("%w: event version %d", ErrDecode, v)
	}
	e := Event{Kind: EventKind(d.byte()), Auto: d.byte() == 1}
	e.At = d.varint()
	e.By = d.uvarint()
	e.End = d.varint()
	e.Cause = d.string()
	if d.err == nil && len(d.b) != 0 {
		d.err = errors.New("trailing bytes")
	}
	if d.err != nil {
		return Event{}, fmt.Errorf("%w: event: %v", ErrDecode, d.err)
	}
	if e.Kind < Recorded || e.Kind > Unpinned {
		return Event{}, fmt.Errorf("%w: event kind %d", ErrDecode, e.Kind)
	}
	return e, nil
}
