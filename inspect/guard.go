package inspect

import (
	"crypto/subtle"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// cookiePrefix names the cookie that holds the token after the first visit,
// so that links and forms need not carry it; the port follows it.
const cookiePrefix = "palimpsest_inspect_"

// cookieName is the token's cookie for the port r came to (as notebook
// servers do): browsers keep and send cookies by host, whatever the port, so
// one name would let two inspectors on a machine overwrite each other's
// token. A Host without a port (or with one that is not a number) means the
// scheme's default.
func cookieName(r *http.Request) string {
	port := "80"
	if r.TLS != nil {
		port = "443"
	}
	if _, p, err := net.SplitHostPort(r.Host); err == nil {
		if n, err := strconv.ParseUint(p, 10, 16); err == nil {
			port = strconv.FormatUint(n, 10)
		}
	}
	return cookiePrefix + port
}

// guard refuses, before anything else reads the request, a Host that is not
// a loopback name or one of Options.Hosts — a page of another site whose
// name was rebound to 127.0.0.1 (DNS rebinding) sends its own name — and,
// with a token set, a request that carries neither it nor its cookie (but
// for the stylesheet).
func (h *Handler) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !HostAllowed(r.Host, h.o.Hosts) {
			h.fail(w, r, http.StatusMisdirectedRequest, "Refused: this inspector answers only to a loopback host name (localhost, 127.0.0.1, [::1]).")
			return
		}
		if h.o.Token == "" || isStylesheet(r) {
			next.ServeHTTP(w, r)
			return
		}
		if q := r.URL.Query(); q.Has("token") {
			if !sameToken(q.Get("token"), h.o.Token) {
				h.fail(w, r, http.StatusForbidden, "Refused: wrong token. Open the address memctl printed.")
				return
			}
			http.SetCookie(w, &http.Cookie{Name: cookieName(r), Value: h.o.Token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
			if r.Method == http.MethodGet || r.Method == http.MethodHead {
				// The token leaves the address bar and the history at once.
				q.Del("token")
				// One leading slash: "//evil.example/" (or "/\evil…",
				// which browsers read alike) would send the visitor away.
				u := url.URL{Path: "/" + strings.TrimLeft(r.URL.Path, "/\\"), RawQuery: q.Encode()}
				redirect(w, r, u.String())
				return
			}
			next.ServeHTTP(w, r)
			return
		}
		if c, err := r.Cookie(cookieName(r)); err == nil && sameToken(c.Value, h.o.Token) {
			next.ServeHTTP(w, r)
			return
		}
		h.fail(w, r, http.StatusForbidden, "Refused: no token. Open the address memctl printed (it ends in ?token=…).")
	})
}

// isStylesheet reports whether r asks for the stylesheet, which the token
// does not guard: it holds nothing of the store, and the refusal page
// without a token needs it as much as any other.
func isStylesheet(r *http.Request) bool {
	return (r.Method == http.MethodGet || r.Method == http.MethodHead) && r.URL.Path == "/style.css"
}

func sameToken(got, want string) bool {
	return subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}

// HostAllowed says whether hostport, a request's Host (with or without a
// port), names this machine's loopback interface or one of hosts: the
// check the Handler makes against DNS rebinding (with Options.Hosts), for
// a server beside it to make the same.
func HostAllowed(hostport string, hosts []string) bool {
	host := hostport
	if hh, _, err := net.SplitHostPort(hostport); err == nil {
		host = hh
	}
	host = strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
	if host == "" {
		return false
	}
	if IsLoopbackName(host) {
		return true
	}
	for _, a := range hosts {
		if strings.EqualFold(strings.Trim(a, "[]"), host) {
			return true
		}
	}
	return false
}

// IsLoopbackName says whether host (without a port) names the loopback
// interface: localhost, a name under .localhost (RFC 6761 keeps them on
// this machine), or a loopback IP address.
func IsLoopbackName(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
