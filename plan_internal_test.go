package memory

import (
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory/eventtime"
	"github.com/palimpsest-mem/memory/kv"
	"github.com/palimpsest-mem/memory/reconcile"
)

// errNoSuchCandidate marks a case that wants planRemember to refuse its input.
var errNoSuchCandidate = errors.New("no such candidate")

// planRemember is a function of its input alone: these cases give it the
// state a transaction would have read and check the whole plan — which
// action, the decision record word for word, the conflict and the new fact
// — without a store.
func TestPlanRemember(t *testing.T) {
	now := time.Date(2026, 5, 3, 12, 0, 0, 0, time.UTC)
	ids := planIDs{decision: 5, fact: 10, conflict: 3}
	note := kv.Record{User: "ann", Text: "I live in Porto now.", Auto: true}
	lisbon := kv.Record{ID: 7, User: "ann", Text: "I live in Lisbon.", RecordedAt: now.Add(-time.Hour).UnixNano()}
	moved := lisbon
	moved.ValidUntil = now.Add(-time.Minute).UnixNano()
	pinned := lisbon
	pinned.Pinned = true
	otherUser := lisbon
	otherUser.User = "bob"
	startsLater := lisbon
	startsLater.HasFrom, startsLater.EventFrom = true, now.Add(24*time.Hour).UnixNano()
	may := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	at := now.UTC()

	// base is the input of a verdict about candidate 1 (fact 7), the
	// target in state target.
	base := func(d reconcile.Verdict, target kv.Record) planInput {
		if d.Decider == "" {
			d.Decider = "custom"
		}
		return planInput{
			judgement:  judgement{d: d, proposed: d.Action},
			note:       note,
			candidates: []candidateState{{id: 7}},
			target:     target,
			attempt:    1,
			ids:        ids,
			now:        now.UnixNano(),
			decider:    "custom",
		}
	}
	// decision is the record a plan writes for a verdict about fact 7.
	decision := func(action Action, reason string, mod func(*Decision)) Decision {
		d := Decision{ID: 5, At: at, User: "ann", Text: note.Text, Action: action, Proposed: action,
			Decider: "custom", Reason: reason, Candidates: []uint64{7}}
		if mod != nil {
			mod(&d)
		}
		return d
	}
	added := func(d *Decision) { d.Added = 10 }
	conflict := func(why string) Conflict {
		return Conflict{ID: 3, At: at, User: "ann", New: 10, Existing: 7, Decision: 5,
			Reason: "fact 10 seems to contradict fact 7, which " + why}
	}
	update := reconcile.Verdict{Action: ActionUpdate, Target: 1, Reason: "moved"}
	invalidate := reconcile.Verdict{Action: ActionInvalidate, Target: 1, Reason: "wrong"}
	noop := reconcile.Verdict{Action: ActionNoop, Target: 1, Reason: "restates"}
	conflictWith := reconcile.Verdict{Action: ActionAdd, ConflictWith: 1, Reason: "r (the decider said update candidate 1, which is pinned)"}
	twoConflicts := reconcile.Verdict{Action: ActionAdd, ConflictWith: 1, AlsoConflictWith: []int{2}, Reason: "may replace 1 or 2"}
	cello := kv.Record{ID: 8, User: "ann", Text: "I play the cello.", RecordedAt: now.Add(-time.Hour).UnixNano()}

	for _, c := range []struct {
		name string
		in   planInput
		edit func(*planInput)
		want plan
		err  error
	}{
		{name: "add", in: base(reconcile.Verdict{Action: ActionAdd, Reason: "new"}, kv.Record{}),
			want: plan{action: planAdd, fact: note, decision: decision(ActionAdd, "new", added)}},
		{name: "noop keeps the fact it restates", in: base(noop, lisbon),
			want: plan{action: planNoop, fact: note, target: lisbon,
				decision: decision(ActionNoop, "restates", func(d *Decision) { d.Target = 7 })}},
		{name: "noop of a changed fact is judged again", in: base(noop, moved), err: errMoved},
		{name: "noop of a changed fact, judged again, adds", in: base(noop, moved), edit: func(in *planInput) { in.attempt = 2 },
			want: plan{action: planAdd, fact: note, decision: decision(ActionNoop, "restates (fact 7 changed meanwhile: added)",
				func(d *Decision) { d.Action, d.Target, d.Added = ActionAdd, 7, 10 })}},
		{name: "update supersedes", in: base(update, lisbon),
			want: plan{action: planSupersede, fact: note, target: lisbon,
				decision: decision(ActionUpdate, "moved", func(d *Decision) { d.Target, d.Added = 7, 10 })}},
		{name: "invalidate retracts and adds", in: base(invalidate, lisbon),
			want: plan{action: planRetractAdd, fact: note, target: lisbon,
				decision: decision(ActionInvalidate, "wrong", func(d *Decision) { d.Target, d.Added = 7, 10 })}},
		{name: "update of a moved target is judged again", in: base(update, moved), err: errMoved},
		{name: "update of a target gone is judged again", in: base(update, kv.Record{}), err: errMoved},
		{name: "update of another user's fact is judged again", in: base(update, otherUser), err: errMoved},
		// A conflict with a fact no longer current would be moot at once.
		{name: "update of a moved target, judged again, adds", in: base(update, moved),
			edit: func(in *planInput) { in.attempt = 2 },
			want: plan{action: planAdd, fact: note,
				decision: decision(ActionUpdate, "moved (the decider said update fact 7, which had changed meanwhile: added)",
					func(d *Decision) { d.Action, d.Target, d.Added = ActionAdd, 7, 10 })}},
		{name: "invalidate of a target pinned since the lookup adds in conflict", in: base(invalidate, pinned),
			want: plan{action: planAddConflict, fact: note, conflicts: []Conflict{conflict("was pinned")},
				decision: decision(ActionInvalidate, "wrong (the decider said invalidate fact 7, which was pinned: added, conflict 3)",
					func(d *Decision) { d.Action, d.Target, d.Added, d.Conflict = ActionAdd, 7, 10, 3 })}},
		{name: "add in conflict keeps the decider's reason", in: base(conflictWith, pinned),
			want: plan{action: planAddConflict, fact: note, conflicts: []Conflict{conflict("the decider would not change")},
				decision: decision(ActionAdd, conflictWith.Reason, func(d *Decision) { d.Target, d.Added, d.Conflict = 7, 10, 3 })}},
		{name: "add in conflict with a changed fact is not judged again, and adds", in: base(conflictWith, moved),
			want: plan{action: planAdd, fact: note,
				decision: decision(ActionAdd, conflictWith.Reason+" (fact 7 changed meanwhile: added, with no conflict)",
					func(d *Decision) { d.Target, d.Added = 7, 10 })}},
		{name: "add in conflict with two candidates records a conflict with each", in: base(twoConflicts, lisbon),
			edit: func(in *planInput) {
				in.candidates, in.also = []candidateState{{id: 7}, {id: 8}}, []kv.Record{cello}
			},
			want: plan{action: planAddConflict, fact: note, conflicts: []Conflict{conflict("the decider would not change"),
				{ID: 4, At: at, User: "ann", New: 10, Existing: 8, Decision: 5,
					Reason: "fact 10 seems to contradict fact 8, or another fact, which the decider would not change"}},
				decision: decision(ActionAdd, twoConflicts.Reason, func(d *Decision) {
					d.Target, d.Added, d.Conflict, d.AlsoConflicts, d.Candidates = 7, 10, 3, []uint64{4}, []uint64{7, 8}
				})}},
		{name: "add in conflict names no second candidate that changed meanwhile", in: base(twoConflicts, lisbon),
			edit: func(in *planInput) {
				gone := cello
				gone.ValidUntil = now.Add(-time.Minute).UnixNano()
				in.candidates, in.also = []candidateState{{id: 7}, {id: 8}}, []kv.Record{gone}
			},
			want: plan{action: planAddConflict, fact: note, conflicts: []Conflict{conflict("the decider would not change")},
				decision: decision(ActionAdd, twoConflicts.Reason, func(d *Decision) {
					d.Target, d.Added, d.Conflict, d.Candidates = 7, 10, 3, []uint64{7, 8}
				})}},
		{name: "add in conflict names no second candidate deleted meanwhile", in: base(twoConflicts, lisbon),
			edit: func(in *planInput) {
				in.attempt, in.candidates, in.also = 2, []candidateState{{id: 7}, {id: 8, gone: true}}, []kv.Record{{}}
			},
			want: plan{action: planAddConflict, fact: note, conflicts: []Conflict{conflict("the decider would not change")},
				decision: decision(ActionAdd, "[reason removed with a deleted fact it may quote]", func(d *Decision) {
					d.Target, d.Added, d.Conflict = 7, 10, 3
				})}},
		{name: "a deleted candidate is judged again", in: base(update, lisbon),
			edit: func(in *planInput) { in.candidates = []candidateState{{id: 7}, {id: 8, gone: true}} },
			err:  errMoved},
		{name: "a deleted candidate, judged again, leaves no trace", in: base(update, lisbon),
			edit: func(in *planInput) {
				in.attempt, in.candidates = 2, []candidateState{{id: 7}, {id: 8, gone: true}}
				in.d.Raw, in.fallback = "the model's answer", "a fallback"
			},
			want: plan{action: planSupersede, fact: note, target: lisbon,
				decision: decision(ActionUpdate, "[reason removed with a deleted fact it may quote]", func(d *Decision) {
					d.Target, d.Added = 7, 10
					d.Fallback = "[fallback reason removed with a deleted fact it may quote]"
				})}},
		{name: "a deleted target, judged again, adds", in: base(update, kv.Record{}),
			edit: func(in *planInput) { in.attempt, in.candidates[0].gone = 2, true },
			want: plan{action: planAdd, fact: note,
				decision: decision(ActionUpdate, "[reason removed with a deleted fact it may quote] (the fact it concerned was deleted meanwhile: added)",
					func(d *Decision) { d.Action, d.Added, d.Candidates = ActionAdd, 10, []uint64{} })}},
		{name: "an update ending its target before its start falls back to add", in: base(update, startsLater),
			want: plan{action: planAdd, fact: note,
				decision: decision(ActionUpdate, "moved", func(d *Decision) {
					d.Action, d.Target, d.Added = ActionAdd, 7, 10
					d.Fallback = "custom decider's update refused: " + endsAfterStart(&startsLater, now.UnixNano()).Error()
				})}},
		{name: "an update ending its target before its start, refused", in: base(update, startsLater),
			edit: func(in *planInput) { in.refuse = true },
			want: plan{action: planLogOnly, fact: note,
				decision: decision(ActionUpdate, "moved", func(d *Decision) {
					d.Action, d.Target, d.Text = "", 7, ""
					d.Fallback = "custom decider's update refused: " + endsAfterStart(&startsLater, now.UnixNano()).Error()
				})}},
		// The fallback comes in the store's own words (judge): kept as it is.
		{name: "a refused fact logs no text", in: base(reconcile.Verdict{Decider: "custom", Raw: "I live in Porto now. ok"}, kv.Record{}),
			edit: func(in *planInput) {
				in.proposed, in.fallback = ActionUpdate, "custom decider failed: the answer is not the JSON expected"
			},
			want: plan{action: planLogOnly, fact: note,
				decision: decision("", "", func(d *Decision) {
					d.Text, d.Proposed, d.Fallback = "", ActionUpdate, "custom decider failed: the answer is not the JSON expected"
				})}},
		{name: "the model's event time", in: base(reconcile.Verdict{Action: ActionAdd, Reason: "new", EventFrom: may, Grain: "month"}, kv.Record{}),
			edit: func(in *planInput) {
				in.words = eventtime.Result{Found: true, Start: may.AddDate(0, -1, 0), Grain: "day"}
			},
			want: plan{action: planAdd,
				fact: func() kv.Record {
					r := note
					r.HasFrom, r.EventFrom, r.EventSource = true, may.UnixNano(), EventFromModel
					return r
				}(),
				decision: decision(ActionAdd, "new", func(d *Decision) { d.Added, d.EventFrom, d.Grain = 10, &may, "month" })}},
		{name: "the words' event time", in: base(reconcile.Verdict{Action: ActionAdd, Reason: "new"}, kv.Record{}),
			edit: func(in *planInput) { in.words = eventtime.Result{Found: true, Start: may, Grain: "month"} },
			want: plan{action: planAdd,
				fact: func() kv.Record {
					r := note
					r.HasFrom, r.EventFrom, r.EventSource = true, may.UnixNano(), EventFromWords
					return r
				}(),
				decision: decision(ActionAdd, "new", func(d *Decision) { d.Added, d.EventFrom, d.Grain = 10, &may, "month" })}},
		{name: "an event end before the words' time keeps the note's interval", in: base(reconcile.Verdict{Action: ActionAdd, Reason: "new"}, kv.Record{}),
			edit: func(in *planInput) {
				in.words = eventtime.Result{Found: true, Start: may, Grain: "month"}
				in.note.HasUntil, in.note.EventUntil = true, may.UnixNano()
			},
			want: plan{action: planAdd,
				fact: func() kv.Record {
					r := note
					r.HasUntil, r.EventUntil = true, may.UnixNano()
					return r
				}(),
				decision: decision(ActionAdd, "new", added)}},
		{name: "the store's decider names an unnamed answer", in: base(reconcile.Verdict{Action: ActionAdd, Reason: "new"}, kv.Record{}),
			edit: func(in *planInput) { in.d.Decider, in.decider = "", "rules" },
			want: plan{action: planAdd, fact: note, decision: decision(ActionAdd, "new", func(d *Decision) { d.Added, d.Decider = 10, "rules" })}},
		{name: "a candidate the lookup did not give is an error, not a panic",
			in: base(reconcile.Verdict{Action: ActionUpdate, Target: 2}, lisbon), err: errNoSuchCandidate},
		{name: "the model's claims replace the note's in the fact stored", in: base(update, lisbon),
			edit: func(in *planInput) {
				in.note.Claims = []kv.Claim{{Relation: "lives_in", Object: "Porto now", Kind: "place"}}
				in.claims = claimChoice{set: true, claims: portoClaims, from: ClaimsFromModel, note: "dropped claim 2 of 2: an empty object"}
			},
			want: plan{action: planSupersede, target: lisbon,
				fact: func() kv.Record { r := note; r.Claims = portoClaims; return r }(),
				decision: decision(ActionUpdate, "moved", func(d *Decision) {
					d.Target, d.Added = 7, 10
					d.ClaimsFrom, d.ClaimsNote = ClaimsFromModel, "dropped claim 2 of 2: an empty object"
				})}},
		{name: "the note's claims stay unless the choice sets them", in: base(reconcile.Verdict{Action: ActionAdd, Reason: "new"}, kv.Record{}),
			edit: func(in *planInput) {
				in.note.Claims = portoClaims
				in.claims = claimChoice{from: ClaimsFromRules, note: "claims call failed: HTTP 500: the rules' claims"}
			},
			want: plan{action: planAdd, fact: func() kv.Record { r := note; r.Claims = portoClaims; return r }(),
				decision: decision(ActionAdd, "new", func(d *Decision) {
					d.Added, d.ClaimsFrom, d.ClaimsNote = 10, ClaimsFromRules, "claims call failed: HTTP 500: the rules' claims"
				})}},
		{name: "a noop records no claims", in: base(noop, lisbon),
			edit: func(in *planInput) {
				in.claims = claimChoice{set: true, claims: portoClaims, from: ClaimsFromModel, note: "n"}
			},
			want: plan{action: planNoop, target: lisbon, fact: func() kv.Record { r := note; r.Claims = portoClaims; return r }(),
				decision: decision(ActionNoop, "restates", func(d *Decision) { d.Target = 7 })}},
		{name: "a deleted candidate, judged again, takes the claims note", in: base(reconcile.Verdict{Action: ActionAdd, Reason: "new"}, kv.Record{}),
			edit: func(in *planInput) {
				in.attempt, in.candidates = 2, []candidateState{{id: 7}, {id: 8, gone: true}}
				in.claims = claimChoice{set: true, from: ClaimsFromModel, note: "dropped claim 1 of 1: unknown relation \"lisbon_flat\""}
			},
			want: plan{action: planAdd, fact: func() kv.Record { r := note; r.Claims = nil; return r }(),
				decision: decision(ActionAdd, "[reason removed with a deleted fact it may quote]", func(d *Decision) {
					d.Added, d.ClaimsFrom = 10, ClaimsFromModel
					d.ClaimsNote = "[claims note removed with a deleted fact it may quote]"
				})}},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := c.in
			in.candidates = append([]candidateState(nil), in.candidates...)
			if c.edit != nil {
				c.edit(&in)
			}
			got, err := planRemember(in)
			if c.err == errNoSuchCandidate {
				if err == nil || errors.Is(err, errMoved) {
					t.Fatalf("error %v, want one naming the candidate", err)
				}
				return
			}
			if c.err != nil || err != nil {
				if !errors.Is(err, c.err) {
					t.Fatalf("error %v, want %v", err, c.err)
				}
				return
			}
			if got.action != c.want.action {
				t.Errorf("action %s, want %s", got.action, c.want.action)
			}
			if !reflect.DeepEqual(got.decision, c.want.decision) {
				t.Errorf("decision\n got %+v\nwant %+v", got.decision, c.want.decision)
			}
			if !reflect.DeepEqual(got.conflicts, c.want.conflicts) {
				t.Errorf("conflicts\n got %+v\nwant %+v", got.conflicts, c.want.conflicts)
			}
			if !reflect.DeepEqual(got.fact, c.want.fact) {
				t.Errorf("fact\n got %+v\nwant %+v", got.fact, c.want.fact)
			}
			if !reflect.DeepEqual(got.target, c.want.target) {
				t.Errorf("target\n got %+v\nwant %+v", got.target, c.want.target)
			}
		})
	}
}

// portoClaims are claims a model gives for the plan's note.
var portoClaims = []kv.Claim{{Relation: "lives_in", Object: "Porto", Kind: "city"}}

// judge turns what the decider answered into the verdict planned from.
func TestJudge(t *testing.T) {
	in := reconcile.Input{Text: "I live in Porto now.", Candidates: []reconcile.Candidate{
		{N: 1, Text: "I live in Lisbon."}, {N: 2, Text: "I live in Braga.", Pinned: true}}}
	boom := errors.New("timeout")
	for _, c := range []struct {
		name   string
		d      reconcile.Verdict
		derr   error
		refuse bool
		want   judgement
	}{
		{name: "a valid answer stands",
			d:    reconcile.Verdict{Action: ActionUpdate, Target: 1, Reason: "moved", Decider: "m"},
			want: judgement{d: reconcile.Verdict{Action: ActionUpdate, Target: 1, Reason: "moved", Decider: "m"}, proposed: ActionUpdate}},
		{name: "a pinned candidate is not changed: added in conflict",
			d: reconcile.Verdict{Action: ActionInvalidate, Target: 2, Reason: "wrong", Decider: "m", Model: "x", Raw: "{}", Grain: "day"},
			want: judgement{d: reconcile.Verdict{Action: ActionAdd, ConflictWith: 2, Decider: "m", Model: "x", Raw: "{}", Grain: "day",
				Reason: "wrong (the decider said invalidate candidate 2, which is pinned)"}, proposed: ActionInvalidate}},
		{name: "a noop of a pinned candidate stands",
			d:    reconcile.Verdict{Action: ActionNoop, Target: 2, Reason: "same"},
			want: judgement{d: reconcile.Verdict{Action: ActionNoop, Target: 2, Reason: "same"}, proposed: ActionNoop}},
		// The fallback is in the store's words; the model's answer is dropped.
		{name: "an invalid answer falls back to add",
			d: reconcile.Verdict{Action: ActionUpdate, Target: 3, Model: "x", Raw: "{3}"},
			want: judgement{d: reconcile.Verdict{Action: ActionAdd, Decider: "store", Model: "x"}, proposed: ActionUpdate,
				fallback: "store decider failed: target out of range for the action"}},
		{name: "an unknown action is not quoted",
			d: reconcile.Verdict{Action: "I live in Porto now.", Raw: "I live in Porto now."},
			want: judgement{d: reconcile.Verdict{Action: ActionAdd, Decider: "store"},
				fallback: "store decider failed: unknown action"}},
		{name: "an error of a decider's own is not quoted", derr: boom, refuse: true,
			want: judgement{d: reconcile.Verdict{Decider: "store"}, fallback: "store decider failed: an error of its own, not recorded"}},
		{name: "a provider's status and code", derr: fmt.Errorf("at x: %w", &reconcile.Failure{Reason: reconcile.ReasonStatus, Status: 400, Code: "content_filter", Err: boom}),
			want: judgement{d: reconcile.Verdict{Action: ActionAdd, Decider: "store"}, fallback: "store decider failed: HTTP 400 Bad Request (content_filter)"}},
		{name: "a code that is a word of the text is left out", derr: &reconcile.Failure{Reason: reconcile.ReasonStatus, Status: 400, Code: "porto"},
			want: judgement{d: reconcile.Verdict{Action: ActionAdd, Decider: "store"}, fallback: "store decider failed: HTTP 400 Bad Request"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := judge(c.d, c.derr, in, "store", c.refuse)
			// The whole error goes to the caller: the decider's, else Validate's.
			if (got.err != nil) != (c.want.fallback != "") || c.derr != nil && !errors.Is(got.err, c.derr) {
				t.Errorf("err %v", got.err)
			}
			got.err = nil
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("\n got %+v\nwant %+v", got, c.want)
			}
		})
	}
}
