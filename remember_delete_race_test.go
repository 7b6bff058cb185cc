package memory_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/palimpsest-mem/memory"
)

// A candidate hard-deleted while the decider judges (Remember's lookup and
// decision run outside the write transaction) must leave no trace in the
// decision that follows: Delete scrubbed the decisions that existed, not
// this one. Found by the 64-goroutine test: the export of such a store
// named deleted facts and could not be imported.
func TestRememberCandidateDeletedWhileDeciding(t *testing.T) {
	cases := []struct {
		name     string
		deleteOn []int // which calls of the decider delete the first candidate
		action   memory.Action
		calls    int // decider calls expected: a deletion seen once is judged again
	}{
		{"add, deleted once", []int{1}, memory.ActionAdd, 2},
		{"update, deleted once", []int{1}, memory.ActionUpdate, 2},
		{"update, deleted on both tries", []int{1, 2}, memory.ActionUpdate, 2},
		{"invalidate, deleted on both tries", []int{1, 2}, memory.ActionInvalidate, 2},
		{"noop, deleted on both tries", []int{1, 2}, memory.ActionNoop, 2},
		{"add, deleted on both tries", []int{1, 2}, memory.ActionAdd, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newClock("2026-01-01")
			var s *memory.Store
			var deleted []string // texts of the facts the decider deleted
			calls := 0
			dec := &funcDecider{name: "custom", fn: func(ctx context.Context, in memory.DecideInput) (memory.Verdict, error) {
				calls++
				if len(in.Candidates) == 0 {
					return memory.Verdict{Action: memory.ActionAdd, Decider: "custom", Reason: "nothing similar"}, nil
				}
				first := in.Candidates[0].Text
				// The model's answer quotes the candidate, as models do.
				d := memory.Verdict{Action: tc.action, Target: 1, Decider: "custom",
					Reason: "it replaces " + first, Raw: fmt.Sprintf(`{"reasoning":%q}`, "it replaces "+first)}
				if tc.action == memory.ActionAdd {
					d.Target = 0
				}
				if slices.Contains(tc.deleteOn, calls) {
					for _, f := range must[[]memory.Fact](t)(s.List(ctx, "", nil)) {
						if f.Text == first {
							must[[]uint64](t)(s.Delete(ctx, "", f.ID, nil))
							deleted = append(deleted, first)
						}
					}
				}
				return d, nil
			}}
			s, _ = open(t, c, &memory.Options{NoSync: true, Decider: dec})
			for _, text := range []string{"I live in Lyon, rue SECRET-ONE.", "I live in Lyon, rue SECRET-TWO."} {
				must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: text}))
			}
			c.set("2026-02-01")
			out, err := s.Remember(ctx, memory.Note{Text: "I live in Lyon now, rue Neuve."})
			if err != nil {
				t.Fatal(err)
			}
			if calls != tc.calls || len(deleted) != len(tc.deleteOn) {
				t.Fatalf("test is void: %d decider calls, deleted %q", calls, deleted)
			}
			live := map[uint64]bool{}
			for _, f := range must[[]memory.Fact](t)(s.List(ctx, "", &memory.ListOptions{All: true})) {
				live[f.ID] = true
			}
			d := out.Decision
			for _, id := range append([]uint64{d.Added, d.Target}, d.Candidates...) {
				if id != 0 && !live[id] {
					t.Errorf("the decision names fact %d, which was deleted: %+v", id, d)
				}
			}
			b, _ := json.Marshal(lastDecision(t, s, ""))
			for _, text := range deleted {
				if secret := text[strings.Index(text, "SECRET"):]; strings.Contains(string(b), secret) {
					t.Errorf("the decision quotes the deleted %q: %s", secret, b)
				}
			}
			for _, cf := range must[[]memory.Conflict](t)(s.Conflicts(ctx, "", &memory.ConflictOptions{All: true})) {
				if !live[cf.New] || !live[cf.Existing] {
					t.Errorf("conflict %+v names a deleted fact", cf)
				}
			}
			if tc.action != memory.ActionNoop && (out.Fact.ID == 0 || out.Fact.Text != "I live in Lyon now, rue Neuve.") {
				t.Errorf("the new fact was not stored: %+v", out)
			}
			checkClean(t, s)
			// The store's export imports: nothing in it names a missing fact.
			dst, _ := open(t, c, nil)
			exported := snapshot(t, s)
			if _, err := dst.Import(ctx, strings.NewReader(exported), nil); err != nil {
				t.Errorf("import of the export: %v", err)
				if errors.Is(err, memory.ErrBadImport) {
					t.Logf("export:\n%s", exported)
				}
			}
		})
	}
}
