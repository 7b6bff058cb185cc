package jetstream

import (
	"encoding/base32"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
)

// The layout of a stream (shard s of prefix p):
//
//	p.s.format               the format marker (format, shards), written once
//	p.s.<user>.h             the user's head: one message per commit, last
//	                         of its batch; its sequence is the user's revision
//	p.s.<user>.k.<bucket>.<key>  one message per write of a key; every
//	                         version kept, so that each can be found and erased
//
// <user> is "u" and the user's bytes in lowercase base32hex without
// padding, <key> the key's bytes in hex: both always valid subject tokens,
// and decoded back exactly.
var userEnc = base32.NewEncoding("0123456789abcdefghijklmnopqrstuv").WithPadding(base32.NoPadding)

// formatVersion begins the format marker (see Backend.marker); a stream
// with another is refused.
const formatVersion = "palimpsest-kv-jetstream 1"

// hdrTombstone marks the write of a deleted key.
const hdrTombstone = "Palimpsest-Delete"

type layout struct {
	prefix string
	shards int
}

func userToken(user string) string { return "u" + userEnc.EncodeToString([]byte(user)) }

func tokenUser(tok string) (string, error) {
	rest, ok := strings.CutPrefix(tok, "u")
	if !ok {
		return "", fmt.Errorf("user token %q", tok)
	}
	b, err := userEnc.DecodeString(rest)
	if err != nil {
		return "", fmt.Errorf("user token %q: %w", tok, err)
	}
	return string(b), nil
}

// shard is the stream user's data lives in.
func (l layout) shard(user string) int {
	h := fnv.New32a()
	h.Write([]byte(user))
	return int(h.Sum32() % uint32(l.shards))
}

func (l layout) stream(shard int) string {
	return strings.ToUpper(l.prefix) + "-" + strconv.Itoa(shard)
}

func (l layout) shardSubjects(shard int) string { return l.prefix + "." + strconv.Itoa(shard) + ".>" }

func (l layout) format(shard int) string { return l.prefix + "." + strconv.Itoa(shard) + ".format" }

func (l layout) userPrefix(user string) string {
	return l.prefix + "." + strconv.Itoa(l.shard(user)) + "." + userToken(user)
}

func (l layout) head(user string) string { return l.userPrefix(user) + ".h" }

func (l layout) heads(shard int) string { return l.prefix + "." + strconv.Itoa(shard) + ".*.h" }

func (l layout) keys(user string) string { return l.userPrefix(user) + ".k.>" }

func (l layout) key(user, bucket string, key []byte) string {
	return l.userPrefix(user) + ".k." + bucket + "." + hex.EncodeToString(key)
}

// parseKey returns the bucket and key of a key subject of user.
func (l layout) parseKey(user, subject string) (string, []byte, error) {
	rest, ok := strings.CutPrefix(subject, l.userPrefix(user)+".k.")
	if !ok {
		return "", nil, fmt.Errorf("subject %q is not a key of the user", subject)
	}
	bucket, hk, ok := strings.Cut(rest, ".")
	if !ok {
		return "", nil, fmt.Errorf("key subject %q", subject)
	}
	key, err := hex.DecodeString(hk)
	if err != nil {
		return "", nil, fmt.Errorf("key subject %q: %w", subject, err)
	}
	return bucket, key, nil
}
