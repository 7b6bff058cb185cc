package memory_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const modulePath = "github.com/palimpsest-mem/memory"

// An arrow rule constrains the module's non-test imports. A rule with only
// set says which importers may import the packages of to; one without says which of the module's packages the packages of from may import
// (packages outside the module are not its concern). Paths inside the module
// are written relative to it ("." is package memory); a path ending in
// "/..." stands for that path and everything under it.
type arrowRule struct {
	why  string
	from []string
	to   []string
	only bool // true: only from may import to; false: from imports of the module nothing but to
}

// The allowed arrows. Each rule says why it holds; the package docs of kv,
// index, reconcile and claims point here.
var arrowRules = []arrowRule{
	{why: "kv owns the file format: one package knows bbolt, so a change of store touches one package",
		only: true, from: []string{"kv"}, to: []string{"go.etcd.io/bbolt/..."}},
	{why: "kv/jetstream owns the cluster backend: one package knows NATS, so the rest of the module runs without a cluster's code",
		only: true, from: []string{"kv/jetstream"}, to: []string{"github.com/nats-io/..."}},
	{why: "kv/jetstream implements kv.Backend and knows nothing above it: of the module it imports kv and internal helpers, never package memory",
		from: []string{"kv/jetstream"}, to: []string{"kv", "internal/..."}},
	{why: "index owns the derived index: one package knows bleve (internal/indextest reads its segment files for tests)",
		only: true, from: []string{"index", "internal/indextest"}, to: []string{"github.com/blevesearch/..."}},
	{why: "reconcile judges texts: it must not reach the store or the index, nor package memory, which depends on it",
		from: []string{"reconcile"}, to: []string{"claims", "eventtime", "internal/..."}},
	{why: "kv stores what package memory hands it and knows nothing of the rest; it shares only the rename of internal/fsx",
		from: []string{"kv"}, to: []string{"internal/fsx"}},
	{why: "index is derived from what package memory feeds it: it shares internal helpers, nothing else",
		from: []string{"index"}, to: []string{"internal/..."}},
	{why: "index/live keeps the index in line with the store through what package memory hands it: it drives index, never the store (kv) nor package memory, which depends on it",
		from: []string{"index/live"}, to: []string{"index", "internal/..."}},
	{why: "claims is a leaf, so package memory and reconcile both depend on it without a cycle",
		from: []string{"claims"}, to: []string{"internal/..."}},
	{why: "memctl is a client of the public API: it may use package memory, eventtime's range, its front-ends, the cluster and its decider settings",
		from: []string{"cmd/..."}, to: []string{".", "eventtime", "inspect", "mcpserver", "cluster", "internal/modelenv"}},
	{why: "cluster is the public way to a NATS cluster: package memory on kv/jetstream, nothing else, so a program of the file alone links no NATS",
		from: []string{"cluster"}, to: []string{".", "kv", "kv/jetstream"}},
	{why: "inspect and mcpserver are front-ends on the public API alone",
		from: []string{"inspect", "mcpserver"}, to: []string{".", "eventtime"}},
	{why: "commands and the bench are programs, not libraries",
		only: true, from: nil, to: []string{"cmd/...", "bench/..."}},
}

// rel names an import path relative to the module, or returns it as is with
// false when it lies outside.
func rel(p string) (string, bool) {
	if p == modulePath {
		return ".", true
	}
	if r, ok := strings.CutPrefix(p, modulePath+"/"); ok {
		return r, true
	}
	return p, false
}

func matchAny(patterns []string, p string) bool {
	for _, pat := range patterns {
		if base, ok := strings.CutSuffix(pat, "/..."); ok {
			if p == base || strings.HasPrefix(p, base+"/") {
				return true
			}
		} else if p == pat {
			return true
		}
	}
	return false
}

// checkArrows returns one line per import that breaks a rule. imports maps
// each package (full path) to its non-test imports (full paths).
func checkArrows(rules []arrowRule, imports map[string][]string) []string {
	var bad []string
	for _, pkg := range slices.Sorted(maps.Keys(imports)) {
		from, _ := rel(pkg)
		for _, imp := range imports[pkg] {
			to, inModule := rel(imp)
			for _, r := range rules {
				switch {
				case r.only && matchAny(r.to, to) && !matchAny(r.from, from):
					bad = append(bad, fmt.Sprintf("%s imports %s: %s", from, to, r.why))
				case !r.only && inModule && matchAny(r.from, from) && !matchAny(r.to, to):
					bad = append(bad, fmt.Sprintf("%s imports %s: %s", from, to, r.why))
				}
			}
		}
	}
	return bad
}

// moduleImports lists the non-test imports of every package of the module,
// as the go command sees them.
func moduleImports(t *testing.T) map[string][]string {
	t.Helper()
	out, err := exec.Command("go", "list", "-json", "./...").Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("go list: %v\n%s", err, ee.Stderr)
		}
		t.Fatalf("go list: %v", err)
	}
	imports := map[string][]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct {
			ImportPath string
			Imports    []string
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		imports[p.ImportPath] = p.Imports
	}
	return imports
}

func TestImportArrows(t *testing.T) {
	imports := moduleImports(t)
	// The list must hold the packages the rules are about, or the rules
	// would hold of nothing.
	for _, p := range []string{"", "/kv", "/kv/jetstream", "/index", "/index/live", "/reconcile", "/cmd/memctl", "/inspect", "/mcpserver"} {
		if _, ok := imports[modulePath+p]; !ok {
			t.Fatalf("go list did not list %s%s", modulePath, p)
		}
	}
	for _, b := range checkArrows(arrowRules, imports) {
		t.Error(b)
	}
}

// The checker itself: a clean set passes, and each kind of forbidden arrow
// is caught.
func TestCheckArrowsCatches(t *testing.T) {
	m := func(p string) string { return modulePath + p }
	clean := map[string][]string{
		m(""):              {m("/kv"), m("/index"), m("/reconcile"), m("/claims")},
		m("/kv"):           {"go.etcd.io/bbolt", "go.etcd.io/bbolt/errors", m("/internal/fsx")},
		m("/kv/jetstream"): {m("/kv"), "github.com/nats-io/nats.go", "github.com/nats-io/nats-server/v2/server"},
		m("/index"):        {"github.com/blevesearch/bleve/v2", m("/internal/term")},
		m("/index/live"):   {m("/index")},
		m("/reconcile"):    {"github.com/ollama/ollama/api", m("/claims"), m("/eventtime"), m("/internal/clip")},
		m("/cmd/memctl"): {m(""), m("/eventtime"), m("/inspect"), m("/mcpserver"), m("/internal/modelenv"),
			"github.com/spf13/cobra"},
		m("/inspect"): {m(""), "net/http"},
	}
	if bad := checkArrows(arrowRules, clean); len(bad) != 0 {
		t.Fatalf("clean set refused: %q", bad)
	}
	for _, c := range []struct{ pkg, imp string }{
		{"", "go.etcd.io/bbolt"},                           // bbolt outside kv
		{"/reconcile", "github.com/blevesearch/bleve/v2"},  // bleve outside index
		{"/reconcile", ""},                                 // reconcile on package memory
		{"/reconcile", "/kv"},                              // reconcile on the store
		{"/kv", "/claims"},                                 // kv on the module
		{"/kv/jetstream", ""},                              // the cluster backend on package memory
		{"/kv", "github.com/nats-io/nats.go"},              // NATS outside kv/jetstream
		{"/index", "/kv"},                                  // index on the store
		{"/index/live", "/kv"},                             // the live index on the store
		{"/index/live", ""},                                // the live index on package memory
		{"/index/live", "github.com/blevesearch/bleve/v2"}, // the live index past package index
		{"/claims", "/eventtime"},                          // claims off its leaf
		{"/cmd/memctl", "/kv"},                             // memctl past the public API
		{"/mcpserver", "/internal/clip"},                   // a front-end on an internal package
		{"", "/cmd/memctl"},                                // a program imported
		{"", "/bench"},
	} {
		imp := c.imp
		if imp == "" || strings.HasPrefix(imp, "/") {
			imp = m(imp)
		}
		set := map[string][]string{}
		for k, v := range clean {
			set[k] = slices.Clone(v)
		}
		set[m(c.pkg)] = append(set[m(c.pkg)], imp)
		if bad := checkArrows(arrowRules, set); len(bad) != 1 {
			t.Errorf("%s importing %s: got %q, want one refusal", m(c.pkg), imp, bad)
		}
	}
}
