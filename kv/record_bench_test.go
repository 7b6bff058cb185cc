package kv

import "testing"

var benchRecord = Record{ID: 42, User: "alice", Text: "I work as a backend developer at Brightline Logistics.",
	RecordedAt: 1_780_000_000_000_000_000, HasFrom: true, EventFrom: 1_770_000_000_000_000_000,
	Source: Source{Kind: "chat", Ref: "msg-812", Quote: "backend developer at Brightline", SaidAt: 1_779_000_000_000_000_000}}

func BenchmarkAppendRecord(b *testing.B) {
	buf := make([]byte, 0, 256)
	b.ReportAllocs()
	for b.Loop() {
		buf = appendRecord(buf[:0], &benchRecord)
	}
}

func BenchmarkDecodeRecord(b *testing.B) {
	enc := appendRecord(nil, &benchRecord)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decodeRecord(42, enc); err != nil {
			b.Fatal(err)
		}
	}
}
