package main

import (
	"fmt"
	"strings"
	"testing"
)

// pinnedConflict makes a store where remember added fact 2 beside the
// pinned fact 1, in conflict 1.
func pinnedConflict(t *testing.T) string {
	t.Helper()
	db := tempDB(t)
	ok(t, "--db", db, "--now", "2026-03-10", "add", "My name is Maria Keller.", "--pin")
	d, _ := outcome(t, ok(t, "--db", db, "--now", "2026-03-11", "--json", "remember", "My name is Maria Schmidt now."))
	if num(d["conflict"]) != 1 || num(d["added"]) != 2 {
		t.Fatalf("test is void: remember over a pinned fact recorded no conflict: %v", d)
	}
	return db
}

// remember names the fact it stored first, then each conflict with the
// other fact's id and text and the command that settles it; it no longer
// prints "action: add fact 1: My name is Maria Keller.", which reads as if
// fact 1 were the one added.
func TestRememberNamesNewFactThenConflict(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	ok(t, "--db", db, "--now", "2026-03-10", "add", "My name is Maria Keller.", "--pin")
	out := ok(t, "--db", db, "--now", "2026-03-11", "remember", "My name is Maria Schmidt now.")
	action := lineOf(out, "action:")
	if strings.Contains(action, "Keller") || strings.Contains(action, "fact 1") {
		t.Errorf("the action line names the fact it did not add: %q", action)
	}
	fact, conflict := strings.Index(out, "fact:      2 (current): My name is Maria Schmidt now.\n"),
		strings.Index(out, "conflict:  1: fact 2 may replace fact 1 (current): My name is Maria Keller.\n")
	settle := strings.Index(out, "settle:    memctl resolve 1 new (fact 2 replaces fact 1), existing (fact 2 is retracted) or both (both stay)\n")
	if fact < 0 || conflict < fact || settle < conflict {
		t.Errorf("remember does not name the new fact, then the conflict, then how to settle it:\n%s", out)
	}
	// The command names the user it was run for.
	ok(t, "--db", db, "--user", "o'neil", "add", "My name is Pat O'Neil.", "--pin")
	out = ok(t, "--db", db, "--user", "o'neil", "remember", "My name is Pat Smith now.")
	// Ids are each user's: o'neil's conflict is the user's first.
	if want := `memctl --user 'o'\''neil' resolve 1 new`; !strings.Contains(out, want) {
		t.Errorf("remember for another user:\n%s\nwant %q", out, want)
	}
}

// conflicts shows both facts, their ids, texts and states, and the command
// that settles each open conflict; --json gives both facts as fact objects.
func TestConflictsShowBothFacts(t *testing.T) {
	t.Parallel()
	db := pinnedConflict(t)
	out := ok(t, "--db", db, "conflicts")
	for _, want := range []string{
		"conflict 1: open, raised 2026-03-11 by decision 1\n",
		"  new:      fact 2 (current): My name is Maria Schmidt now.\n",
		"  existing: fact 1 (current): My name is Maria Keller.\n",
		"  settle:   memctl resolve 1 new (fact 2 replaces fact 1), existing (fact 2 is retracted) or both (both stay)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("conflicts:\n%s\nwant the line %q", out, want)
		}
	}
	cs := decode[[]map[string]any](t, ok(t, "--db", db, "--json", "conflicts"))
	if len(cs) != 1 {
		t.Fatalf("conflicts --json = %v", cs)
	}
	nf, _ := cs[0]["new_fact"].(map[string]any)
	ef, _ := cs[0]["existing_fact"].(map[string]any)
	if num(cs[0]["new"]) != 2 || nf["text"] != "My name is Maria Schmidt now." || ef["text"] != "My name is Maria Keller." ||
		nf["state"] != "current" || ef["state"] != "current" {
		t.Errorf("conflicts --json = %v", cs)
	}

	// A settled conflict offers nothing to run; one whose fact changed
	// since by another path says so instead of offering choices.
	ok(t, "--db", db, "--now", "2026-03-12", "resolve", "1", "both")
	if out := ok(t, "--db", db, "conflicts", "--all"); !strings.Contains(out, "conflict 1: kept both on 2026-03-12") ||
		strings.Contains(out, "memctl resolve") {
		t.Errorf("conflicts --all after resolve:\n%s", out)
	}
	db = pinnedConflict(t)
	ok(t, "--db", db, "--now", "2026-03-12", "invalidate", "2")
	if out := ok(t, "--db", db, "conflicts"); out != "no open conflicts\n" &&
		(strings.Contains(out, "memctl resolve") || !strings.Contains(out, "fact 2 (retracted)")) {
		t.Errorf("conflicts with its new fact retracted since:\n%s", out)
	}
}

// resolve says what became of each fact, read back from the store after
// the call; it printed "fact 2 is retracted, fact 1 stays" for a keep
// existing whose fact 2 was superseded already, while get 2 said
// superseded by fact 3.
func TestResolveSaysWhatTheStoreDid(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		before []string // run after the conflict is raised
		keep   string
		want   string
	}{
		{"keep existing", nil, "existing",
			"resolved conflict 1, keeping the existing fact: fact 2 is now retracted; fact 1 stays current\n"},
		{"keep new", []string{"unpin", "1"}, "new",
			"resolved conflict 1, keeping the new fact: fact 1 is now superseded by fact 2; fact 2 stays current\n"},
		{"keep both", nil, "both",
			"resolved conflict 1, keeping both: nothing changed: fact 2 stays current; fact 1 stays current\n"},
		{"keep existing, new fact superseded since", []string{"supersede", "2", "My name is Maria Weber."}, "existing", ""},
		{"keep existing, new fact retracted since", []string{"invalidate", "2"}, "existing", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			db := pinnedConflict(t)
			if tc.before != nil {
				ok(t, append([]string{"--db", db, "--now", "2026-03-12"}, tc.before...)...)
			}
			r := memctl(t, "", "--db", db, "--now", "2026-03-13", "resolve", "1", tc.keep)
			if r.code != 0 {
				// A store that refuses a conflict whose facts changed since
				// says so; then nothing is claimed.
				if tc.want != "" || r.stdout != "" {
					t.Fatalf("resolve: %+v", r)
				}
				return
			}
			if tc.want != "" && r.stdout != tc.want {
				t.Errorf("resolve printed %q, want %q", r.stdout, tc.want)
			}
			// Whatever it says of a fact is what get says of it.
			for id := 1; id <= 3; id++ {
				f := memctl(t, "", "--db", db, "--json", "get", fmt.Sprint(id))
				if f.code != 0 {
					continue
				}
				g := fact(t, f.stdout)
				state := g["state"].(string)
				if by := num(g["superseded_by"]); by != 0 {
					state += fmt.Sprintf(" by fact %d", by)
				}
				said := fmt.Sprintf("fact %d ", id)
				if strings.Contains(r.stdout, said) && !strings.Contains(r.stdout, said+"is now "+state) &&
					!strings.Contains(r.stdout, said+"stays "+state) {
					t.Errorf("resolve printed %q, but fact %d is %s", r.stdout, id, state)
				}
			}
		})
	}
}

// Two current facts that claim two cities, told in two languages by add:
// add names the conflict the store derived and how to settle it,
// conflicts lists it, and once a fact of it is retracted by another path
// it is moot, with the cause, and resolve refuses it.
func TestDerivedConflictShown(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	ok(t, "--db", db, "--now", "2026-03-01", "add", "I live in Berlin.")
	out := ok(t, "--db", db, "--now", "2026-03-02", "add", "Я живу в Мюнхене.")
	for _, want := range []string{
		"added fact 2: Я живу в Мюнхене.\n",
		"conflict: 1: fact 2 contradicts fact 1 (current): I live in Berlin. (two values of lives_in)\n",
		"settle:   memctl resolve 1 new (fact 2 replaces fact 1), existing (fact 2 is retracted) or both (both stay)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("add:\n%s\nwant the line %q", out, want)
		}
	}
	if out := ok(t, "--db", db, "conflicts"); !strings.Contains(out, "conflict 1: open, raised 2026-03-02 from two values of lives_in\n") {
		t.Errorf("conflicts:\n%s", out)
	}
	ok(t, "--db", db, "--now", "2026-03-03", "invalidate", "1")
	if out := ok(t, "--db", db, "conflicts", "--all"); !strings.Contains(out, "conflict 1: moot since 2026-03-03: fact 1 was retracted") ||
		strings.Contains(out, "memctl resolve") {
		t.Errorf("conflicts --all after the retraction:\n%s", out)
	}
	if r := memctl(t, "", "--db", db, "--now", "2026-03-04", "resolve", "1", "existing"); r.code == 0 || !strings.Contains(r.stderr, "moot") {
		t.Errorf("resolve of a moot conflict: %+v", r)
	}
}
