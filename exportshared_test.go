package memory_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// shared rewrites an export of version 10, whose counters are each user's,
// as one of an earlier version (9 or older), whose counters were the
// store's: the header holds the highest of each counter, and the users'
// counters lines go. It is how the tests make the exports older programs
// wrote; the ids of the users must not overlap, as they never did then.
func shared(t *testing.T, export string, version int) string {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(export, "\n"), "\n")
	hdr := map[string]any{}
	if err := json.Unmarshal([]byte(lines[0]), &hdr); err != nil || hdr["version"] != float64(10) {
		t.Fatalf("not a version 10 export: %q (%v)", lines[0], err)
	}
	var next, dec, con, mer float64 = 1, 0, 0, 0
	var out []string
	for _, l := range lines[1:] {
		if !strings.HasPrefix(l, `{"counters":`) {
			out = append(out, l)
			continue
		}
		var c struct {
			Counters map[string]any `json:"counters"`
		}
		if err := json.Unmarshal([]byte(l), &c); err != nil {
			t.Fatal(err)
		}
		num := func(k string) float64 { f, _ := c.Counters[k].(float64); return f }
		next, dec, con, mer = max(next, num("next_id")), max(dec, num("last_decision")), max(con, num("last_conflict")), max(mer, num("last_merge"))
	}
	h := map[string]any{"format": "palimpsest-memory", "version": version, "next_id": next}
	for k, v := range map[string]float64{"last_decision": dec, "last_conflict": con, "last_merge": mer} {
		if v > 0 {
			h[k] = v
		}
	}
	// The key order of the header as Export wrote it.
	b, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	head := string(b)
	var ordered struct {
		Format       string  `json:"format"`
		Version      int     `json:"version"`
		NextID       float64 `json:"next_id"`
		LastDecision float64 `json:"last_decision,omitempty"`
		LastConflict float64 `json:"last_conflict,omitempty"`
		LastMerge    float64 `json:"last_merge,omitempty"`
	}
	if err := json.Unmarshal([]byte(head), &ordered); err != nil {
		t.Fatal(err)
	}
	b, _ = json.Marshal(ordered)
	return strings.Join(append([]string{string(b)}, out...), "\n") + "\n"
}

// sameLines reports whether two exports hold the same header and the same
// lines in any order: a version 10 export writes each user's lines
// together, where an older one wrote every fact before every log line.
func sameLines(a, b string) bool {
	la, lb := strings.Split(strings.TrimSuffix(a, "\n"), "\n"), strings.Split(strings.TrimSuffix(b, "\n"), "\n")
	if len(la) != len(lb) || la[0] != lb[0] {
		return false
	}
	slices.Sort(la[1:])
	slices.Sort(lb[1:])
	return slices.Equal(la, lb)
}
