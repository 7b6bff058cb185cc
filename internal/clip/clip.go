// Package clip bounds texts kept in logs and error messages, for the root
// package and the deciders alike.
package clip

import "unicode/utf8"

// Bytes cuts s to at most n bytes without splitting a rune.
func Bytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i]
}
