package index

import (
	"context"
	"fmt"
	"testing"
)

// A user's vectors are read once, at the first lookup; a change applied
// while they are being read is laid over what the read found; and past
// maxVectorUsers the least recently looked-up user goes, to be read
// again at its next lookup.
func TestVectorsLoadPerUser(t *testing.T) {
	ctx := context.Background()
	vs := newVectors()
	reads := map[string]int{}
	read := func(_ context.Context, user string) ([]Doc, error) {
		reads[user]++
		if user == "ann" {
			// Meanwhile the indexer applies a change of ann's and deletes
			// one of the facts the read found.
			vs.put(DocKey{User: "ann", ID: 3}, []float32{0, 1})
			vs.delete(DocKey{User: "ann", ID: 2})
		}
		return []Doc{{ID: 1, User: user, Vector: []float32{1, 0}}, {ID: 2, User: user, Vector: []float32{1, 0.1}}}, nil
	}
	// A user not loaded gets no puts: the store has them.
	vs.put(DocKey{User: "ann", ID: 9}, []float32{1, 0})
	if err := vs.load(ctx, "ann", read); err != nil {
		t.Fatal(err)
	}
	got := vs.nearest("ann", []float32{0, 1}, 10)
	if len(got) != 2 || got[0].ID != 3 || got[1].ID != 1 {
		t.Errorf("nearest after the load: %+v, want 3 (put meanwhile) then 1 (2 deleted meanwhile, 9 never read)", got)
	}
	if err := vs.load(ctx, "ann", read); err != nil || reads["ann"] != 1 {
		t.Errorf("a second lookup read ann's vectors again (%d reads, %v)", reads["ann"], err)
	}
	vs.put(DocKey{User: "ann", ID: 4}, []float32{0, 1}) // loaded: kept
	if got := vs.nearest("ann", []float32{0, 1}, 1); len(got) != 1 || (got[0].ID != 3 && got[0].ID != 4) {
		t.Errorf("nearest after a put: %+v", got)
	}
	for i := range maxVectorUsers {
		if err := vs.load(ctx, fmt.Sprint("user-", i), read); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok := vs.byUser["ann"]; ok || len(vs.byUser) != maxVectorUsers {
		t.Errorf("%d users held, ann among them: %v; want %d, ann gone", len(vs.byUser), ok, maxVectorUsers)
	}
	if err := vs.load(ctx, "ann", read); err != nil || reads["ann"] != 2 {
		t.Errorf("ann after her eviction: %d reads, %v; want read again", reads["ann"], err)
	}
}
