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
		case reflect.Slice:
			if f.Type() == reflect.TypeFor[[]uint64]() {
				f.Set(reflect.ValueOf([]uint64{uint64(200 + n)}))
				continue
			}
			if f.Type() != reflect.TypeFor[[]kv.Claim]() {
				t.Fatalf("kv.Record.%s is a %s, which this test cannot fill yet", name, f.Type())
			}
			// Claims must be valid to import: a known relation and kind.
			f.Set(reflect.ValueOf([]kv.Claim{{Subject: fmt.Sprintf("value %d", n), Relation: "works_at",
				Object: fmt.Sprintf("value %d", n+1), Kind: "company"}, {Relation: "lives_in", Object: "Kazan"}}))
		default:
			t.Fatalf("kv.Record.%s is a %s, which this test cannot fill yet", name, f.Kind())
		}
	}
	// What import checks: a known event source, an interval that ends
	// after it starts, a record time before the end of the record.
	r.EventSource, r.EventUntilSource = EventFromModel, EventFromWords
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
		case name == "Claims":
			same = reflect.DeepEqual(got.Interface(), fromKVClaims(r.Claims)) && len(r.Claims) == 2
		case got.Kind() == reflect.Slice:
			same = reflect.DeepEqual(got.Interface(), want.Interface())
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
	back, backEvs, err := s.importFact(&e, exportHeader{Version: exportVersion})
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

// TestEventFieldsMapped does for a log step what TestRecordFieldsMapped
// does for a record: every field of kv.Event, given a value of its own,
// must reach the Event field of its name (eventOf) and come back whole
// from an export (exportOf, JSON, importFact). A field added to kv.Event or
// Event without a counterpart in the other fails here until it is mapped.
func TestEventFieldsMapped(t *testing.T) {
	var e kv.Event
	n := 0
	for name, f := range fields(reflect.ValueOf(&e).Elem(), "", nil) {
		n++
		switch f.Kind() {
		case reflect.Uint8: // the kind, set below
		case reflect.String:
			f.SetString(fmt.Sprintf("value %d", n))
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Uint64:
			f.SetUint(uint64(100 + n))
		case reflect.Int64: // nanoseconds
			f.SetInt(time.Date(2026, 2, n, 0, 0, 0, 0, time.UTC).UnixNano())
		default:
			t.Fatalf("kv.Event.%s is a %s, which this test cannot fill yet", name, f.Kind())
		}
	}
	e.Kind = kv.Superseded // the one kind that carries every field
	ev := fields(reflect.ValueOf(e), "", nil)
	inEvent := map[string]string{"Origin": "Auto", "EventEnd": "End"}
	used := map[string]bool{}
	for name, got := range fields(reflect.ValueOf(eventOf(&e)), "", nil) {
		src := name
		if s, ok := inEvent[name]; ok {
			src = s
		}
		want, ok := ev[src]
		if !ok {
			t.Errorf("Event.%s has no kv.Event field %s: map it in eventOf, exportOf, importFact and here", name, src)
			continue
		}
		used[src] = true
		var same bool
		switch {
		case name == "Kind":
			same = got.Interface() == any(EventSuperseded)
		case name == "Origin":
			same = got.Interface() == any(OriginAuto) && want.Bool()
		case got.Type() == reflect.TypeFor[time.Time]():
			same = got.Interface().(time.Time).UnixNano() == want.Int()
		default:
			same = got.Interface() == want.Interface()
		}
		if !same {
			t.Errorf("Event.%s = %v, kv.Event.%s = %v", name, got, src, want)
		}
	}
	for name := range ev {
		if !used[name] {
			t.Errorf("kv.Event.%s reaches no Event field: map it in eventOf, exportOf, importFact and here", name)
		}
	}

	// Step → export → step, on a fact the step superseded.
	r := kv.Record{ID: 1, Text: "I work at company A.", RecordedAt: e.At - 1, ValidUntil: e.At, SupersededBy: e.By}
	evs := []kv.Event{{Kind: kv.Recorded, At: r.RecordedAt}, e}
	line, err := json.Marshal(exportOf(&r, evs))
	if err != nil {
		t.Fatal(err)
	}
	var x exportFact
	if err := strictUnmarshal(line, &x); err != nil {
		t.Fatal(err)
	}
	_, back, err := openStore(t).importFact(&x, exportHeader{Version: exportVersion, LastDecision: 1000})
	if err != nil {
		t.Fatalf("import of %s: %v", line, err)
	}
	if !reflect.DeepEqual(back, evs) {
		t.Errorf("log after export and import\n got %+v\nwant %+v", back, evs)
	}
}
