package main

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"
)

// hostile holds what a terminal acts on: OSC 52 (write the clipboard),
// BEL, NUL, a C1 CSI, DEL, a carriage return and a right-to-left override.
const hostile = "\x1b]52;c;SGVsbG8=\x07 got \x00 \u009b31m red\x7f\r\u202eevil"

func TestPrintable(t *testing.T) {
	for _, tc := range []struct {
		in, one, multi string
	}{
		{"I work at Contoso.", "I work at Contoso.", "I work at Contoso."},
		{"Я живу в Мюнхене.", "Я живу в Мюнхене.", "Я живу в Мюнхене."},
		{"a\nb\tc", `a\u000ab\u0009c`, "a\nb\tc"},
		{"\x1b]52;c;SGVsbG8=\x07", `\u001b]52;c;SGVsbG8=\u0007`, `\u001b]52;c;SGVsbG8=\u0007`},
		{"nul\x00", `nul\u0000`, `nul\u0000`},
		{"del\x7f", `del\u007f`, `del\u007f`},
		{"c1\u009b31m", `c1\u009b31m`, `c1\u009b31m`},
		{"cr\r", `cr\u000d`, `cr\u000d`},
		{"\u202eevil\u202c", `\u202eevil\u202c`, `\u202eevil\u202c`},
		{"\u2066iso\u2069", `\u2066iso\u2069`, `\u2066iso\u2069`},
		{"bad\x9bbyte\xff", `bad\x9bbyte\xff`, `bad\x9bbyte\xff`},
		{"\u200dzwj and \u00e9", "\u200dzwj and \u00e9", "\u200dzwj and \u00e9"}, // shown, not acted on
	} {
		if got := printable(tc.in, false); got != tc.one {
			t.Errorf("printable(%q, false) = %q, want %q", tc.in, got, tc.one)
		}
		if got := printable(tc.in, true); got != tc.multi {
			t.Errorf("printable(%q, true) = %q, want %q", tc.in, got, tc.multi)
		}
	}
}

// The escape of a character is JSON's own, so JSON passed through the
// writer decodes to the same value.
func TestPrintableKeepsJSON(t *testing.T) {
	var raw, safe bytes.Buffer
	if err := json.NewEncoder(&raw).Encode(map[string]string{"reason": hostile}); err != nil {
		t.Fatal(err)
	}
	w := &printableWriter{w: &safe}
	w.Write(raw.Bytes())
	w.flush()
	clean(t, "json", safe.String())
	var back map[string]string
	if err := json.Unmarshal(safe.Bytes(), &back); err != nil || back["reason"] != hostile {
		t.Errorf("decoded %q (%v), want %q", back["reason"], err, hostile)
	}
}

// A character split across writes passes whole; a byte that begins none,
// or a start no write completes, is escaped.
func TestPrintableWriterSplits(t *testing.T) {
	in := "Я живу в Мюнхене 🏠 " + hostile + " bad\xe2\x82 end\xe2"
	want := printable(in, true)
	for size := 1; size <= 5; size++ {
		var out bytes.Buffer
		w := &printableWriter{w: &out}
		for b := []byte(in); len(b) > 0; {
			n := min(size, len(b))
			if k, err := w.Write(b[:n]); k != n || err != nil {
				t.Fatalf("Write = %d, %v", k, err)
			}
			b = b[n:]
		}
		w.flush()
		if out.String() != want {
			t.Errorf("writes of %d bytes gave %q, want %q", size, out.String(), want)
		}
	}
}

func FuzzPrintable(f *testing.F) {
	for _, s := range []string{"", "plain", hostile, "a\nb\tc", "\xff\xe2\x82", "Мюнхен\u202e"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, s string, multiline bool) {
		got := printable(s, multiline)
		if !utf8.ValidString(got) {
			t.Fatalf("printable(%q) = %q, not UTF-8", s, got)
		}
		if i := firstUnsafe(got, multiline); i >= 0 {
			t.Fatalf("printable(%q) = %q keeps what a terminal acts on at byte %d", s, got, i)
		}
		if again := printable(got, multiline); again != got {
			t.Fatalf("printable is not idempotent on %q: %q then %q", s, got, again)
		}
		if firstUnsafe(s, multiline) < 0 && got != s {
			t.Fatalf("printable changed %q, which needs no escape, to %q", s, got)
		}
	})
}

// clean fails the test if out holds anything a terminal would act on:
// a control character other than newline and tab, DEL, C1, a bidi
// override, or a byte that is not UTF-8.
func clean(t *testing.T, what, out string) {
	t.Helper()
	if i := firstUnsafe(out, true); i >= 0 {
		t.Errorf("%s holds %q at byte %d: %q", what, out[i:min(i+4, len(out))], i, out)
	}
}

// firstUnsafe is the offset of the first byte printable would escape, or -1.
func firstUnsafe(s string, multiline bool) int {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if unsafeRune(r, n, multiline) {
			return i
		}
		i += n
	}
	return -1
}
