package memory

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory/kv"
)

// TestRecordFieldsMapped fills every field of a kv.Record with a value of
// its own and follows it through factOf (to Fact) and exportOf, JSON and
// importFact (to the export and back). A swapped or forgotten mapping
// shows as a Fact field that does not hold its record field's value, or a
// record that does not come back whole; a field added to kv.Record or Fact
// without a counterpart in the other fails until it is mapped here too.
func TestRecordFieldsMapped(t *testing.T) {
	var r kv.Record
	n := 0
	for name, f := range fields(reflect.ValueOf(&r).Elem(), "", nil) {
		n++
		switch f.Kind() {
		case reflect.String:
			f.SetString(fmt.Sprintf("value %d", n))
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Uint64:
			f.SetUint(uint64(100 + n))
		case reflect.Int64: // nanoseconds
			f.SetInt(time.Date(2026, 1, n, 0, 0, 0, 0, time.UTC).UnixNano())
		default:
			t.Fatalf("kv.Record.%s is a %s, which this test cannot fill yet", name, f.Kind())
		}
	}
	// What import checks: a known event source, an interval that ends
	// after it starts, a record time before the end of the record.
	r.EventSource = EventFromModel
	if r.EventUntil <= r.EventFrom {
		r.EventFrom, r.EventUntil = r.EventUntil, r.EventFrom
	}
	if r.ValidUntil <= r.RecordedAt {
		r.RecordedAt, r.ValidUntil = r.ValidUntil, r.RecordedAt
	}
	evs := []kv.Event{
		{Kind: kv.Recorded, At: r.RecordedAt},
		{Kind: kv.Pinned, At: r.RecordedAt, Auto: true, Cause: "pinned"},
		{Kind: kv.Superseded, At: r.ValidUntil, By: r.SupersededBy, End: r.EventUntil - 1},
	}

	// Record → Fact: every Fact field holds the record field of its name.
	derived := map[string]bool{"EventStart": true, "EventEnd": true} // computed from the interval and the log
	inFact := map[string]string{"Origin": "Auto", "EventFrom": "EventFrom", "EventUntil": "EventUntil"}
	rec := fields(reflect.ValueOf(r), "", nil)
	used := map[string]bool{"HasFrom": true, "HasUntil": true} // a zero EventFrom, EventUntil in Fact
	for name, got := range fields(reflect.ValueOf(factWithLog(&r, evs)), "", nil) {
		if derived[name] {
			continue
		}
		src := name
		if s, ok := inFact[name]; ok {
			src = s
		}
		want, ok := rec[src]
		if !ok {
			t.Errorf("Fact.%s has no kv.Record field %s: map it in factOf, exportOf, importFact and here", name, src)
			continue
		}
		used[src] = true
		var same bool
		switch {
		case name == "Origin":
			same = got.Interface() == any(OriginAuto) && want.Bool()
		case got.Type() == reflect.TypeFor[time.Time]():
			same = got.Interface().(time.Time).UnixNano() == want.Int()
		default:
			same = got.Interface() == want.Interface()
		}
		if !same {
			t.Errorf("Fact.%s = %v, kv.Record.%s = %v", name, got, src, want)
		}
	}
	for name := range rec {
		if !used[name] {
			t.Errorf("kv.Record.%s reaches no Fact field: map it in factOf, exportOf, importFact and here", name)
		}
	}

	// Record → export → record.
	s := openStore(t)
	line, err := json.Marshal(exportOf(&r, evs))
	if err != nil {
		t.Fatal(err)
	}
	var e exportFact
	if err := strictUnmarshal(line, &e); err != nil {
		t.Fatal(err)
	}
	back, backEvs, err := s.importFact(&e)
	if err != nil {
		t.Fatalf("import of %s: %v", line, err)
	}
	if !reflect.DeepEqual(back, r) {
		t.Errorf("after export and import\n got %+v\nwant %+v", back, r)
	}
	if !reflect.DeepEqual(backEvs, evs) {
		t.Errorf("log after export and import\n got %+v\nwant %+v", backEvs, evs)
	}
}
