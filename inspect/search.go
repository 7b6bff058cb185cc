package inspect

import (
	"errors"
	"net/http"
	"strings"

	"github.com/palimpsest-mem/memory"
)

// searchData is the search page.
type searchData struct {
	Query  string
	Travel travel
	Hits   []searchHit
	Result memory.SearchResult
	// Asked says a query was given; Refused is why Search would not take
	// it, shown beside the form rather than as an error page.
	Asked   bool
	Refused string
}

// searchHit is a hit as the page shows it.
type searchHit struct {
	factView
	Why   string
	Ranks string
}

// search is /search?q=…: what Search finds for a question, with why, as of
// the times of the travel form (all adds the versions no longer current).
func (h *Handler) search(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	user, t, ok := h.travelQuery(w, r)
	if !ok {
		return
	}
	d := searchData{Query: strings.TrimSpace(r.URL.Query().Get("q")), Travel: t}
	if d.Query != "" {
		d.Asked = true
		res, err := h.s.Search(ctx, user, d.Query, &memory.SearchOptions{Event: t.At, Known: t.Known, History: t.All})
		switch {
		case err == nil:
			d.Result = res
		case errors.Is(err, memory.ErrEmpty), errors.Is(err, memory.ErrTooLong), errors.Is(err, memory.ErrControlChar), errors.Is(err, memory.ErrInvalidUTF8):
			d.Refused = err.Error()
		default:
			h.failErr(w, r, err)
			return
		}
		facts := make([]memory.Fact, len(d.Result.Hits))
		for i, hit := range d.Result.Hits {
			facts[i] = hit.Fact
		}
		views, err := h.travelViews(ctx, user, facts, t)
		if err != nil {
			h.failErr(w, r, err)
			return
		}
		for i, hit := range d.Result.Hits {
			d.Hits = append(d.Hits, searchHit{factView: views[i], Why: hitWhy(hit), Ranks: hitRanks(hit)})
		}
	}
	h.render(w, http.StatusOK, "search", h.newPage(ctx, r, "Search", "search", d))
}

// hitWhy says why Search found a hit, in words.
func hitWhy(h memory.SearchHit) string {
	var parts []string
	if len(h.Terms) > 0 {
		ts := make([]string, len(h.Terms))
		for i, t := range h.Terms {
			ts[i] = t.String()
		}
		parts = append(parts, "shares "+strings.Join(ts, ", "))
	}
	if len(h.Topics) > 0 {
		parts = append(parts, "topic "+strings.Join(h.Topics, ", "))
	}
	if len(h.Entities) > 0 {
		parts = append(parts, "about "+strings.Join(h.Entities, ", "))
	}
	if h.InPeriod {
		parts = append(parts, "in the period asked")
	}
	return strings.Join(parts, "; ")
}

// hitRanks lists where each ranker placed a hit.
func hitRanks(h memory.SearchHit) string {
	parts := make([]string, len(h.Ranks))
	for i, r := range h.Ranks {
		parts[i] = string(r.Ranker) + " " + itoa(uint64(r.Rank))
	}
	return strings.Join(parts, ", ")
}
