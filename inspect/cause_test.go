package inspect

import (
	"net/url"
	"strings"
	"testing"
)

// A lifecycle step's cause names its decision once: the link says
// "decision 8" or "undo of decision 17", and the cause the store wrote in
// the same words is not shown beside it. Before, the rows read "undo of
// decision 17 undo of decision 17".
func TestLifecycleCauseReadsOnce(t *testing.T) {
	f := newFixture(t, nil)
	job := f.outcome(t, "I now work at Contoso as a product manager.")
	wrong := f.outcome(t, "I was wrong, the team offsite is on Wednesday, not Tuesday.")
	if w := f.do(t, "POST", "/decisions/"+itoa(job.Decision.ID)+"/undo", url.Values{}); w.Code != 303 {
		t.Fatalf("undo: %d", w.Code)
	}
	for _, tc := range []struct {
		page, version uint64
		step, cause   string
	}{
		{job.Fact.ID, job.Decision.Target, "superseded", "decision " + itoa(job.Decision.ID)},
		{job.Fact.ID, job.Decision.Target, "restored", "undo of decision " + itoa(job.Decision.ID)},
		{job.Fact.ID, job.Fact.ID, "retracted", "undo of decision " + itoa(job.Decision.ID)},
		{wrong.Decision.Target, wrong.Decision.Target, "retracted", "decision " + itoa(wrong.Decision.ID)},
	} {
		body := f.do(t, "GET", "/facts/"+itoa(tc.page), nil).Body.String()
		found := false
		for _, r := range tableRows(body, "log") {
			if len(r.Text) != 5 || r.Text[1] != "#"+itoa(tc.version) || !strings.HasPrefix(r.Text[2], tc.step) {
				continue
			}
			found = true
			if r.Text[4] != tc.cause {
				t.Errorf("fact %d, step %s of #%d: cause %q, want %q", tc.page, tc.step, tc.version, r.Text[4], tc.cause)
			}
		}
		if !found {
			t.Errorf("fact %d: no %s step of #%d in %v", tc.page, tc.step, tc.version, tableRows(body, "log"))
		}
	}
}
