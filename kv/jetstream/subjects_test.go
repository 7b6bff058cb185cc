package jetstream

import (
	"bytes"
	"strings"
	"testing"

	"github.com/palimpsest-mem/memory/kv"
)

// Every user name a backend holds maps to a valid subject token and back,
// and every key to a key subject and back.
func TestSubjects(t *testing.T) {
	l := layout{prefix: "mem", shards: 7}
	for _, user := range []string{"", "ann", "Ann", "zoë", "a.b*c>d e\tf", "\x00", strings.Repeat("é", kv.MaxUser/2)} {
		tok := userToken(user)
		for _, c := range tok {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
				t.Errorf("user %q: token %q holds %q", user, tok, c)
			}
		}
		if got, err := tokenUser(tok); err != nil || got != user {
			t.Errorf("user %q: token %q reads back %q, %v", user, tok, got, err)
		}
		if s := l.shard(user); s < 0 || s >= l.shards {
			t.Errorf("user %q in shard %d of %d", user, s, l.shards)
		}
		for _, key := range [][]byte{{0}, []byte("a.b"), bytes.Repeat([]byte{0xff}, kv.MaxKeyLen)} {
			subj := l.key(user, "facts", key)
			if strings.Count(subj, ".") != 5 {
				t.Errorf("subject %q is not 6 tokens", subj)
			}
			b, k, err := l.parseKey(user, subj)
			if err != nil || b != "facts" || !bytes.Equal(k, key) {
				t.Errorf("subject %q reads back %q %x, %v", subj, b, k, err)
			}
		}
	}
	// Distinct users, distinct tokens (the encoding is exact).
	if userToken("a") == userToken("a\x00") {
		t.Error("two users share a token")
	}
	for _, bad := range []string{"", "x", "u!", "uzz"} {
		if _, err := tokenUser(bad); err == nil {
			t.Errorf("token %q decoded", bad)
		}
	}
}
