package kv

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"
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
	// Confirmed: the fact was told again (Remember's noop). It changes no
	// marker; it only says the fact was still believed then.
	Confirmed
	// Unconfirmed: the Confirmed step of decision Undoes no longer counts
	// (Undo of that decision). The log stays append-only: the confirmation
	// is cancelled by this later step, not erased.
	Unconfirmed
)

var eventNames = [...]string{"", "recorded", "superseded", "retracted", "restored", "pinned", "unpinned", "confirmed", "unconfirmed"}

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
	Cause string // why, as said to a person; the references below are for programs
	// Decision is the decision log entry whose verdict this step carries
	// out (Remember's supersede or retraction), 0 for none.
	Decision uint64
	// Undoes is the decision log entry this step is part of the undo of.
	Undoes uint64
}

// Versions of an event's encoding. Version 1 had no decision references:
// they were in Cause only, as the exact text that DecisionRefs reads back.
const (
	eventVersion1 = 1
	eventVersion  = 2
)

// appendEvent appends the binary form of e to b.
func appendEvent(b []byte, e *Event) []byte {
	start := len(b)
	var auto byte
	if e.Auto {
		auto = 1
	}
	b = append(b, eventVersion, byte(e.Kind), auto)
	b = binary.AppendVarint(b, e.At)
	b = binary.AppendUvarint(b, e.By)
	b = binary.AppendVarint(b, e.End)
	b = binary.AppendUvarint(b, e.Decision)
	b = binary.AppendUvarint(b, e.Undoes)
	return sealed(appendString(b, e.Cause), start)
}

// decodeEvent decodes a value written by appendEvent.
func decodeEvent(b []byte) (Event, error) {
	b, err := unseal(b)
	if err != nil {
		return Event{}, fmt.Errorf("%w: event: %v", ErrDecode, err)
	}
	d := decoder{b: b}
	v := d.byte()
	if v != eventVersion && v != eventVersion1 {
		return Event{}, fmt.Errorf("%w: event version %d", ErrDecode, v)
	}
	e := Event{Kind: EventKind(d.byte()), Auto: d.byte() == 1}
	e.At = d.varint()
	e.By = d.uvarint()
	e.End = d.varint()
	if v == eventVersion {
		e.Decision = d.uvarint()
		e.Undoes = d.uvarint()
	}
	e.Cause = d.string()
	if v == eventVersion1 {
		e.Decision, e.Undoes = DecisionRefs(e.Kind, e.Auto, e.Cause)
	}
	if d.err == nil && len(d.b) != 0 {
		d.err = errors.New("trailing bytes")
	}
	if d.err != nil {
		return Event{}, fmt.Errorf("%w: event: %v", ErrDecode, d.err)
	}
	if e.Kind < Recorded || e.Kind > Unconfirmed {
		return Event{}, fmt.Errorf("%w: event kind %d", ErrDecode, e.Kind)
	}
	return e, nil
}

// DecisionRefs reads the decision references that a step written before
// they had fields of their own kept in its cause, exactly as those writers
// wrote them and on the steps they wrote them on: "decision N" on
// Remember's automatic retraction, "undo of decision N" on Undo's
// retraction or restoration, which were the user's. Any other cause, or
// the same words on another step (a person's own reason), names no
// decision.
func DecisionRefs(kind EventKind, auto bool, cause string) (decision, undoes uint64) {
	if n, ok := decisionNumber(cause, "decision "); ok && kind == Retracted && auto {
		return n, 0
	}
	if n, ok := decisionNumber(cause, "undo of decision "); ok && (kind == Retracted || kind == Restored) && !auto {
		return 0, n
	}
	return 0, 0
}

// decisionNumber is N of a text that is exactly prefix followed by the
// decimal N ≥ 1, as fmt's %d writes it.
func decisionNumber(s, prefix string) (uint64, bool) {
	digits, ok := strings.CutPrefix(s, prefix)
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseUint(digits, 10, 64)
	if err != nil || n == 0 || strconv.FormatUint(n, 10) != digits {
		return 0, false
	}
	return n, true
}
