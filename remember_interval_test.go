package memory_test

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/palimpsest-mem/memory"
)

// "I'll be in Rome from 13 to 15 July", told on 1 July: the fact is true on
// 14 July and not on 16 July, and the prompt shows it as upcoming, then
// current, then not at all, while the fact itself stays current: nobody
// invalidated it, its interval ended.
func TestRememberStoresTheIntervalOfItsWords(t *testing.T) {
	c := newClock("2026-07-01")
	s, _ := open(t, c, nil)
	out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I'll be in Rome from 13 to 15 July."}))
	f := out.Fact
	if !f.EventFrom.Equal(date("2026-07-13")) || !f.EventUntil.Equal(date("2026-07-16")) ||
		f.EventSource != memory.EventFromWords || f.EventUntilSource != memory.EventFromWords {
		t.Fatalf("stored interval %v (%s) to %v (%s), want 2026-07-13 to 2026-07-16 from the words",
			f.EventFrom, f.EventSource, f.EventUntil, f.EventUntilSource)
	}
	if d := out.Decision; d.EventUntil == nil || !d.EventUntil.Equal(date("2026-07-16")) {
		t.Errorf("the decision's end: %v", d.EventUntil)
	}
	wantAt(t, s, "", "2026-07-12", "")
	wantAt(t, s, "", "2026-07-14", "", f.ID)
	wantAt(t, s, "", "2026-07-15T23:00:00Z", "", f.ID)
	wantAt(t, s, "", "2026-07-16", "")

	for _, step := range []struct {
		day, want string
	}{
		{"2026-07-01", "I'll be in Rome from 13 to 15 July. (from 2026-07-13, through 2026-07-15)"},
		{"2026-07-14", "I'll be in Rome from 13 to 15 July. (since 2026-07-13, through 2026-07-15)"},
		{"2026-07-17", ""},
	} {
		c.set(step.day)
		p := must[string](t)(s.Prompt(ctx, "", nil))
		if step.want == "" && strings.Contains(p, "Rome") || step.want != "" && !strings.Contains(p, step.want) {
			t.Errorf("prompt on %s, want %q:\n%s", step.day, step.want, p)
		}
	}
	if g := getFact(t, s, "", f.ID); g.State() != memory.Current {
		t.Errorf("after its interval the fact is %v: an end in event time is not an invalidation", g.State())
	}
}

// An end alone ("until Friday") bounds the fact from when it was recorded;
// one in the past ("until 2023") leaves a fact with no known start that is
// not true now.
func TestRememberStoresAnEndAlone(t *testing.T) {
	c := newClock("2026-07-01") // a Wednesday
	s, _ := open(t, c, nil)
	f := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I'm staying with my parents until Friday."})).Fact
	if !f.EventFrom.IsZero() || !f.EventUntil.Equal(date("2026-07-04")) || f.EventUntilSource != memory.EventFromWords {
		t.Fatalf("from %v until %v (%s), want no start and an end on Saturday 2026-07-04", f.EventFrom, f.EventUntil, f.EventUntilSource)
	}
	wantAt(t, s, "", "2026-07-03", "", f.ID)
	wantAt(t, s, "", "2026-07-04", "")
}

// What the caller gives wins over the words, and an end of the words that
// is not after the start is dropped rather than refusing the fact.
func TestRememberExplicitIntervalOverridesTheWords(t *testing.T) {
	c := newClock("2026-07-01")
	s, _ := open(t, c, nil)
	f := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I'll be in Rome from 13 to 15 July.",
		EventUntil: date("2026-07-20")})).Fact
	if !f.EventFrom.Equal(date("2026-07-13")) || !f.EventUntil.Equal(date("2026-07-20")) || f.EventUntilSource != memory.EventGiven {
		t.Errorf("given end: from %v until %v (%s)", f.EventFrom, f.EventUntil, f.EventUntilSource)
	}
	g := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{User: "bob", Text: "I'll be in Oslo from 13 to 15 July.",
		EventFrom: date("2026-08-01")})).Fact
	if !g.EventFrom.Equal(date("2026-08-01")) || !g.EventUntil.IsZero() || g.EventUntilSource != "" {
		t.Errorf("given start after the words' end: from %v until %v (%s)", g.EventFrom, g.EventUntil, g.EventUntilSource)
	}
}

// Where an end came from survives an export and an import.
func TestEventUntilSourceRoundTrips(t *testing.T) {
	s, _ := open(t, newClock("2026-07-01"), nil)
	must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I'm staying with my parents until Friday."}))
	must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I rent a flat in Lisbon.", EventUntil: date("2027-01-01")}))
	var b bytes.Buffer
	if err := s.Export(ctx, &b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"event_until_source":"words"`) || !strings.Contains(b.String(), `"event_until_source":"given"`) {
		t.Fatalf("export lacks the end's sources:\n%s", b.String())
	}
	s2, _ := open(t, newClock("2026-07-02"), nil)
	if _, err := s2.Import(ctx, bytes.NewReader(b.Bytes()), nil); err != nil {
		t.Fatal(err)
	}
	var again bytes.Buffer
	if err := s2.Export(ctx, &again); err != nil {
		t.Fatal(err)
	}
	if again.String() != b.String() {
		t.Errorf("re-export differs:\n%s\nwant:\n%s", again.String(), b.String())
	}
	old := shared(t, b.String(), 7)
	s3, _ := open(t, nil, nil)
	if _, err := s3.Import(ctx, strings.NewReader(old), nil); err == nil || !strings.Contains(err.Error(), "event_until_source in a version 7 export") {
		t.Errorf("a version 7 export with an end's source: %v", err)
	}
	// Before version 8 only a caller set an end: such an end is given.
	var v7 strings.Builder
	for _, line := range strings.SplitAfter(old, "\n") {
		line = regexp.MustCompile(`,"event_until_source":"[a-z]+"`).ReplaceAllString(line, "")
		if strings.HasPrefix(line, `{"decision"`) {
			line = regexp.MustCompile(`,"event_until":"[^"]*"`).ReplaceAllString(line, "")
		}
		v7.WriteString(line)
	}
	s4, _ := open(t, nil, nil)
	if _, err := s4.Import(ctx, strings.NewReader(v7.String()), nil); err != nil {
		t.Fatal(err)
	}
	for _, f := range must[[]memory.Fact](t)(s4.List(ctx, "", nil)) {
		if f.EventUntilSource != memory.EventGiven {
			t.Errorf("fact %d of a version 7 export: end from %q, want given", f.ID, f.EventUntilSource)
		}
	}
	// A source with no end is refused.
	bad := strings.Replace(b.String(), `"event_until":"2027-01-01T00:00:00Z","event_until_source":"given"`, `"event_until":null,"event_until_source":"given"`, 1)
	s5, _ := open(t, nil, nil)
	if _, err := s5.Import(ctx, strings.NewReader(bad), nil); err == nil || !strings.Contains(err.Error(), "with no event_until") {
		t.Errorf("an end's source with no end: %v", err)
	}
}
