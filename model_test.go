package memory_test

import (
	"errors"
	"fmt"
	"github.com/palimpsest-mem/memory/internal/userkey"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"pgregory.net/rapid"

	"github.com/palimpsest-mem/memory"
)

// The model-based test: rapid draws sequences of writes (Add, Supersede,
// Invalidate, Restore, Pin, Unpin, hard Delete) over three users while an
// injected clock moves forward, and replays each against a small in-memory
// model of the semantics in the README (The two axes). After every write the store must
// agree with the model on every fact's fields and lifecycle log, the lists,
// At(now, now) and the prompt; reads drawn at random compare At on both time
// axes, History and Candidates; each run ends with a grid of At queries and
// Check. Every answer is also checked never to hold another user's fact.

// modelUsers are the users of the model test; the texts of their facts
// carry a tag with no word of four letters, so that the tag itself never
// makes two facts candidates of each other.
var modelUsers = userkey.Users{"", "alice", "мила"}

// modelVocab are the words texts are made of: few, so that facts share
// keywords often; mixed case, Cyrillic, and short words the keyword lookup
// ignores.
var modelVocab = []string{"apple", "Apple", "river", "coffee", "кофе", "чай", "tea", "garden", "piano", "jazz", "Berlin", "cat"}

// modelBudget caps current automatic facts per user, so that
// ErrBudgetExceeded is part of the model.
const modelBudget = 2

// modelClock is the store's record-time clock, moved forward by the test.
type modelClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *modelClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *modelClock) advance(d time.Duration) { c.mu.Lock(); defer c.mu.Unlock(); c.t = c.t.Add(d) }

// mEvent is one step of a fact's lifecycle as the model expects it.
type mEvent struct {
	kind   memory.EventKind
	at     time.Time
	origin memory.Origin
	by     uint64
	end    time.Time // for a supersede: where the successor's interval starts
	cause  string
}

// mFact is a fact as the model expects Get to return it, with its log.
type mFact struct {
	f   memory.Fact
	log []mEvent
}

type model struct {
	clock   *modelClock
	facts   map[uint64]*mFact
	deleted []uint64
	maxID   map[string]uint64 // each user's, as the model names facts
	// succ links each fact to the facts that replaced it: the chains of
	// versions History walks.
	succ  map[uint64][]uint64
	nonce int
	stats map[string]int // operations and their outcomes, for the log
}

// The store's ids are each user's own; the model names a fact by a key
// that holds its user too (modelUsers.Key), and translates at the store's
// calls.

// mFactOf is a fact as the store returns it, named as the model names it.
func mFactOf(f memory.Fact) memory.Fact {
	f.ID, f.Supersedes, f.SupersededBy = modelUsers.Key(f.User, f.ID), modelUsers.Key(f.User, f.Supersedes), modelUsers.Key(f.User, f.SupersededBy)
	return f
}

func mFactsOf(fs []memory.Fact) []memory.Fact {
	out := make([]memory.Fact, len(fs))
	for i, f := range fs {
		out[i] = mFactOf(f)
	}
	return out
}

func mEventsOf(user string, evs []memory.Event) []memory.Event {
	out := slices.Clone(evs)
	for i := range out {
		out[i].By = modelUsers.Key(user, out[i].By)
	}
	return out
}

func (m *model) ids() []uint64 {
	out := make([]uint64, 0, len(m.facts))
	for id := range m.facts {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}

func (m *model) now() time.Time { return m.clock.Now() }

// eventStart is where a fact's event interval starts: EventFrom, else when
// it was recorded.
func eventStart(f memory.Fact) time.Time {
	if !f.EventFrom.IsZero() {
		return f.EventFrom
	}
	return f.RecordedAt
}

// interval is fact mf's event interval as known at record time k, as the
// README's "The two axes" states it: visible when recorded at or before k and not retracted as of
// k; from EventFrom (or RecordedAt) to EventUntil (or open), ending also at
// its successor's start if it stood superseded as of k.
func (mf *mFact) interval(k time.Time) (visible bool, start, end time.Time) {
	if mf.f.RecordedAt.After(k) {
		return false, start, end
	}
	state, supEnd := memory.Current, time.Time{}
	for _, e := range mf.log {
		if e.at.After(k) {
			break
		}
		switch e.kind {
		case memory.EventSuperseded:
			state, supEnd = memory.Superseded, e.end
		case memory.EventRetracted:
			state = memory.Retracted
		case memory.EventRestored:
			state = memory.Current
		}
	}
	if state == memory.Retracted {
		return false, start, end
	}
	start, end = eventStart(mf.f), mf.f.EventUntil
	if state == memory.Superseded && (end.IsZero() || supEnd.Before(end)) {
		end = supEnd
	}
	// A start that is only the record time is unknown when the interval
	// ends by then: true until its end (the zero start bounds nothing).
	if mf.f.EventFrom.IsZero() && !end.IsZero() && !end.After(start) {
		start = time.Time{}
	}
	return true, start, end
}

// effectiveEnd is the EventEnd the store reports: EventUntil, or the
// successor's start if earlier while superseded.
func (mf *mFact) effectiveEnd() time.Time {
	end := mf.f.EventUntil
	if mf.f.State() == memory.Superseded {
		for i := len(mf.log) - 1; i >= 0; i-- {
			if e := mf.log[i]; e.kind == memory.EventSuperseded {
				if end.IsZero() || e.end.Before(end) {
					end = e.end
				}
				break
			}
		}
	}
	return end
}

func contains(visible bool, start, end, e time.Time) bool {
	return visible && !e.Before(start) && (end.IsZero() || e.Before(end))
}

// at is the model's At: ids of user's facts true at event e as known at k.
func (m *model) at(user string, e, k time.Time) []uint64 {
	out := []uint64{}
	for _, id := range m.ids() {
		mf := m.facts[id]
		if mf.f.User != user {
			continue
		}
		if v, s, end := mf.interval(k); contains(v, s, end, e) {
			out = append(out, id)
		}
	}
	return out
}

func (m *model) list(user string, all bool) []uint64 {
	out := []uint64{}
	for _, id := range m.ids() {
		f := m.facts[id].f
		if f.User == user && (all || f.State() == memory.Current) {
			out = append(out, id)
		}
	}
	return out
}

func (m *model) autoCurrent(user string) int {
	n := 0
	for _, id := range m.ids() {
		f := m.facts[id].f
		if f.User == user && f.Origin == memory.OriginAuto && f.State() == memory.Current {
			n++
		}
	}
	return n
}

// component is every fact linked to id by supersession, in either
// direction, in id order.
func (m *model) component(id uint64) []uint64 {
	seen := map[uint64]bool{id: true}
	queue := []uint64{id}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		next := slices.Clone(m.succ[cur])
		if p := m.facts[cur].f.Supersedes; p != 0 {
			next = append(next, p)
		}
		for _, n := range next {
			if !seen[n] {
				seen[n] = true
				queue = append(queue, n)
			}
		}
	}
	out := make([]uint64, 0, len(seen))
	for id := range seen {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}

// history is the model's History: the chain, oldest recording first.
func (m *model) history(id uint64) []uint64 {
	out := m.component(id)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := m.facts[out[i]].f, m.facts[out[j]].f
		if !a.RecordedAt.Equal(b.RecordedAt) {
			return a.RecordedAt.Before(b.RecordedAt)
		}
		return a.ID < b.ID
	})
	return out
}

// keywords4 is the default lookup's reading of a text: its lowercased
// runs of four or more letters (ё as е).
func keywords4(text string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) }) {
		w = strings.ReplaceAll(strings.ToLower(w), "ё", "е")
		if utf8.RuneCountInString(w) >= 4 {
			out[w] = true
		}
	}
	return out
}

// candidates is the model's Candidates with a k above the number of facts:
// every current fact of user sharing a keyword with text, with the shared
// keywords.
func (m *model) candidates(user, text string) map[uint64][]string {
	q := keywords4(text)
	out := map[uint64][]string{}
	for _, id := range m.ids() {
		f := m.facts[id].f
		if f.User != user || f.State() != memory.Current {
			continue
		}
		var shared []string
		for w := range keywords4(f.Text) {
			if q[w] {
				shared = append(shared, w)
			}
		}
		if len(shared) > 0 {
			slices.Sort(shared)
			out[id] = shared
		}
	}
	return out
}

// endMark is how the prompt names an end: a midnight closes the day
// before, shown included; any other instant by its day.
func endMark(end time.Time) string {
	if end.UTC().Hour() == 0 && end.Minute() == 0 && end.Second() == 0 && end.Nanosecond() == 0 {
		return "through " + end.UTC().AddDate(0, 0, -1).Format(time.DateOnly)
	}
	return "until " + end.UTC().Format(time.DateOnly)
}

// promptLines are the lines Prompt must show for user: true now, with the
// interval's known ends, and upcoming current facts with their start and
// known end.
func (m *model) promptLines(user string) (trueNow, upcoming []string) {
	now := m.now()
	day := func(t time.Time) string { return t.UTC().Format(time.DateOnly) }
	for _, id := range m.ids() {
		mf := m.facts[id]
		if mf.f.User != user {
			continue
		}
		v, start, end := mf.interval(now)
		switch {
		case contains(v, start, end, now):
			var marks []string
			if !mf.f.EventFrom.IsZero() {
				marks = append(marks, "since "+day(start))
			}
			if !end.IsZero() {
				marks = append(marks, endMark(end))
			}
			line := "- " + mf.f.Text
			if len(marks) > 0 {
				line += " (" + strings.Join(marks, ", ") + ")"
			}
			trueNow = append(trueNow, line)
		case mf.f.State() == memory.Current && start.After(now):
			line := fmt.Sprintf("- %s (from %s", mf.f.Text, day(start))
			if !end.IsZero() {
				line += ", " + endMark(end)
			}
			upcoming = append(upcoming, line+")")
		}
	}
	return trueNow, upcoming
}

// ---- the operations, as the model applies them ----

func (m *model) insert(f memory.Fact, now time.Time) {
	mf := &mFact{f: f}
	mf.log = append(mf.log, mEvent{kind: memory.EventRecorded, at: now, origin: f.Origin})
	if f.Pinned {
		mf.log = append(mf.log, mEvent{kind: memory.EventPinned, at: now, origin: f.Origin})
	}
	m.facts[f.ID] = mf
	m.maxID[f.User] = f.ID
}

func (m *model) supersede(old uint64, f memory.Fact, now time.Time) {
	m.insert(f, now)
	o := m.facts[old]
	o.f.ValidUntil, o.f.SupersededBy = now, f.ID
	o.log = append(o.log, mEvent{kind: memory.EventSuperseded, at: now, origin: f.Origin, by: f.ID, end: eventStart(f)})
	m.succ[old] = append(m.succ[old], f.ID)
}

// remove is a hard delete of the doomed facts, as Delete's contract says:
// a fact one of them had replaced is restored, unless the doomed fact had
// itself been replaced, in which case that successor takes its place in
// the chain (a→d→c becomes a→c); survivors stop naming the doomed facts.
func (m *model) remove(doomed []uint64, now time.Time) {
	gone := map[uint64]bool{}
	for _, id := range doomed {
		gone[id] = true
	}
	for _, d := range doomed {
		df := m.facts[d]
		heir := df.f.SupersededBy
		if gone[heir] {
			heir = 0
		}
		p := df.f.Supersedes
		if p != 0 && !gone[p] {
			pf := m.facts[p]
			active := pf.f.SupersededBy == d
			for i := range pf.log {
				if pf.log[i].kind == memory.EventSuperseded && pf.log[i].by == d {
					pf.log[i].by = 0
					if active {
						pf.log[i].by = heir // the active step is the one naming d
					}
				}
			}
			m.succ[p] = slices.DeleteFunc(m.succ[p], func(s uint64) bool { return s == d })
			switch {
			case active && heir != 0:
				pf.f.SupersededBy = heir
				m.facts[heir].f.Supersedes = p
				m.succ[p] = append(m.succ[p], heir)
			case active:
				pf.f.ValidUntil, pf.f.SupersededBy = time.Time{}, 0
				at := now
				if last := pf.log[len(pf.log)-1].at; last.After(at) {
					at = last
				}
				pf.log = append(pf.log, mEvent{kind: memory.EventRestored, at: at, cause: "successor deleted"})
			}
		}
		for _, s := range m.succ[d] {
			// (A relinked heir names p already.)
			if !gone[s] && m.facts[s].f.Supersedes == d {
				m.facts[s].f.Supersedes = 0
			}
		}
	}
	for _, d := range doomed {
		delete(m.facts, d)
		delete(m.succ, d)
		m.deleted = append(m.deleted, d)
	}
}

// ---- comparing the store with the model ----

func fmtTime(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format(time.RFC3339Nano)
}

func fmtFact(f memory.Fact) string {
	return fmt.Sprintf("id=%d user=%q text=%q pinned=%v origin=%v src=%q/%q/%q/%s recorded=%s until=%s by=%d supersedes=%d from=%s to=%s evsrc=%q start=%s end=%s",
		f.ID, f.User, f.Text, f.Pinned, f.Origin, f.Source.Kind, f.Source.Ref, f.Source.Quote, fmtTime(f.Source.SaidAt),
		fmtTime(f.RecordedAt), fmtTime(f.ValidUntil), f.SupersededBy, f.Supersedes, fmtTime(f.EventFrom), fmtTime(f.EventUntil), f.EventSource,
		fmtTime(f.EventStart), fmtTime(f.EventEnd))
}

func fmtEvents(evs []memory.Event) string {
	var b strings.Builder
	for _, e := range evs {
		fmt.Fprintf(&b, "[%s %s %v by=%d end=%s %q]", e.Kind, fmtTime(e.At), e.Origin, e.By, fmtTime(e.EventEnd), e.Cause)
	}
	return b.String()
}

func (mf *mFact) events() []memory.Event {
	out := make([]memory.Event, len(mf.log))
	for i, e := range mf.log {
		out[i] = memory.Event{Kind: e.kind, At: e.at, Origin: e.origin, By: e.by, EventEnd: e.end, Cause: e.cause}
	}
	return out
}

func (m *model) wantFact(t *rapid.T, what string, got memory.Fact) {
	t.Helper()
	mf, ok := m.facts[got.ID]
	if !ok {
		t.Fatalf("%s: the store has fact %d, which the model has not: %s", what, got.ID, fmtFact(got))
	}
	want := mf.f
	want.EventStart, want.EventEnd = want.EventFrom, mf.effectiveEnd()
	// Without an EventFrom the start is the record time, unless the
	// interval ends by then: then it is unknown.
	if want.EventStart.IsZero() && (want.EventEnd.IsZero() || want.EventEnd.After(want.RecordedAt)) {
		want.EventStart = want.RecordedAt
	}
	if g, w := fmtFact(got), fmtFact(want); g != w {
		t.Fatalf("%s: fact %d\n got  %s\n want %s", what, got.ID, g, w)
	}
}

func wantIDs(t *rapid.T, what string, got, want []uint64) {
	t.Helper()
	if got == nil {
		got = []uint64{}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("%s = %v, want %v", what, got, want)
	}
}

// noOtherUser fails if any of facts belongs to someone other than user.
func noOtherUser(t *rapid.T, what, user string, facts []memory.Fact) {
	t.Helper()
	for _, f := range facts {
		if f.User != user {
			t.Fatalf("%s of user %q holds fact %d of user %q", what, user, f.ID, f.User)
		}
	}
}

// verify compares the whole state the store exposes with the model: each
// user's lists with every field, each fact's log, what is true now and the
// prompt. Called after every write and every move of the clock.
func (m *model) verify(t *rapid.T, s *memory.Store) {
	t.Helper()
	for _, u := range modelUsers {
		all, err := s.List(ctx, u, &memory.ListOptions{All: true})
		if err != nil {
			t.Fatal(err)
		}
		noOtherUser(t, "List all", u, all)
		wantIDs(t, fmt.Sprintf("List(%q, all)", u), ids(mFactsOf(all)), m.list(u, true))
		for _, f := range mFactsOf(all) {
			m.wantFact(t, "List all", f)
			evs, err := s.Events(ctx, u, userkey.ID(f.ID))
			if err != nil {
				t.Fatal(err)
			}
			if g, w := fmtEvents(mEventsOf(u, evs)), fmtEvents(m.facts[f.ID].events()); g != w {
				t.Fatalf("Events(%d)\n got  %s\n want %s", f.ID, g, w)
			}
		}
		cur, err := s.List(ctx, u, nil)
		if err != nil {
			t.Fatal(err)
		}
		noOtherUser(t, "List", u, cur)
		wantIDs(t, fmt.Sprintf("List(%q)", u), ids(mFactsOf(cur)), m.list(u, false))
		now, err := s.At(ctx, u, time.Time{}, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		noOtherUser(t, "At", u, now)
		wantIDs(t, fmt.Sprintf("At(%q, now, now)", u), ids(mFactsOf(now)), m.at(u, m.now(), m.now()))
		m.verifyPrompt(t, s, u)
	}
}

func (m *model) verifyPrompt(t *rapid.T, s *memory.Store, user string) {
	t.Helper()
	p, err := s.Prompt(ctx, user, nil)
	if err != nil {
		t.Fatal(err)
	}
	var trueNow, upcoming []string
	section := &trueNow
	for _, l := range strings.Split(strings.TrimSuffix(p, "\n"), "\n") {
		switch {
		case l == "Upcoming, not yet true:":
			section = &upcoming
		case strings.HasPrefix(l, "- "):
			*section = append(*section, l)
		}
	}
	wantNow, wantUp := m.promptLines(user)
	if !slices.Equal(trueNow, wantNow) || !slices.Equal(upcoming, wantUp) {
		t.Fatalf("Prompt(%q):\n%s\nwant true now %q, upcoming %q", user, p, wantNow, wantUp)
	}
	if len(wantNow)+len(wantUp) == 0 && p != "No facts are known about the user.\n" {
		t.Fatalf("Prompt(%q) of no facts: %q", user, p)
	}
}

// interestingTimes are the instants where answers change: every record time,
// log step and event boundary the model holds, a nanosecond either side,
// and now.
func (m *model) interestingTimes() []time.Time {
	set := map[int64]bool{m.now().UnixNano(): true}
	add := func(t time.Time) {
		if !t.IsZero() {
			for _, d := range []int64{-1, 0, 1} {
				set[t.UnixNano()+d] = true
			}
		}
	}
	for _, id := range m.ids() {
		mf := m.facts[id]
		add(mf.f.RecordedAt)
		add(mf.f.EventFrom)
		add(mf.f.EventUntil)
		for _, e := range mf.log {
			add(e.at)
			add(e.end)
		}
	}
	ns := make([]int64, 0, len(set))
	for n := range set {
		ns = append(ns, n)
	}
	slices.Sort(ns)
	out := make([]time.Time, len(ns))
	for i, n := range ns {
		out[i] = time.Unix(0, n).UTC()
	}
	return out
}

// expectErr checks err against the errors the model allows (none: the
// call must succeed) and reports whether the call succeeded.
func (m *model) expectErr(t *rapid.T, op string, err error, allowed ...error) bool {
	t.Helper()
	if len(allowed) == 0 {
		if err != nil {
			t.Fatalf("%s: %v", op, err)
		}
		m.stats[op+" ok"]++
		return true
	}
	if err == nil {
		t.Fatalf("%s succeeded, want one of %v", op, allowed)
	}
	for _, a := range allowed {
		if errors.Is(err, a) {
			m.stats[fmt.Sprintf("%s %v", op, a)]++
			return false
		}
	}
	t.Fatalf("%s: %v, want one of %v", op, err, allowed)
	return false
}

// ---- drawing operations ----

func (m *model) drawUser(t *rapid.T, label string) string {
	return rapid.SampledFrom(modelUsers).Draw(t, label)
}

// drawTarget picks a fact id to operate on: mostly a live one that prefer
// accepts (nil: any), sometimes any live one, a deleted or a never used id;
// mostly as its own user, sometimes as any (another must see ErrNotFound).
func (m *model) drawTarget(t *rapid.T, prefer func(memory.Fact) bool) (uint64, string) {
	var live, liked []uint64
	for _, id := range m.ids() {
		live = append(live, id)
		if prefer == nil || prefer(m.facts[id].f) {
			liked = append(liked, id)
		}
	}
	never := modelUsers.Key(m.drawUser(t, "never used, of"), 1)
	for _, k := range m.maxID {
		if userkey.Same(k, never) {
			never = k + 1
		}
	}
	pool := append(append(live, m.deleted...), never)
	switch rapid.IntRange(0, 3).Draw(t, "pool") {
	case 0, 1:
		if len(liked) > 0 {
			pool = liked
		}
	case 2:
		if len(live) > 0 {
			pool = live
		}
	}
	id := rapid.SampledFrom(pool).Draw(t, "id")
	if mf, ok := m.facts[id]; ok && rapid.IntRange(0, 5).Draw(t, "as another user") < 5 {
		return id, mf.f.User
	}
	// Another user's call with the id names that user's fact of the id,
	// if they have one: ids are each user's.
	user := m.drawUser(t, "user")
	return modelUsers.Key(user, userkey.ID(id)), user
}

// behind says whether fact id's log holds a step after now: the clock was
// set back, and the transition table refuses a step before the last one.
func (m *model) behind(id uint64) bool {
	mf, ok := m.facts[id]
	return ok && mf.log[len(mf.log)-1].at.After(m.now())
}

func isCurrent(f memory.Fact) bool { return f.State() == memory.Current }

func notCurrent(f memory.Fact) bool { return f.State() != memory.Current }

// drawNote draws a note for user and what the model expects of it: the
// fact it becomes (without id and record time) or the validation errors.
func (m *model) drawNote(t *rapid.T, user string) (memory.Note, memory.Fact, []error) {
	now := m.now()
	m.nonce++
	words := rapid.SliceOfN(rapid.SampledFrom(modelVocab), 1, 3).Draw(t, "words")
	tag := slices.Index(modelUsers, user)
	n := memory.Note{User: user, Text: fmt.Sprintf("[u%d:%d] %s", tag, m.nonce, strings.Join(words, " "))}
	hours := func(label string) time.Time {
		return now.Add(time.Duration(rapid.IntRange(-400*24, 90*24).Draw(t, label)) * time.Hour)
	}
	if rapid.Bool().Draw(t, "has from") {
		n.EventFrom = hours("from")
	}
	if rapid.IntRange(0, 3).Draw(t, "has until") == 0 {
		n.EventUntil = hours("until")
		if !n.EventFrom.IsZero() && rapid.IntRange(0, 3).Draw(t, "until after from") > 0 {
			n.EventUntil = n.EventFrom.Add(time.Duration(rapid.IntRange(1, 200*24).Draw(t, "length")) * time.Hour)
		}
	}
	n.Pinned = rapid.IntRange(0, 4).Draw(t, "pinned") == 0
	if rapid.IntRange(0, 2).Draw(t, "auto") == 0 {
		n.Origin = memory.OriginAuto
	}
	if rapid.Bool().Draw(t, "has source") {
		n.Source = memory.Source{Kind: "chat", Ref: fmt.Sprintf("msg-%d", m.nonce), Quote: strings.Join(words, " "), SaidAt: now.Add(-time.Minute)}
	}
	var errs []error
	if rapid.IntRange(0, 19).Draw(t, "blank") == 19 {
		n.Text = " \t "
		errs = append(errs, memory.ErrEmpty)
	}
	if !n.EventFrom.IsZero() && !n.EventUntil.IsZero() && !n.EventUntil.After(n.EventFrom) {
		errs = append(errs, memory.ErrInvalidInterval)
	}
	f := memory.Fact{User: user, Text: n.Text, Pinned: n.Pinned, Origin: n.Origin, Source: n.Source,
		EventFrom: n.EventFrom, EventUntil: n.EventUntil}
	if !n.EventFrom.IsZero() {
		f.EventSource = memory.EventGiven
	}
	return n, f, errs
}

func drawChange(t *rapid.T) memory.Change {
	c := memory.Change{Reason: rapid.SampledFrom([]string{"", "the user said so", "ошибка"}).Draw(t, "reason")}
	if rapid.IntRange(0, 2).Draw(t, "auto change") == 0 {
		c.Origin = memory.OriginAuto
	}
	return c
}

// actions are the steps rapid draws from: writes (checked in full after
// each), the clock, and reads.
func (m *model) actions(s *memory.Store) map[string]func(*rapid.T) {
	write := func(fn func(t *rapid.T)) func(*rapid.T) {
		return func(t *rapid.T) { fn(t); m.verify(t, s) }
	}
	add := write(func(t *rapid.T) {
		n, want, errs := m.drawNote(t, m.drawUser(t, "user"))
		if n.Origin == memory.OriginAuto && m.autoCurrent(n.User) >= modelBudget {
			errs = append(errs, memory.ErrBudgetExceeded)
		}
		now := m.now()
		got, err := s.Add(ctx, n)
		if !m.expectErr(t, "Add", err, errs...) {
			return
		}
		got = mFactOf(got)
		if got.ID <= m.maxID[n.User] {
			t.Fatalf("Add gave id %d, not above every id of the user so far (%d)", userkey.ID(got.ID), userkey.ID(m.maxID[n.User]))
		}
		want.ID, want.RecordedAt = got.ID, now
		m.insert(want, now)
		m.wantFact(t, "Add", got)
	})
	supersedeOp := func(t *rapid.T) {
		old, user := m.drawTarget(t, isCurrent)
		n, want, errs := m.drawNote(t, user)
		o, ok := m.facts[old]
		switch {
		case !ok || o.f.User != user:
			errs = append(errs, memory.ErrNotFound)
		case o.f.State() != memory.Current:
			errs = append(errs, memory.ErrNotCurrent)
		default:
			if o.f.Pinned && n.Origin == memory.OriginAuto {
				errs = append(errs, memory.ErrPinned)
			}
			if m.behind(old) {
				errs = append(errs, memory.ErrTimeOrder)
			}
			if n.Origin == memory.OriginAuto && o.f.Origin != memory.OriginAuto && m.autoCurrent(user) >= modelBudget {
				errs = append(errs, memory.ErrBudgetExceeded)
			}
			start := n.EventFrom
			if start.IsZero() {
				start = m.now()
			}
			if !o.f.EventFrom.IsZero() && start.Before(o.f.EventFrom) {
				errs = append(errs, memory.ErrInvalidInterval) // it would end before it starts
			}
		}
		now := m.now()
		got, err := s.Supersede(ctx, n.User, userkey.ID(old), n)
		if !m.expectErr(t, "Supersede", err, errs...) {
			return
		}
		got = mFactOf(got)
		if got.ID <= m.maxID[n.User] {
			t.Fatalf("Supersede gave id %d, not above every id of the user so far (%d)", userkey.ID(got.ID), userkey.ID(m.maxID[n.User]))
		}
		want.ID, want.RecordedAt, want.Supersedes = got.ID, now, old
		m.supersede(old, want, now)
		m.wantFact(t, "Supersede", got)
	}
	// retractOrRestore is Invalidate (retract) or Restore, as the model
	// expects each: one from a current fact, the other back to one.
	retractOrRestore := func(retract bool) func(*rapid.T) {
		op, call, from, wrong, kind := "Invalidate", s.Invalidate, isCurrent, memory.ErrNotCurrent, memory.EventRetracted
		if !retract {
			op, call, from, wrong, kind = "Restore", s.Restore, notCurrent, memory.ErrAlreadyCurrent, memory.EventRestored
		}
		return func(t *rapid.T) {
			id, user := m.drawTarget(t, from)
			c := drawChange(t)
			var errs []error
			mf, ok := m.facts[id]
			switch {
			case !ok || mf.f.User != user:
				errs = append(errs, memory.ErrNotFound)
			case !from(mf.f):
				errs = append(errs, wrong)
			case mf.f.Pinned && c.Origin == memory.OriginAuto:
				errs = append(errs, memory.ErrPinned)
			case m.behind(id):
				errs = append(errs, memory.ErrTimeOrder)
			case !retract && mf.f.Origin == memory.OriginAuto && m.autoCurrent(user) >= modelBudget:
				errs = append(errs, memory.ErrBudgetExceeded)
			}
			now := m.now()
			got, err := call(ctx, user, userkey.ID(id), c)
			if !m.expectErr(t, op, err, errs...) {
				return
			}
			got = mFactOf(got)
			mf.f.ValidUntil, mf.f.SupersededBy = time.Time{}, 0
			if retract {
				mf.f.ValidUntil = now
			}
			mf.log = append(mf.log, mEvent{kind: kind, at: now, origin: c.Origin, cause: c.Reason})
			m.wantFact(t, op, got)
		}
	}
	invalidate, restore := retractOrRestore(true), retractOrRestore(false)
	pinUnpin := func(t *rapid.T) {
		id, user := m.drawTarget(t, nil)
		pin := rapid.Bool().Draw(t, "pin")
		var errs []error
		mf, ok := m.facts[id]
		if !ok || mf.f.User != user {
			errs = append(errs, memory.ErrNotFound)
		} else if mf.f.Pinned != pin && m.behind(id) {
			errs = append(errs, memory.ErrTimeOrder)
		}
		op, call := "Unpin", s.Unpin
		if pin {
			op, call = "Pin", s.Pin
		}
		now := m.now()
		got, err := call(ctx, user, userkey.ID(id))
		if !m.expectErr(t, op, err, errs...) {
			return
		}
		got = mFactOf(got)
		if mf.f.Pinned != pin { // pinning a pinned fact changes nothing
			mf.f.Pinned = pin
			kind := memory.EventUnpinned
			if pin {
				kind = memory.EventPinned
			}
			mf.log = append(mf.log, mEvent{kind: kind, at: now})
		}
		m.wantFact(t, op, got)
	}
	supersede := write(supersedeOp)
	// A clock set back (a wrong system clock, corrected) for one write:
	// the table refuses a step before a fact's last one and takes the
	// rest. The clock then comes forward again, so that the reads the model
	// compares are at a time no step is after.
	clockBack := write(func(t *rapid.T) {
		d := rapid.SampledFrom([]time.Duration{time.Nanosecond, time.Second, time.Hour}).Draw(t, "back")
		m.clock.advance(-d)
		m.stats["clock back"]++
		rapid.SampledFrom([]func(*rapid.T){supersedeOp, invalidate, restore, pinUnpin}).Draw(t, "write behind")(t)
		m.clock.advance(d)
	})
	return map[string]func(*rapid.T){
		"Add":        add,
		"Add again":  add, // adds are drawn twice as often: the others need facts
		"Supersede":  supersede,
		"Supersede2": supersede,
		"Invalidate": write(invalidate),
		"Restore":    write(restore),
		"Pin/Unpin":  write(pinUnpin),
		"clock back": clockBack,
		"Delete": write(func(t *rapid.T) {
			id, user := m.drawTarget(t, nil)
			chain := rapid.Bool().Draw(t, "chain")
			var errs []error
			if mf, ok := m.facts[id]; !ok || mf.f.User != user {
				errs = append(errs, memory.ErrNotFound)
			}
			op := "Delete"
			if chain {
				op = "Delete chain"
			}
			gotIDs, err := s.Delete(ctx, user, userkey.ID(id), &memory.DeleteOptions{Chain: chain})
			if !m.expectErr(t, op, err, errs...) {
				return
			}
			got := make([]uint64, len(gotIDs))
			for i, g := range gotIDs {
				got[i] = modelUsers.Key(user, g)
			}
			doomed := []uint64{id}
			if chain {
				doomed = m.component(id)
			}
			wantIDs(t, op, got, doomed)
			m.remove(doomed, m.now())
		}),
		"tick": write(func(t *rapid.T) {
			d := rapid.SampledFrom([]time.Duration{0, time.Nanosecond, time.Second, time.Hour, 24 * time.Hour,
				7 * 24 * time.Hour, 30 * 24 * time.Hour}).Draw(t, "tick")
			m.clock.advance(d)
			m.stats["tick"]++
		}),
		"At": func(t *rapid.T) {
			user := m.drawUser(t, "user")
			times := m.interestingTimes()
			e := rapid.SampledFrom(times).Draw(t, "event")
			k := rapid.SampledFrom(times).Draw(t, "known")
			got, err := s.At(ctx, user, e, k)
			if err != nil {
				t.Fatal(err)
			}
			noOtherUser(t, "At", user, got)
			wantIDs(t, fmt.Sprintf("At(%q, event %s, known %s)", user, fmtTime(e), fmtTime(k)), ids(mFactsOf(got)), m.at(user, e, k))
			for _, f := range mFactsOf(got) {
				m.wantFact(t, "At", f)
			}
			m.stats["At"]++
		},
		"History": func(t *rapid.T) {
			id, user := m.drawTarget(t, nil)
			got, err := s.History(ctx, user, userkey.ID(id))
			mf, ok := m.facts[id]
			if !ok || mf.f.User != user {
				m.expectErr(t, "History", err, memory.ErrNotFound)
				return
			}
			m.expectErr(t, "History", err)
			noOtherUser(t, "History", user, got)
			wantIDs(t, fmt.Sprintf("History(%d)", id), ids(mFactsOf(got)), m.history(id))
		},
		"Candidates": func(t *rapid.T) {
			user := m.drawUser(t, "user")
			words := rapid.SliceOfN(rapid.SampledFrom(append(modelVocab, "xyzzy", "the")), 1, 3).Draw(t, "query")
			q := strings.Join(words, " ")
			got, err := s.Candidates(ctx, user, q, memory.MaxCandidates)
			if err != nil {
				t.Fatal(err)
			}
			want := m.candidates(user, q)
			gotIDs := make([]uint64, 0, len(got.Candidates))
			for _, c := range got.Candidates {
				if c.Fact.User != user {
					t.Fatalf("Candidates of user %q hold fact %d of user %q", user, c.Fact.ID, c.Fact.User)
				}
				f := mFactOf(c.Fact)
				gotIDs = append(gotIDs, f.ID)
				m.wantFact(t, "Candidates", f)
				terms := slices.Sorted(slices.Values(termStrings(c.Terms)))
				if !slices.Equal(terms, want[f.ID]) {
					t.Fatalf("Candidates(%q, %q): fact %d shares %q, want %q", user, q, c.Fact.ID, terms, want[f.ID])
				}
			}
			slices.Sort(gotIDs)
			wantSorted := slices.Sorted(func(yield func(uint64) bool) {
				for id := range want {
					if !yield(id) {
						return
					}
				}
			})
			if wantSorted == nil {
				wantSorted = []uint64{}
			}
			wantIDs(t, fmt.Sprintf("Candidates(%q, %q)", user, q), gotIDs, wantSorted)
			m.stats["Candidates"]++
		},
	}
}

// finish compares At over the grid of every interesting event time and
// record time, History of every fact, and runs Check.
func (m *model) finish(t *rapid.T, s *memory.Store) {
	times := m.interestingTimes()
	for _, u := range modelUsers {
		for _, k := range times {
			for _, e := range times {
				got, err := s.At(ctx, u, e, k)
				if err != nil {
					t.Fatal(err)
				}
				noOtherUser(t, "At", u, got)
				wantIDs(t, fmt.Sprintf("At(%q, event %s, known %s)", u, fmtTime(e), fmtTime(k)), ids(mFactsOf(got)), m.at(u, e, k))
				m.stats["At (grid)"]++
			}
		}
	}
	for _, id := range m.ids() {
		got, err := s.History(ctx, m.facts[id].f.User, userkey.ID(id))
		if err != nil {
			t.Fatal(err)
		}
		wantIDs(t, fmt.Sprintf("History(%d)", id), ids(mFactsOf(got)), m.history(id))
	}
	if err := s.Check(ctx); err != nil {
		t.Fatalf("Check: %v", err)
	}
}

func TestModel(t *testing.T) {
	stats := map[string]int{}
	checks := 0
	start := time.Now()
	rapid.Check(t, func(t *rapid.T) {
		checks++
		dir, err := os.MkdirTemp("", "memory-model-")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(dir) })
		c := &modelClock{t: time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)}
		s, err := memory.Open(filepath.Join(dir, "memory.db"), 0, &memory.Options{NoSync: true, Clock: c.Now,
			AutoBudget: modelBudget, Lookup: memory.LookupKeywords4}) // the model's terms are keywords4's
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		m := &model{clock: c, facts: map[uint64]*mFact{}, succ: map[uint64][]uint64{}, maxID: map[string]uint64{}, stats: stats}
		t.Repeat(m.actions(s))
		m.finish(t, s)
	})
	keys := slices.Sorted(func(yield func(string) bool) {
		for k := range stats {
			if !yield(k) {
				return
			}
		}
	})
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, " %s=%d", k, stats[k])
	}
	t.Logf("%d checks in %v:%s", checks, time.Since(start).Round(time.Millisecond), b.String())
}
