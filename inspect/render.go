package inspect

import (
	"bytes"
	"context"
	"fmt"
	"html/template"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/eventtime"
)

// pageTemplate is the layout with one page's content.
type pageTemplate struct{ t *template.Template }

var pageNames = []string{"facts", "fact", "delete", "why", "timeline", "decisions", "conflicts", "entities", "entity", "search", "error"}

func parsePages() (map[string]*pageTemplate, error) {
	out := make(map[string]*pageTemplate, len(pageNames))
	for _, name := range pageNames {
		t, err := template.New("layout.html").Funcs(funcs).ParseFS(assets, "templates/layout.html", "templates/parts.html", "templates/"+name+".html")
		if err != nil {
			return nil, err
		}
		out[name] = &pageTemplate{t}
	}
	return out, nil
}

var funcs = template.FuncMap{
	"href":     href,
	"factref":  factRef,
	"factrefs": factRefList,
	"ts":       stampAny,
	"sub":      func(a, b float64) float64 { return a - b },
	"add1":     func(a float64, b int) float64 { return a + float64(b) },
	"travelForm": func(action, user string, fact uint64, t travel, showAll bool) travelForm {
		return travelForm{Action: action, User: user, Fact: fact, T: t, ShowAll: showAll, Reset: href(action, user, "fact", fact0(fact))}
	},
	// The timeline's form adds the zoom, a period of event time.
	"laneTravel": func(user string, t travel, from, to string) travelForm {
		return travelForm{Action: "/timeline", User: user, T: t, Zoom: true, From: from, To: to, Reset: href("/timeline", user)}
	},
	"entityTravel": func(user, name string, t travel) travelForm {
		return travelForm{Action: "/entity", User: user, Name: name, T: t, Reset: href("/entity", user, "name", name)}
	},
	"actForm": func(f factView, action, label, class string) actForm {
		return actForm{ID: f.ID, User: f.User, Action: action, Label: label, Class: class}
	},
	"day":     dayOf,
	"maxBars": func() int { return maxBars },
	// The first and last days a date input offers: the store's range.
	"minDay": func() string { return fmt.Sprintf("%04d-01-01", eventtime.MinYear) },
	"maxDay": func() string { return fmt.Sprintf("%04d-12-31", eventtime.MaxYear) },
	"id":     func(id uint64) string { return "#" + itoa(id) },
	"idq":    itoa,
	"short":  short,
	"add":    func(a, b int) int { return a + b },
	"origin": func(o memory.Origin) string {
		if o == memory.OriginAuto {
			return "automation"
		}
		return "user"
	},
}

func itoa(id uint64) string { return strconv.FormatUint(id, 10) }

// travelForm is what the time-travel form needs.
type travelForm struct {
	Action, User, Reset string
	Name                string // the entity of /entity
	Fact                uint64
	T                   travel
	ShowAll             bool
	Zoom                bool   // offer the period of the event axis
	From, To            string // its days, "" for none
}

// actForm is one button that changes a fact.
type actForm struct {
	ID                         uint64
	User, Action, Label, Class string
}

func fact0(id uint64) string {
	if id == 0 {
		return ""
	}
	return itoa(id)
}

// stampAny is stamp for a time or a pointer to one (nil: unset).
func stampAny(v any) string {
	switch t := v.(type) {
	case time.Time:
		return stamp(t)
	case *time.Time:
		if t == nil {
			return "—"
		}
		return stamp(*t)
	}
	return ""
}

// stamp shows a time to the minute in UTC; "—" when unset.
func stamp(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	t = t.UTC()
	if t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 {
		return t.Format("2006-01-02")
	}
	return t.Format("2006-01-02 15:04")
}

func dayOf(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02")
}

// page is what every page's template gets.
type page struct {
	Title string
	Nav   string // which tab is lit
	User  string
	Users []string
	Now   time.Time
	Done  string // what the last change did, for the notice at the top
	// OpenConflicts is how many conflicts of the user are open, for the nav.
	OpenConflicts int
	Data          any
}

func (h *Handler) newPage(ctx context.Context, r *http.Request, title, nav string, data any) page {
	p := page{Title: title, Nav: nav, User: userOf(r), Now: h.o.Clock(), Data: data, Done: doneText[r.URL.Query().Get("done")]}
	p.Users, _ = h.s.Users(ctx) // the picker only; a failure shows none
	p.OpenConflicts = h.openCount(ctx, p.User)
	if p.User != "" && !slices.Contains(p.Users, p.User) {
		p.Users = append(p.Users, p.User)
	}
	return p
}

// doneText are the notices a change leaves for the page it returns to; a
// code, not text in the address, so that no link can make the page say
// something of its own.
var doneText = map[string]string{
	"added":    "Fact added.",
	"pin":      "Pinned: automation will not change it.",
	"unpin":    "Unpinned.",
	"retract":  "Retracted: kept as history, no longer in answers.",
	"restore":  "Restored: current again.",
	"deleted":  "Deleted for good.",
	"undone":   "Decision undone.",
	"new":      "Resolved: the new fact replaces the existing one.",
	"existing": "Resolved: the existing fact stays, the new one is retracted.",
	"both":     "Resolved: both stay current.",
}

// render writes a page whole, or an error page if it cannot be made.
func (h *Handler) render(w http.ResponseWriter, code int, name string, p page) {
	var buf bytes.Buffer
	if err := h.pages[name].t.ExecuteTemplate(&buf, "layout.html", p); err != nil {
		http.Error(w, "inspector: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(code)
	buf.WriteTo(w)
}

// fail shows an error page; the message is text, escaped like any other.
func (h *Handler) fail(w http.ResponseWriter, r *http.Request, code int, msg string) {
	p := page{Title: http.StatusText(code), User: userOf0(r), Now: h.o.Clock(), Data: struct {
		Code int
		Msg  string
	}{code, strings.TrimSpace(msg)}}
	h.render(w, code, "error", p)
}

// userOf0 reads the user without parsing a body: an error page may come
// before the form is read, or for a request whose body is bad.
func userOf0(r *http.Request) string { return r.URL.Query().Get("user") }
