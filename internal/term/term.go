// Package term holds the typed evidence term that the candidate index
// produces and that the root package and the deciders read, so that none of
// them parses marks back out of a string. It owns the marks of the display
// form ("pian…", "≈mother") and nothing else.
package term

import (
	"errors"
	"fmt"
	"strings"
)

// Kind says what a shared term is.
type Kind uint8

const (
	// Word is a word (keywords4) or a stem (stems and later modes) both
	// texts hold.
	Word Kind = iota
	// Root is a stem prefix both texts hold, which joins derived words:
	// "pian" of piano and pianist.
	Root
	// Synonym is a synonym set both texts hold a word of, named by its
	// first word: "mother" for mum and mother.
	Synonym
)

// The marks of the display form. SynonymMark also begins the index term of
// a synonym set, so that a set never meets a stem of the same spelling.
const (
	RootMark    = "…" // ends a root
	SynonymMark = "≈" // begins a synonym set
)

// String is the kind's name: word, root or synonym.
func (k Kind) String() string {
	switch k {
	case Word:
		return "word"
	case Root:
		return "root"
	case Synonym:
		return "synonym"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Term is a term two texts share: the evidence for a candidate.
type Term struct {
	Text string // the word, stem, root or the synonym set's name, unmarked
	Kind Kind
}

// String renders the term as shown to people and scripts: a root ends in
// "…" ("pian…"), a synonym set begins with "≈" ("≈mother"), a word is
// itself.
func (t Term) String() string {
	switch t.Kind {
	case Root:
		return t.Text + RootMark
	case Synonym:
		return SynonymMark + t.Text
	}
	return t.Text
}

// MarshalText is String, so that JSON shows a term as the string people
// see.
func (t Term) MarshalText() ([]byte, error) {
	if t.Text == "" || t.Kind > Synonym {
		return nil, fmt.Errorf("%w: %q of kind %v", ErrBadTerm, t.Text, t.Kind)
	}
	return []byte(t.String()), nil
}

// ErrBadTerm: a term with no text or an unknown kind, or text that is no
// display form of a term.
var ErrBadTerm = errors.New("bad term")

// UnmarshalText reads the display form back, so that a term JSON shows can
// be decoded.
func (t *Term) UnmarshalText(b []byte) error {
	s := string(b)
	out := Term{Text: s}
	if rest, ok := strings.CutPrefix(s, SynonymMark); ok {
		out = Term{Text: rest, Kind: Synonym}
	} else if rest, ok := strings.CutSuffix(s, RootMark); ok {
		out = Term{Text: rest, Kind: Root}
	}
	if out.Text == "" || strings.Contains(out.Text, SynonymMark) || strings.Contains(out.Text, RootMark) {
		return fmt.Errorf("%w: %q", ErrBadTerm, s)
	}
	*t = out
	return nil
}
