package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/mcpserver"
)

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) set(day string) { c.mu.Lock(); defer c.mu.Unlock(); c.t = date(day) }

func date(s string) time.Time {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return t
}

// env is a store served over the SDK's in-memory transports, with a
// client session on it.
type env struct {
	t     *testing.T
	ctx   context.Context
	s     *memory.Store
	clock *clock
	cs    *mcp.ClientSession
}

func newEnv(t *testing.T, opts *memory.Options, sopts *mcpserver.Options) *env {
	t.Helper()
	c := &clock{}
	c.set("2026-03-10")
	var o memory.Options
	if opts != nil {
		o = *opts
	}
	o.NoSync, o.Clock = true, c.now
	s, err := memory.Open(filepath.Join(t.TempDir(), "memory.db"), 0o600, &o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	server, err := mcpserver.New(s, sopts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return &env{t: t, ctx: ctx, s: s, clock: c, cs: cs}
}

// call calls a tool, fails the test on a protocol error or a tool error,
// checks the store, and decodes the structured result into out.
func (e *env) call(name string, args any, out any) {
	e.t.Helper()
	res := e.raw(name, args)
	if res.IsError {
		e.t.Fatalf("%s %v: tool error: %s", name, args, text(res))
	}
	if out != nil {
		b, err := json.Marshal(res.StructuredContent)
		if err != nil {
			e.t.Fatal(err)
		}
		if err := json.Unmarshal(b, out); err != nil {
			e.t.Fatalf("%s: %v in %s", name, err, b)
		}
	}
}

func (e *env) raw(name string, args any) *mcp.CallToolResult {
	e.t.Helper()
	res, err := e.cs.CallTool(e.ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		e.t.Fatalf("%s %v: %v", name, args, err)
	}
	if err := e.s.Check(e.ctx); err != nil {
		e.t.Fatalf("Check after %s: %v", name, err)
	}
	return res
}

// refused calls a tool that must refuse: a tool error whose text holds
// want, with the store's export unchanged and Check clean.
func (e *env) refused(name string, args any, want string) {
	e.t.Helper()
	before := e.export()
	res := e.raw(name, args)
	if !res.IsError {
		e.t.Fatalf("%s %v: no tool error, got %s", name, args, text(res))
	}
	e.t.Logf("%s %v: %s", name, args, text(res))
	if got := text(res); !strings.Contains(got, want) {
		e.t.Errorf("%s %v: error %q, want it to say %q", name, args, got, want)
	}
	if after := e.export(); !bytes.Equal(before, after) {
		e.t.Errorf("%s %v: the refusal changed the store", name, args)
	}
}

func (e *env) export() []byte {
	e.t.Helper()
	var b bytes.Buffer
	if err := e.s.Export(e.ctx, &b); err != nil {
		e.t.Fatal(err)
	}
	return b.Bytes()
}

func text(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, "\n")
}

type fact struct {
	ID           uint64  `json:"id"`
	Text         string  `json:"text"`
	State        string  `json:"state"`
	Pinned       bool    `json:"pinned"`
	SupersededBy uint64  `json:"superseded_by"`
	EventFrom    *string `json:"event_from"`
	EventEnd     *string `json:"event_end"`
	Source       *string `json:"source"`
	Claims       []struct {
		Relation string `json:"relation"`
		Object   string `json:"object"`
	} `json:"claims"`
}

type decision struct {
	ID       uint64 `json:"id"`
	Action   string `json:"action"`
	Target   uint64 `json:"target"`
	Added    uint64 `json:"added"`
	Reason   string `json:"reason"`
	Fallback string `json:"fallback"`
	Conflict uint64 `json:"conflict"`
}

type remembered struct {
	Decision  decision `json:"decision"`
	Fact      *fact    `json:"fact"`
	Replaced  *fact    `json:"replaced"`
	Fallback  string   `json:"fallback"`
	Conflicts []struct {
		Conflict  uint64 `json:"conflict"`
		Fact      uint64 `json:"fact"`
		Other     uint64 `json:"other"`
		OtherText string `json:"other_text"`
		Relation  string `json:"relation"`
		Ask       string `json:"ask"`
	} `json:"conflicts"`
}

type args = map[string]any

func TestToolsListed(t *testing.T) {
	e := newEnv(t, nil, nil)
	res, err := e.cs.ListTools(e.ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"remember", "recall", "context", "get", "at", "correct", "retract", "restore", "pin", "unpin",
		"forget", "decisions", "undo", "conflicts", "resolve", "edges", "entity", "merge", "unmerge"}
	var got []string
	for _, tl := range res.Tools {
		got = append(got, tl.Name)
		a := tl.Annotations
		if a == nil || a.OpenWorldHint == nil || *a.OpenWorldHint {
			t.Errorf("%s: not marked closed-world: %+v", tl.Name, a)
			continue
		}
		if tl.OutputSchema == nil {
			t.Errorf("%s: no output schema", tl.Name)
		}
		if tl.Description == "" {
			t.Errorf("%s: no description", tl.Name)
		}
		readOnly := slices.Contains([]string{"recall", "context", "get", "at", "decisions", "conflicts", "edges", "entity"}, tl.Name)
		if a.ReadOnlyHint != readOnly {
			t.Errorf("%s: readOnlyHint %v, want %v", tl.Name, a.ReadOnlyHint, readOnly)
		}
		if destructive := a.DestructiveHint == nil || *a.DestructiveHint; destructive != (tl.Name == "forget") {
			t.Errorf("%s: destructiveHint %v", tl.Name, destructive)
		}
		if tl.Name == "remember" && a.IdempotentHint {
			t.Errorf("remember: marked idempotent, but a second call writes a confirmation")
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("tools %v, want %v", got, want)
	}
	ps, err := e.cs.ListPrompts(e.ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps.Prompts) != 1 || ps.Prompts[0].Name != mcpserver.PromptName {
		t.Errorf("prompts %+v, want %s", ps.Prompts, mcpserver.PromptName)
	}
}

// TestStory is the main job through the tools: remember, an update,
// recall now and as of a time, the context, get, undo, a correction,
// retract, restore, pin, forget.
func TestStory(t *testing.T) {
	e := newEnv(t, nil, nil)
	var r remembered
	e.call("remember", args{"text": "I work at Contoso.", "source_ref": "msg-1"}, &r)
	if r.Decision.Action != "add" || r.Fact == nil || r.Fact.Text != "I work at Contoso." || r.Replaced != nil || r.Fallback != "" {
		t.Fatalf("first remember: %+v", r)
	}
	if r.Fact.Source == nil || *r.Fact.Source != "msg-1" {
		t.Errorf("source: %v", r.Fact.Source)
	}
	contoso := r.Fact.ID
	e.clock.set("2026-08-20")
	e.call("remember", args{"text": "I now work at Fabrikam; I moved from Contoso.", "event_from": "2026-06-01"}, &r)
	if r.Decision.Action != "update" || r.Decision.Target != contoso || r.Replaced == nil || r.Replaced.State != "superseded" ||
		r.Replaced.SupersededBy != r.Fact.ID || r.Decision.Reason == "" {
		t.Fatalf("update: %+v", r)
	}
	fabrikam, update := r.Fact.ID, r.Decision.ID
	if r.Fact.EventFrom == nil || *r.Fact.EventFrom != "2026-06-01T00:00:00Z" {
		t.Errorf("event_from %v", r.Fact.EventFrom)
	}

	var rc struct {
		Lookup string `json:"lookup"`
		Facts  []struct {
			Fact     fact     `json:"fact"`
			Terms    []string `json:"terms"`
			Via      uint64   `json:"via"`
			Versions []fact   `json:"versions"`
		} `json:"facts"`
	}
	e.call("recall", args{"query": "Where do I work?"}, &rc)
	if len(rc.Facts) != 1 || rc.Facts[0].Fact.ID != fabrikam || rc.Lookup != "topics" {
		t.Fatalf("recall now: %+v", rc)
	}
	e.call("recall", args{"query": "Where do I work?", "event": "2026-05-15", "history": true}, &rc)
	if len(rc.Facts) != 1 || rc.Facts[0].Fact.ID != contoso || rc.Facts[0].Via != fabrikam || len(rc.Facts[0].Versions) != 2 {
		t.Fatalf("recall in May: %+v", rc)
	}
	e.call("recall", args{"query": "Where do I work?", "event": "2026-07-01", "known": "2026-08-01"}, &rc)
	if len(rc.Facts) != 1 || rc.Facts[0].Fact.ID != contoso {
		t.Fatalf("recall of July as known on 1 August: %+v", rc)
	}

	var ctxOut struct {
		Prompt string `json:"prompt"`
	}
	e.call("context", args{"for": "Where do I work?"}, &ctxOut)
	if !strings.Contains(ctxOut.Prompt, "Fabrikam") || strings.Contains(ctxOut.Prompt, "I work at Contoso") {
		t.Errorf("context: %q", ctxOut.Prompt)
	}
	p, err := e.s.Prompt(e.ctx, "", &memory.PromptOptions{For: "Where do I work?"})
	if err != nil || p != ctxOut.Prompt {
		t.Errorf("context %q, Prompt %q (%v)", ctxOut.Prompt, p, err)
	}
	gp, err := e.cs.GetPrompt(e.ctx, &mcp.GetPromptParams{Name: mcpserver.PromptName, Arguments: map[string]string{"message": "Where do I work?"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(gp.Messages) != 1 || gp.Messages[0].Content.(*mcp.TextContent).Text != p {
		t.Errorf("prompt %+v, want the context", gp.Messages)
	}

	var g struct {
		Fact     fact   `json:"fact"`
		Versions []fact `json:"versions"`
		Events   []struct {
			Kind     string `json:"kind"`
			By       uint64 `json:"by"`
			Decision uint64 `json:"decision"`
		} `json:"events"`
	}
	e.call("get", args{"id": contoso}, &g)
	if g.Fact.State != "superseded" || len(g.Versions) != 2 || len(g.Events) != 2 || g.Events[1].Kind != "superseded" ||
		g.Events[1].By != fabrikam || g.Events[1].Decision != update {
		t.Fatalf("get: %+v", g)
	}
	var at struct {
		Facts []fact `json:"facts"`
	}
	e.call("at", args{"event": "2026-05-15"}, &at)
	if len(at.Facts) != 1 || at.Facts[0].ID != contoso {
		t.Errorf("at May: %+v", at)
	}

	e.clock.set("2026-08-21")
	var d struct {
		Decision decision `json:"decision"`
	}
	e.call("undo", args{"decision": update}, &d)
	if d.Decision.ID != update {
		t.Errorf("undo: %+v", d)
	}
	var ds struct {
		Decisions []decision `json:"decisions"`
	}
	e.call("decisions", args{}, &ds)
	if len(ds.Decisions) != 2 || ds.Decisions[0].ID != update {
		t.Errorf("decisions: %+v", ds)
	}
	var f struct {
		Fact fact `json:"fact"`
	}
	e.call("get", args{"id": fabrikam}, &g)
	if g.Fact.State != "retracted" {
		t.Errorf("after undo fact %d is %s", fabrikam, g.Fact.State)
	}

	var c struct {
		Fact     fact `json:"fact"`
		Replaced fact `json:"replaced"`
	}
	e.clock.set("2026-09-01")
	e.call("correct", args{"id": contoso, "text": "I work at Northwind.", "event_from": "2026-08-25"}, &c)
	if c.Replaced.ID != contoso || c.Replaced.State != "superseded" || c.Fact.Text != "I work at Northwind." {
		t.Errorf("correct: %+v", c)
	}
	northwind := c.Fact.ID
	e.call("retract", args{"id": northwind, "reason": "a mistake"}, &f)
	if f.Fact.State != "retracted" {
		t.Errorf("retract: %+v", f)
	}
	e.call("restore", args{"id": northwind}, &f)
	if f.Fact.State != "current" {
		t.Errorf("restore: %+v", f)
	}
	e.call("pin", args{"id": northwind}, &f)
	if !f.Fact.Pinned {
		t.Errorf("pin: %+v", f)
	}
	e.call("unpin", args{"id": northwind}, &f)
	if f.Fact.Pinned {
		t.Errorf("unpin: %+v", f)
	}
	var fg struct {
		Deleted []uint64 `json:"deleted"`
	}
	e.call("forget", args{"id": northwind, "confirm": true}, &fg)
	if !slices.Equal(fg.Deleted, []uint64{northwind}) {
		t.Errorf("forget: %+v", fg)
	}
	e.refused("get", args{"id": northwind}, "not found")
	e.call("get", args{"id": contoso}, &g)
	if g.Fact.State != "current" {
		t.Errorf("forgetting the newest version should bring back fact %d: %s", contoso, g.Fact.State)
	}
}

// TestConflicts: a pinned fact contradicted becomes a question, which
// resolve settles; a derived conflict of two cities too.
func TestConflicts(t *testing.T) {
	e := newEnv(t, nil, nil)
	var r remembered
	e.call("remember", args{"text": "I live in Lyon."}, &r)
	lyon := r.Fact.ID
	e.call("pin", args{"id": lyon}, nil)
	e.clock.set("2026-04-01")
	e.call("remember", args{"text": "I live in Paris now."}, &r)
	if r.Decision.Action != "add" || len(r.Conflicts) == 0 {
		t.Fatalf("remember against a pinned fact: %+v", r)
	}
	q := r.Conflicts[0]
	if q.Other != lyon || q.OtherText != "I live in Lyon." || !strings.Contains(q.Ask, "pinned") && q.Relation == "" {
		t.Errorf("question: %+v", q)
	}
	var cs struct {
		Conflicts []struct {
			ID           uint64 `json:"id"`
			New          uint64 `json:"new"`
			Existing     uint64 `json:"existing"`
			NewFact      *fact  `json:"new_fact"`
			ExistingFact *fact  `json:"existing_fact"`
			Resolution   string `json:"resolution"`
		} `json:"conflicts"`
	}
	e.call("conflicts", args{}, &cs)
	if len(cs.Conflicts) == 0 || cs.Conflicts[0].ExistingFact == nil || cs.Conflicts[0].NewFact == nil {
		t.Fatalf("conflicts: %+v", cs)
	}
	e.refused("resolve", args{"conflict": q.Conflict, "keep": "neither"}, "keep")
	var rs struct {
		Conflict struct {
			Resolution string `json:"resolution"`
		} `json:"conflict"`
	}
	e.call("resolve", args{"conflict": q.Conflict, "keep": "both"}, &rs)
	if rs.Conflict.Resolution != "both" {
		t.Errorf("resolve: %+v", rs)
	}
	e.refused("resolve", args{"conflict": q.Conflict, "keep": "new"}, "resolved")
	e.call("conflicts", args{"all": true}, &cs)
	if len(cs.Conflicts) == 0 {
		t.Errorf("conflicts all: none")
	}
}

func TestGraph(t *testing.T) {
	e := newEnv(t, nil, nil)
	e.call("remember", args{"text": "I work at Яндекс."}, nil)
	e.clock.set("2026-04-01")
	e.call("remember", args{"text": "My sister works at Yandex."}, nil)
	type edges struct {
		Edges []struct {
			Subject        string   `json:"subject"`
			Relation       string   `json:"relation"`
			Object         string   `json:"object"`
			Support        []uint64 `json:"support"`
			ObjectAliases  []string `json:"object_aliases"`
			SubjectAliases []string `json:"subject_aliases"`
			KnownFrom      *string  `json:"known_from"`
		} `json:"edges"`
	}
	var es edges
	e.call("edges", args{"relation": "works_at", "user_only": true}, &es)
	if len(es.Edges) != 1 || es.Edges[0].Object != "Яндекс" || es.Edges[0].Subject != "" {
		t.Fatalf("edges of the user: %+v", es)
	}
	e.refused("edges", args{"relation": "flies"}, "relation")
	e.refused("edges", args{"subject": "sister", "user_only": true}, "not both")
	var m struct {
		Merge struct {
			ID    uint64 `json:"id"`
			From  string `json:"from"`
			Into  string `json:"into"`
			State string `json:"state"`
		} `json:"merge"`
	}
	e.call("merge", args{"from": "Яндекс", "into": "Yandex", "reason": "one company"}, &m)
	if m.Merge.State != "active" || m.Merge.Into != "Yandex" {
		t.Fatalf("merge: %+v", m)
	}
	e.call("edges", args{"object": "Yandex"}, &es)
	if len(es.Edges) != 2 || !slices.Equal(es.Edges[0].ObjectAliases, []string{"Яндекс"}) {
		t.Errorf("edges after the merge: %+v", es)
	}
	e.call("entity", args{"name": "Yandex"}, &es)
	if len(es.Edges) == 0 || es.Edges[0].KnownFrom == nil {
		t.Errorf("entity: %+v", es)
	}
	e.refused("merge", args{"from": "Яндекс", "into": "Yandex"}, "invalid merge")
	e.call("unmerge", args{"merge": m.Merge.ID}, &m)
	if m.Merge.State != "undone" {
		t.Errorf("unmerge: %+v", m)
	}
	e.refused("unmerge", args{"merge": m.Merge.ID}, "already undone")
	e.refused("merge", args{"from": "Nowhere Inc", "into": "Yandex"}, "not found")
}

// TestRefusals: every kind of bad call is a tool error with the library's
// message (or the schema's), and the store is unchanged.
func TestRefusals(t *testing.T) {
	e := newEnv(t, &memory.Options{}, &mcpserver.Options{User: "ann"})
	var r remembered
	e.call("remember", args{"text": "I have a dog named Rex."}, &r)
	rex := r.Fact.ID
	// Another user's fact, written beside the server; ids are each user's,
	// so bob's second has an id ann has none of.
	if _, err := e.s.Add(e.ctx, memory.Note{User: "bob", Text: "I have a bicycle."}); err != nil {
		t.Fatal(err)
	}
	bob, err := e.s.Add(e.ctx, memory.Note{User: "bob", Text: "I have a cat."})
	if err != nil {
		t.Fatal(err)
	}
	e.call("pin", args{"id": rex}, nil)
	long := strings.Repeat("word ", 200)
	for _, c := range []struct {
		tool string
		args any
		want string
	}{
		{"no_such_tool", args{}, "unknown tool"},
		{"remember", args{}, "text"},                                        // missing field
		{"remember", args{"text": 42}, "text"},                              // wrong type
		{"remember", args{"text": "x", "colour": "red"}, "colour"},          // unknown field
		{"remember", args{"text": ""}, memory.ErrEmpty.Error()},             // empty
		{"remember", args{"text": long}, memory.ErrTooLong.Error()},         // oversized
		{"remember", args{"text": "a\x1bb"}, memory.ErrControlChar.Error()}, // control character
		{"remember", args{"text": "I moved.", "event_from": "June"}, "event_from"},
		{"remember", args{"text": "I moved.", "event_from": "2300-01-01"}, memory.ErrInvalidTime.Error()},
		{"remember", args{"text": "I moved.", "event_from": "2026-06-01", "event_until": "2026-05-01"}, memory.ErrInvalidInterval.Error()},
		{"remember", args{"text": "Hi.", "source_quote": long}, memory.ErrTooLong.Error()},
		{"get", args{"id": 999}, memory.ErrNotFound.Error()},
		{"get", args{"id": bob.ID}, memory.ErrNotFound.Error()}, // another user's
		{"get", args{"id": -1}, "id"},
		{"get", args{"id": "1"}, "id"},
		{"retract", args{"id": bob.ID}, memory.ErrNotFound.Error()},
		{"forget", args{"id": bob.ID, "confirm": true}, memory.ErrNotFound.Error()},
		{"correct", args{"id": bob.ID, "text": "I have two cats."}, memory.ErrNotFound.Error()},
		{"correct", args{"id": rex, "text": "a\x00b"}, memory.ErrControlChar.Error()},
		{"restore", args{"id": rex}, memory.ErrAlreadyCurrent.Error()},
		{"forget", args{"id": rex}, "confirm"},
		{"forget", args{"id": rex, "confirm": false}, mcpserver.ErrNotConfirmed.Error()},
		{"recall", args{"query": "dog", "k": 1000}, memory.ErrInvalidK.Error()},
		{"recall", args{"query": "dog", "event": "yesterday"}, "event"},
		{"context", args{"budget": -1}, memory.ErrInvalidPromptOptions.Error()},
		{"at", args{"known": "1800-01-01"}, memory.ErrInvalidTime.Error()},
		{"decisions", args{"limit": -1}, "limit"},
		{"undo", args{"decision": 999}, memory.ErrNotFound.Error()},
		{"resolve", args{"conflict": 999, "keep": "new"}, memory.ErrNotFound.Error()},
		{"unmerge", args{"merge": 999}, memory.ErrNotFound.Error()},
		{"pin", args{"id": bob.ID}, memory.ErrNotFound.Error()},
		{"unpin", args{"id": 999}, memory.ErrNotFound.Error()},
		{"restore", args{"id": bob.ID}, memory.ErrNotFound.Error()},
		{"get", args{"id": 1.5}, "id"},
		{"remember", args{"text": "x", "said_at": "2026-13-01"}, "said_at"},
		{"edges", args{"known": "never"}, "known"},
		{"edges", args{"event": "3000-01-01"}, memory.ErrInvalidTime.Error()},
		{"merge", args{"from": "", "into": "Yandex"}, "merge"},
		{"context", args{"budget": "big"}, "budget"},
		{"recall", args{}, "query"},
		{"resolve", args{"conflict": 1}, "keep"},
	} {
		e.refused(c.tool, c.args, c.want)
	}
	if _, err := e.s.Get(e.ctx, "bob", bob.ID); err != nil {
		t.Errorf("bob's fact: %v", err)
	}
}

// TestAutoOrigin: with OriginAuto the assistant cannot change a pinned fact.
func TestAutoOrigin(t *testing.T) {
	e := newEnv(t, nil, &mcpserver.Options{Origin: memory.OriginAuto})
	var r remembered
	e.call("remember", args{"text": "My name is Ada."}, &r)
	e.call("pin", args{"id": r.Fact.ID}, nil)
	e.refused("correct", args{"id": r.Fact.ID, "text": "My name is Bob."}, memory.ErrPinned.Error())
	e.refused("retract", args{"id": r.Fact.ID}, memory.ErrPinned.Error())
}

func TestInvalidUser(t *testing.T) {
	s, err := memory.Open(filepath.Join(t.TempDir(), "m.db"), 0o600, &memory.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := mcpserver.New(s, &mcpserver.Options{User: "a\x00b"}); err == nil {
		t.Error("New with a bad user name: no error")
	}
	if _, err := mcpserver.New(nil, nil); err == nil {
		t.Error("New of no store: no error")
	}
}

// TestUndoRefusals: an undo twice, and an undo after the facts changed
// again, are refused with the store unchanged.
func TestUndoRefusals(t *testing.T) {
	e := newEnv(t, nil, nil)
	var r remembered
	e.call("remember", args{"text": "I work at Contoso."}, &r)
	e.clock.set("2026-04-01")
	e.call("remember", args{"text": "I now work at Fabrikam; I moved from Contoso."}, &r)
	update := r.Decision.ID
	e.clock.set("2026-04-02")
	e.call("retract", args{"id": r.Fact.ID}, nil)
	e.refused("undo", args{"decision": update}, "changed")
	e.call("restore", args{"id": r.Fact.ID}, nil)
	e.call("undo", args{"decision": update}, nil)
	e.refused("undo", args{"decision": update}, "already undone")
	e.refused("retract", args{"id": r.Fact.ID}, memory.ErrNotCurrent.Error())
}

// TestPromptArguments: the prompt's budget is a whole number; a bad one is
// refused, as the library refuses a negative one.
func TestPromptArguments(t *testing.T) {
	e := newEnv(t, nil, nil)
	e.call("remember", args{"text": "I live in Lyon."}, nil)
	e.call("remember", args{"text": "I have a dog named Rex."}, nil)
	get := func(a map[string]string) (*mcp.GetPromptResult, error) {
		return e.cs.GetPrompt(e.ctx, &mcp.GetPromptParams{Name: mcpserver.PromptName, Arguments: a})
	}
	res, err := get(map[string]string{"message": "Where do I live?", "budget": "20"})
	if err != nil {
		t.Fatal(err)
	}
	if txt := res.Messages[0].Content.(*mcp.TextContent).Text; !strings.Contains(txt, "Lyon") || strings.Contains(txt, "Rex") {
		t.Errorf("prompt within 20 characters for Lyon: %q", txt)
	}
	for _, b := range []string{"lots", "-1"} {
		if _, err := get(map[string]string{"budget": b}); err == nil {
			t.Errorf("budget %q: no error", b)
		}
	}
}
