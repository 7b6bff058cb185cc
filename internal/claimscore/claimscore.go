// Package claimscore scores claim extraction against a labelled file, for
// the claims package's test and `bench claims` alike, so the two count the
// same way.
package claimscore

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/palimpsest-mem/memory/claims"
)

// Case is one line of a claims file: a fact's text and the claims a person
// would expect of it (none for a fact stating no claim).
type Case struct {
	Text   string         `json:"text"`
	Claims []claims.Claim `json:"claims"`
}

// ErrData marks a malformed claims file.
var ErrData = errors.New("malformed claims file")

// Read reads a claims file: one JSON case a line, blank lines ignored.
// Every labelled claim must pass Validate, and the file must hold a case;
// an error names the line.
func Read(r io.Reader) ([]Case, error) {
	var out []Case
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		if len(sc.Bytes()) == 0 {
			continue
		}
		var c Case
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&c); err != nil {
			return nil, fmt.Errorf("%w: line %d: %w", ErrData, n, err)
		}
		if c.Text == "" {
			return nil, fmt.Errorf("%w: line %d: no text", ErrData, n)
		}
		for _, cl := range c.Claims {
			if err := cl.Validate(); err != nil {
				return nil, fmt.Errorf("%w: line %d: %w", ErrData, n, err)
			}
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: no cases", ErrData)
	}
	return out, nil
}

// Count is the tally of one relation, or of all.
type Count struct {
	Hit       int // extracted claims that match a labelled one
	Extracted int
	Labelled  int
}

// Precision is Hit/Extracted, 1 when nothing was extracted.
func (c Count) Precision() float64 {
	if c.Extracted == 0 {
		return 1
	}
	return float64(c.Hit) / float64(c.Extracted)
}

// Recall is Hit/Labelled, 1 when nothing was labelled.
func (c Count) Recall() float64 {
	if c.Labelled == 0 {
		return 1
	}
	return float64(c.Hit) / float64(c.Labelled)
}

// Result is the score of a file.
type Result struct {
	Cases      int
	All        Count
	ByRelation map[claims.Relation]Count
	Wrong      []string // "text: missed …" and "text: extra …", for reading
	Empty, Ok  int      // cases labelled with no claim, and how many of them got none
}

// Same reports whether extracted claim x matches labelled claim y: the
// same relation, and subject and object equal after claims.Normalize. The
// kind is not compared.
func Same(x, y claims.Claim) bool {
	return x.Relation == y.Relation && claims.Normalize(x.Subject) == claims.Normalize(y.Subject) &&
		claims.Normalize(x.Object) == claims.Normalize(y.Object)
}

// Score runs extract on every case and counts, per relation, the claims
// extracted, labelled, and matched one to one (each labelled claim matches
// at most one extracted claim).
func Score(cases []Case, extract func(string) []claims.Claim) Result {
	res := Result{Cases: len(cases), ByRelation: map[claims.Relation]Count{}}
	for _, c := range cases {
		got := extract(c.Text)
		if len(c.Claims) == 0 {
			res.Empty++
			if len(got) == 0 {
				res.Ok++
			}
		}
		used := make([]bool, len(c.Claims))
		for _, g := range got {
			cnt := res.ByRelation[g.Relation]
			cnt.Extracted++
			i := slices.IndexFunc(c.Claims, func(want claims.Claim) bool { return Same(g, want) })
			for i >= 0 && used[i] {
				j := slices.IndexFunc(c.Claims[i+1:], func(want claims.Claim) bool { return Same(g, want) })
				if j < 0 {
					i = -1
				} else {
					i += 1 + j
				}
			}
			if i >= 0 {
				used[i] = true
				cnt.Hit++
			} else {
				res.Wrong = append(res.Wrong, fmt.Sprintf("%s\n\textra  %s", c.Text, show(g)))
			}
			res.ByRelation[g.Relation] = cnt
		}
		for i, want := range c.Claims {
			cnt := res.ByRelation[want.Relation]
			cnt.Labelled++
			res.ByRelation[want.Relation] = cnt
			if !used[i] {
				res.Wrong = append(res.Wrong, fmt.Sprintf("%s\n\tmissed %s", c.Text, show(want)))
			}
		}
	}
	for _, cnt := range res.ByRelation {
		res.All.Hit += cnt.Hit
		res.All.Extracted += cnt.Extracted
		res.All.Labelled += cnt.Labelled
	}
	return res
}

func show(c claims.Claim) string {
	s := c.Subject
	if s == "" {
		s = "user"
	}
	return fmt.Sprintf("(%s, %s, %q)", s, c.Relation, c.Object)
}
