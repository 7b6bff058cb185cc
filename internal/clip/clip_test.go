package clip

import "testing"

func TestBytes(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{{"abc", 5, "abc"}, {"abc", 2, "ab"}, {"aя", 2, "a"}, {"aя", 3, "aя"}, {"я", 1, ""}, {"😀x", 3, ""}, {"😀x", 4, "😀"}} {
		if got := Bytes(tc.s, tc.n); got != tc.want {
			t.Errorf("Bytes(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}
