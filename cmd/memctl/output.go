package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/palimpsest-mem/memory"
)

// factJSON is the fact object of --json output. Its keys are a contract
// with scripts: change them only together with the documentation.
type factJSON struct {
	ID           uint64  `json:"id"`
	User         string  `json:"user"`
	Text         string  `json:"text"`
	State        string  `json:"state"`
	Pinned       bool    `json:"pinned"`
	RecordedAt   *string `json:"recorded_at"`
	ValidUntil   *string `json:"valid_until"`
	SupersededBy uint64  `json:"superseded_by"`
	EventFrom    *string `json:"event_from"`
	EventUntil   *string `json:"event_until"`
	// Where each came from: given, model or words; null when unknown
	// (unset, or imported from an export that did not say).
	EventSource      *string `json:"event_source"`
	EventUntilSource *string `json:"event_until_source"`
	// The effective interval: event_start null when unknown (no time was
	// told), event_end null while open; a superseded fact ends where its
	// successor starts.
	EventStart *string `json:"event_start"`
	EventEnd   *string `json:"event_end"`
	Source     *string `json:"source"`
	// Claims are what the fact states, the graph's edges are made of; []
	// for none. memory.Claim's own JSON keys, the MCP tools' too.
	Claims []memory.Claim `json:"claims"`
}

func factObject(f memory.Fact) factJSON {
	o := factJSON{
		ID:               f.ID,
		User:             f.User,
		Text:             f.Text,
		State:            f.State().String(),
		Pinned:           f.Pinned,
		RecordedAt:       jsonTime(f.RecordedAt),
		ValidUntil:       jsonTime(f.ValidUntil),
		SupersededBy:     f.SupersededBy,
		EventFrom:        jsonTime(f.EventFrom),
		EventUntil:       jsonTime(f.EventUntil),
		EventSource:      nonEmpty(f.EventSource),
		EventUntilSource: nonEmpty(f.EventUntilSource),
		EventStart:       jsonTime(f.EventStart),
		EventEnd:         jsonTime(f.EventEnd),
		Claims:           nonNil(f.Claims),
	}
	if f.Source.Ref != "" {
		ref := f.Source.Ref
		o.Source = &ref
	}
	return o
}

// jsonTime is nil for the zero time, so that it encodes as null.
func jsonTime(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	s := t.UTC().Format(time.RFC3339Nano)
	return &s
}

// nonEmpty is s, or nil (JSON null) for "".
func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func (a *app) printJSON(v any) error {
	enc := json.NewEncoder(a.stdout)
	enc.SetEscapeHTML(false) // texts are for people and scripts, not HTML
	return enc.Encode(v)
}

// printFact prints the fact a write returned: its object with --json, else
// one line led by what, a format with the fact id as its only verb.
func (a *app) printFact(f memory.Fact, what string) error {
	if a.json {
		return a.printJSON(factObject(f))
	}
	_, err := fmt.Fprintf(a.stdout, what+": %s\n", f.ID, oneLineText(f.Text))
	return err
}

// printWritten is printFact for a fact a write just stored, followed, as
// a table, by the conflicts the store derived for it.
func (a *app) printWritten(ctx context.Context, s *memory.Store, f memory.Fact, what string) error {
	if err := a.printFact(f, what); err != nil || a.json {
		return err
	}
	tw := tabwriter.NewWriter(a.stdout, 0, 4, 1, ' ', 0)
	if err := a.printDerivedConflicts(ctx, s, tw, f.ID); err != nil {
		return err
	}
	return tw.Flush()
}

// printFacts prints facts as a JSON array or a table.
func (a *app) printFacts(ctx context.Context, s *memory.Store, facts []memory.Fact) error {
	return a.printList(len(facts), func() any { return jsonList(facts, factObject) }, "no facts", func(tw io.Writer) error {
		fmt.Fprintln(tw, "ID\tSTATE\tPIN\tRECORDED\tEVENT\tTEXT")
		for _, f := range facts {
			event, err := eventSpan(ctx, s, f)
			if err != nil {
				return err
			}
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\n", f.ID, f.State(), yesNo(f.Pinned, "yes", "-"),
				showTime(f.RecordedAt), event, oneLineText(f.Text))
		}
		return nil
	})
}

// eventSpan shows when a fact was true in the world as the store now sees
// it (Fact's effective interval); "?" is a start nobody told.
func eventSpan(_ context.Context, _ *memory.Store, f memory.Fact) (string, error) {
	from := "?"
	if !f.EventStart.IsZero() {
		from = showTime(f.EventStart)
	}
	end := "open"
	if !f.EventEnd.IsZero() {
		end = showTime(f.EventEnd)
	}
	return from + " → " + end, nil
}

// eventSource says where a fact's stored start and end came from.
func eventSource(from, until string) string {
	var parts []string
	if from != "" {
		parts = append(parts, "start: "+from)
	}
	if until != "" {
		parts = append(parts, "end: "+until)
	}
	return strings.Join(parts, ", ")
}

// printFactDetail is get without --json: every field, then the lifecycle log.
func (a *app) printFactDetail(ctx context.Context, s *memory.Store, f memory.Fact) error {
	evs, err := s.Events(ctx, f.User, f.ID)
	if err != nil {
		return err
	}
	span, err := eventSpan(ctx, s, f)
	if err != nil {
		return err
	}
	state := f.State().String()
	if f.SupersededBy != 0 {
		state += fmt.Sprintf(" (by fact %d)", f.SupersededBy)
	}
	user := oneLineText(f.User)
	if user == "" {
		user = "(default)"
	}
	src := oneLineText(f.Source.Kind)
	if f.Source.Ref != "" {
		src += " " + oneLineText(f.Source.Ref)
	}
	tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "fact\t%d\n", f.ID)
	fmt.Fprintf(tw, "user\t%s\n", user)
	fmt.Fprintf(tw, "text\t%s\n", oneLineText(f.Text))
	fmt.Fprintf(tw, "state\t%s\n", state)
	fmt.Fprintf(tw, "pinned\t%s\n", yesNo(f.Pinned, "yes", "no"))
	fmt.Fprintf(tw, "origin\t%s\n", f.Origin)
	fmt.Fprintf(tw, "source\t%s\n", orDash(src))
	if f.Source.Quote != "" {
		fmt.Fprintf(tw, "quote\t%s\n", oneLineText(f.Source.Quote))
	}
	fmt.Fprintf(tw, "recorded\t%s\n", showTime(f.RecordedAt))
	fmt.Fprintf(tw, "valid until\t%s\n", orDash(timeOrEmpty(f.ValidUntil)))
	fmt.Fprintf(tw, "event\t%s\n", span)
	if f.EventSource != "" || f.EventUntilSource != "" {
		fmt.Fprintf(tw, "event source\t%s\n", eventSource(f.EventSource, f.EventUntilSource))
	}
	if f.Supersedes != 0 {
		fmt.Fprintf(tw, "supersedes\tfact %d\n", f.Supersedes)
	}
	for i, c := range f.Claims {
		fmt.Fprintf(tw, "%s\t%s\n", yesNo(i == 0, "claims", ""), showClaim(c))
	}
	if len(f.Claims) == 0 {
		fmt.Fprintf(tw, "claims\t-\n")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(a.stdout, "\nlog:")
	tw = tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	// A confirmation an undo cancelled says so on its own row too.
	cancelled := map[uint64]bool{}
	for _, e := range evs {
		if e.Kind == memory.EventUnconfirmed {
			cancelled[e.Undoes] = true
		}
	}
	for _, e := range evs {
		var detail []string
		if e.Kind == memory.EventSuperseded {
			if e.By != 0 {
				detail = append(detail, fmt.Sprintf("by fact %d", e.By))
			}
			detail = append(detail, "event end "+showTime(e.EventEnd))
		}
		// The reference says what the store's own cause for it says, so
		// that cause is not repeated as a reason.
		ref := ""
		switch {
		case e.Decision != 0:
			ref = fmt.Sprintf("decision %d", e.Decision)
		case e.Undoes != 0:
			ref = fmt.Sprintf("undo of decision %d", e.Undoes)
		}
		if ref != "" {
			detail = append(detail, ref)
		}
		if e.Kind == memory.EventConfirmed && e.Decision != 0 && cancelled[e.Decision] {
			detail = append(detail, "undone")
		}
		if e.Cause != "" && e.Cause != ref {
			detail = append(detail, "reason: "+oneLineText(e.Cause))
		}
		row := fmt.Sprintf("  %s\t%s\t%s", showTime(e.At), e.Kind, e.Origin)
		if len(detail) > 0 {
			row += "\t" + strings.Join(detail, "; ")
		}
		fmt.Fprintln(tw, row)
	}
	return tw.Flush()
}

func timeOrEmpty(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return showTime(t)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func yesNo(b bool, yes, no string) string {
	if b {
		return yes
	}
	return no
}

// oneLineText folds line breaks and tabs, which would break a table row,
// and escapes what a terminal would act on (printable) before a table
// measures it.
func oneLineText(s string) string { return printable(strings.Join(strings.Fields(s), " "), false) }

// promptEntryJSON is an entry of prompt --explain --json.
type promptEntryJSON struct {
	ID        uint64   `json:"id"`
	Text      string   `json:"text"`
	In        bool     `json:"in"`
	Upcoming  bool     `json:"upcoming"`
	Pinned    bool     `json:"pinned"`
	Line      string   `json:"line"`
	Score     float64  `json:"score"`
	Relevance float64  `json:"relevance"`
	Terms     []string `json:"terms"`
	Freshness float64  `json:"freshness"`
	FreshFrom *string  `json:"fresh_from"`
	Confirmed *string  `json:"confirmed"`
	Note      string   `json:"note"`
	Why       []string `json:"why"`
}

// printExplain prints prompt --explain: one fact a line, best ranked
// first, or their JSON.
func (a *app) printExplain(es []memory.PromptEntry) error {
	asJSON := func() any { return map[string]any{"facts": jsonList(es, promptEntryObject)} }
	return a.printList(len(es), asJSON, "No facts are known about the user.", func(tw io.Writer) error {
		fmt.Fprintln(tw, "\tid\tscore\tfact\twhy")
		for _, e := range es {
			in := "in"
			if !e.In {
				in = "out"
			}
			fmt.Fprintf(tw, "%s\t#%d\t%.2f\t%s\t%s\n", in, e.Fact.ID, e.Score, oneLineText(e.Fact.Text), oneLineText(strings.Join(e.Why, "; ")))
		}
		return nil
	})
}

func promptEntryObject(e memory.PromptEntry) promptEntryJSON {
	terms := make([]string, 0, len(e.Terms))
	for _, t := range e.Terms {
		terms = append(terms, t.String())
	}
	return promptEntryJSON{ID: e.Fact.ID, Text: e.Fact.Text, In: e.In, Upcoming: e.Upcoming,
		Pinned: e.Fact.Pinned, Line: e.Line, Score: e.Score, Relevance: e.Relevance, Terms: terms,
		Freshness: e.Freshness, FreshFrom: jsonTime(e.FreshFrom), Confirmed: jsonTime(e.Confirmed),
		Note: e.Note, Why: e.Why}
}
