package inspect

import (
	"embed"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/palimpsest-mem/memory"
)

//go:embed templates/*.html templates/*.css
var assets embed.FS

// DefaultPageSize is how many rows a list shows per page.
const DefaultPageSize = 50

// MaxFormBytes bounds the body of a change's form: the pages send a few
// kilobytes at most (a fact's text is 600 runes).
const MaxFormBytes = 64 << 10

// Options configure a Handler; nil means the defaults.
type Options struct {
	// Token, when set, must come with the first request as ?token=…; the
	// handler then keeps it in an HttpOnly, SameSite=Strict cookie named
	// after the port of the request's Host (palimpsest_inspect_7711), as
	// notebook servers do, so that another local program or web page cannot
	// read the store and two inspectors on one machine keep their own.
	// Browsers still send the cookie to the host's other ports: the token
	// keeps out those that do not have it, not a local server it reaches.
	Token string
	// Hosts are Host names accepted besides the loopback ones (localhost,
	// *.localhost, 127.0.0.0/8, ::1), for a server told to bind elsewhere.
	Hosts []string
	// Clock is "now" for the pages (upcoming facts, the timeline's edge);
	// nil means time.Now.
	Clock func() time.Time
	// PageSize is the rows per page of a list; 0 means DefaultPageSize.
	PageSize int
}

// Handler serves the inspector's pages for one store.
type Handler struct {
	s     *memory.Store
	o     Options
	pages map[string]*pageTemplate
	h     http.Handler
}

// New returns the inspector of s.
func New(s *memory.Store, opts *Options) (*Handler, error) {
	if s == nil {
		return nil, errors.New("inspect: nil store")
	}
	h := &Handler{s: s}
	if opts != nil {
		h.o = *opts
	}
	if h.o.Clock == nil {
		h.o.Clock = time.Now
	}
	if h.o.PageSize <= 0 {
		h.o.PageSize = DefaultPageSize
	}
	var err error
	if h.pages, err = parsePages(); err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", h.facts)
	mux.HandleFunc("POST /facts", h.add)
	mux.HandleFunc("GET /facts/{id}", h.fact)
	mux.HandleFunc("POST /facts/{id}/{action}", h.act)
	mux.HandleFunc("GET /facts/{id}/delete", h.confirmDelete)
	mux.HandleFunc("GET /facts/{id}/why", h.why)
	mux.HandleFunc("GET /timeline", h.timeline)
	mux.HandleFunc("GET /decisions", h.decisions)
	mux.HandleFunc("POST /decisions/{id}/undo", h.undo)
	mux.HandleFunc("GET /conflicts", h.conflicts)
	mux.HandleFunc("POST /conflicts/{id}/resolve", h.resolve)
	mux.HandleFunc("GET /entities", h.entities)
	mux.HandleFunc("GET /entity", h.entity)
	mux.HandleFunc("GET /search", h.search)
	mux.HandleFunc("GET /style.css", h.style)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		h.fail(w, r, http.StatusNotFound, "No such page.")
	})
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.fail(w, r, http.StatusForbidden, "Refused: a change asked for by another site.")
	}))
	h.h = h.guard(cop.Handler(securityHeaders(h.readForm(h.checkUser(mux)))))
	return h, nil
}

// ServeHTTP serves one request after the guards.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.h.ServeHTTP(w, r) }

// securityHeaders forbid scripts, framing by other sites and sniffing: no
// page needs a script, so an injected one could not run even if escaping
// failed.
func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Content-Security-Policy", "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'self'; base-uri 'none'")
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Referrer-Policy", "no-referrer")
		hd.Set("Cache-Control", "no-store")
		next.ServeHTTP(w, r)
	})
}

// readForm parses a change's form once, before anything reads it, and
// refuses one that is not the urlencoded form the pages send or does not
// parse: Request.PostFormValue would swallow the error and act on the part
// read, or on an empty form, as the default user.
func (h *Handler) readForm(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/x-www-form-urlencoded" {
			h.fail(w, r, http.StatusUnsupportedMediaType, "Refused: a change must come as the form the page sends (application/x-www-form-urlencoded).")
			return
		}
		// The pages' forms are a few kilobytes; a body past the bound is
		// cut where it crosses it, not read to its end.
		r.Body = http.MaxBytesReader(w, r.Body, MaxFormBytes)
		if err := r.ParseForm(); err != nil {
			if tooBig := new(http.MaxBytesError); errors.As(err, &tooBig) {
				h.fail(w, r, http.StatusRequestEntityTooLarge, fmt.Sprintf("Refused: a form of more than %d bytes.", MaxFormBytes))
				return
			}
			h.fail(w, r, http.StatusBadRequest, "Bad form: "+err.Error())
			return
		}
		next.ServeHTTP(w, r)
	})
}

// checkUser refuses a user name no store can hold before any page reads
// with it: reads of such a name would show an empty store, not an error.
func (h *Handler) checkUser(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for _, u := range []string{r.URL.Query().Get("user"), userOf(r)} {
			if err := memory.ValidUser(u); err != nil {
				h.fail(w, r, http.StatusBadRequest, err.Error())
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

func (h *Handler) style(w http.ResponseWriter, r *http.Request) {
	b, err := assets.ReadFile("templates/style.css")
	if err != nil {
		h.fail(w, r, http.StatusInternalServerError, err.Error())
		return
	}
	w.Header().Set("Content-Type", "text/css; charset=utf-8")
	w.Write(b)
}

// userOf is the user a request is about: ?user= or the form's user field.
func userOf(r *http.Request) string {
	if r.Method == http.MethodPost {
		return r.PostForm.Get("user") // parsed by readForm
	}
	return r.URL.Query().Get("user")
}

// idOf parses the {id} of the path; 0 with ok false when it is not one.
func idOf(r *http.Request) (uint64, bool) {
	id, err := strconv.ParseUint(r.PathValue("id"), 10, 64)
	return id, err == nil && id > 0
}

// postTarget reads a change's {id} and user, answering 400 itself when the
// id is bad; what names the kind of id for the message. readForm has parsed
// the form.
func (h *Handler) postTarget(w http.ResponseWriter, r *http.Request, what string) (uint64, string, bool) {
	id, ok := idOf(r)
	if !ok {
		h.fail(w, r, http.StatusBadRequest, fmt.Sprintf("%q is not a %s id.", r.PathValue("id"), what))
		return 0, "", false
	}
	return id, r.PostForm.Get("user"), true
}

// href builds a link within the inspector that keeps the user.
func href(path, user string, kv ...string) string {
	q := url.Values{}
	if user != "" {
		q.Set("user", user)
	}
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] != "" {
			q.Set(kv[i], kv[i+1])
		}
	}
	if len(q) == 0 {
		return path
	}
	return path + "?" + q.Encode()
}

// redirect answers a change with 303 See Other, so that reloading the page
// does not repeat it.
func redirect(w http.ResponseWriter, r *http.Request, to string) {
	http.Redirect(w, r, to, http.StatusSeeOther)
}

// errBadInput marks a request the inspector cannot read (a bad page
// number); it answers 400.
var errBadInput = errors.New("bad input")

// status maps the store's errors onto HTTP.
func status(err error) int {
	switch {
	case errors.Is(err, memory.ErrNotFound):
		return http.StatusNotFound
	case errors.Is(err, memory.ErrReadOnly), errors.Is(err, memory.ErrStale):
		return http.StatusForbidden
	case errors.Is(err, errBadInput), errors.Is(err, memory.ErrEmpty), errors.Is(err, memory.ErrTooLong), errors.Is(err, memory.ErrInvalidUTF8),
		errors.Is(err, memory.ErrControlChar), errors.Is(err, memory.ErrInvalidUser), errors.Is(err, memory.ErrInvalidInterval),
		errors.Is(err, memory.ErrInvalidTime), errors.Is(err, memory.ErrInvalidClaim):
		return http.StatusBadRequest
	case errors.Is(err, memory.ErrPinned), errors.Is(err, memory.ErrNotCurrent), errors.Is(err, memory.ErrAlreadyCurrent),
		errors.Is(err, memory.ErrAlreadyUndone), errors.Is(err, memory.ErrUndoStale), errors.Is(err, memory.ErrResolved),
		errors.Is(err, memory.ErrMoot), errors.Is(err, memory.ErrSupersessionCycle), errors.Is(err, memory.ErrTimeOrder), errors.Is(err, memory.ErrBudgetExceeded):
		return http.StatusConflict
	}
	return http.StatusInternalServerError
}

// failErr shows err on an error page with the status it maps to.
func (h *Handler) failErr(w http.ResponseWriter, r *http.Request, err error) {
	h.fail(w, r, status(err), fmt.Sprint(err))
}
