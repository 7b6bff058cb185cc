package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// What memctl prints comes in good part from outside it: facts' texts and
// reasons from the store or an import file, a model's reasoning, a
// provider's error. A terminal acts on some characters instead of showing
// them (ESC starts a sequence that can set the title, write the clipboard
// with OSC 52, or hide what follows), so none reaches the terminal as it is.

// printable returns s with every character a terminal would act on rather
// than show replaced by a visible escape: the C0 and C1 control characters
// and DEL, the bidirectional embeddings, overrides and isolates (U+202A to
// U+202E, U+2066 to U+2069), which reorder what follows them on screen, and
// each byte that is not UTF-8 (a lone 0x9b is CSI to an 8-bit terminal).
// With multiline, newline and tab are kept: a field of several lines, or
// memctl's own rows. A character becomes \u001b, a byte \x9b: the first is
// how JSON writes that character, so JSON output stays the same data.
func printable(s string, multiline bool) string {
	i := 0
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if unsafeRune(r, n, multiline) {
			break
		}
		i += n
	}
	if i == len(s) {
		return s // the common case: nothing to escape
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case unsafeRune(r, n, multiline):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// unsafeRune reports whether r, decoded from n bytes, must not reach a
// terminal as it is.
func unsafeRune(r rune, n int, multiline bool) bool {
	switch {
	case r == utf8.RuneError && n == 1:
		return true
	case r == '\n' || r == '\t':
		return !multiline
	case unicode.IsControl(r): // C0, DEL, C1
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// printableWriter passes everything written to it through printable, with
// newlines and tabs kept: memctl's stdout and stderr, so that no path of
// output is left out, cobra's messages and JSON included. A character
// split across two writes (a buffered export cuts anywhere) is held until
// its end arrives; flush writes what is still held.
type printableWriter struct {
	mu      sync.Mutex // wait notices write from timers
	w       io.Writer
	pending []byte // the start of a character the next write may end
}

func (p *printableWriter) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	data := b
	if len(p.pending) > 0 {
		data = append(p.pending, b...)
		p.pending = nil
	}
	if cut := len(data) - partialTail(data); cut < len(data) {
		p.pending = append([]byte(nil), data[cut:]...)
		data = data[:cut]
	}
	if _, err := io.WriteString(p.w, printable(string(data), true)); err != nil {
		return 0, err
	}
	return len(b), nil
}

// flush writes a held partial character, which no write completed, as the
// bytes it is.
func (p *printableWriter) flush() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.pending) == 0 {
		return nil
	}
	s := printable(string(p.pending), true)
	p.pending = nil
	_, err := io.WriteString(p.w, s)
	return err
}

// partialTail is the length of the start of a UTF-8 character that b ends
// with and does not complete; 0 when b ends whole (or with a byte that
// begins no character, which printable escapes).
func partialTail(b []byte) int {
	for k := 1; k < utf8.UTFMax && k <= len(b); k++ {
		c := b[len(b)-k]
		if c&0xc0 == 0x80 {
			continue // a continuation byte: its start is further back
		}
		if c >= 0xc0 && !utf8.FullRune(b[len(b)-k:]) {
			return k
		}
		return 0
	}
	return 0
}
