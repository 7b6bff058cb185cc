package inspect

import (
	"strings"
	"unicode"
)

// The server draws its SVG without a browser to measure text, so labels
// are placed and cut by the advances of the widest face the stylesheet
// may end in. Both diagrams (the lane timeline, the entity graph) use
// these; the browser tests measure the real font against them.

// asciiEm are the advances of the printable ASCII runes, from the space
// on, in thousandths of an em: those of DejaVu Sans, the widest of the
// faces the stylesheet names and the one Chromium falls back to on Linux.
var asciiEm = [95]uint16{
	318, 401, 460, 837, 636, 949, 779, 275, 390, 390, 500, 837, 318, 361, 318, 337,
	636, 636, 636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 837, 837, 837, 530,
	999, 710, 686, 698, 769, 631, 575, 774, 751, 295, 295, 655, 557, 862, 747, 787,
	603, 787, 694, 634, 594, 731, 684, 988, 685, 610, 685, 390, 337, 390, 837, 500,
	500, 612, 634, 549, 634, 615, 344, 634, 633, 278, 278, 579, 278, 973, 633, 611,
	634, 634, 394, 521, 392, 633, 591, 817, 591, 591, 525, 636, 337, 636, 837,
}

// boldEm is how much wider the bold face is, at most, than the regular
// one (DejaVu Sans Bold's widest ratio over the letters is 1.14).
const boldEm = 1.15

// runeEm is the advance of r in thousandths of an em, on the wide side for
// the runes beyond ASCII: a full em for the wide scripts and emoji.
func runeEm(r rune) float64 {
	switch {
	case r >= ' ' && r <= '~':
		return float64(asciiEm[r-' '])
	case r == '…' || r == '→':
		return 1000
	case r >= 0x1100 && (unicode.In(r, unicode.Han, unicode.Hangul, unicode.Hiragana, unicode.Katakana) || r >= 0x1F000 || r >= 0x2E80 && r <= 0xA4CF || r >= 0xFF00 && r <= 0xFF60):
		return 1000
	case unicode.IsUpper(r) || unicode.In(r, unicode.Cyrillic, unicode.Greek, unicode.Arabic, unicode.Hebrew):
		return 900
	}
	return 800
}

// textWidth is the width of s drawn at size px, bold or not.
func textWidth(s string, size float64, bold bool) float64 {
	w := 0.0
	for _, r := range s {
		w += runeEm(r)
	}
	if bold {
		w *= boldEm
	}
	return w * size / 1000
}

// fitText is s, cut with an ellipsis to be at most maxW wide; "" when not
// even one rune and the ellipsis fit.
func fitText(s string, size float64, bold bool, maxW float64) string {
	if textWidth(s, size, bold) <= maxW {
		return s
	}
	w := textWidth("…", size, bold)
	for i, r := range s {
		w += textWidth(string(r), size, bold)
		if w > maxW {
			if i == 0 {
				return ""
			}
			return strings.TrimRightFunc(s[:i], unicode.IsSpace) + "…"
		}
	}
	return s
}
