package kv

import (
	"context"
	"errors"
	"fmt"
	"unicode/utf8"
)

// Backend is what the memory layer asks of storage, one user at a time: a
// consistent snapshot of the user's data, an all-or-nothing commit of a
// write set guarded by the revision the snapshot was at, and an erase that
// returns nil only once no earlier version of the user's values can be
// read back from any file the backend controls.
//
// One user is the unit of atomicity, of snapshot and of erasure, so users
// never wait on each other's commits (a store-wide counter or index would
// serialise them on a cluster). Two implementations: a bbolt file
// ((*DB).PerUser) and a NATS JetStream cluster (package kv/jetstream); the
// conformance suite in package kv/kvtest runs on both.
type Backend interface {
	// Snapshot returns user's data as of one revision that holds every
	// commit acknowledged before the call (on a cluster: read through the
	// stream leader, not a replica that may lag). A user with no data has
	// revision 0 and no keys.
	Snapshot(ctx context.Context, user string) (Snapshot, error)
	// Commit applies ops as one change, all or nothing, if user is still at
	// revision rev, and returns the new revision. Otherwise it applies
	// nothing and returns an error wrapping ErrConflict. An outcome the
	// transport left unknown (a timeout, a leader lost mid-commit) is
	// resolved by reading the user's head, never by writing twice; when it
	// cannot be resolved before ctx ends the error wraps ErrUnknownOutcome.
	Commit(ctx context.Context, user string, rev uint64, ops []Op) (uint64, error)
	// Erase makes every version of user's values that is no longer the
	// latest (overwritten or deleted by a commit) unrecoverable from every
	// file the backend controls. It returns nil only once that is provable;
	// while it is not (a replica down), the error wraps ErrErasePending and
	// a later Erase completes it.
	Erase(ctx context.Context, user string) error
	// Users lists every user with a revision above 0, in byte order.
	Users(ctx context.Context) ([]string, error)
	Close() error
}

// PendingEraser is a Backend that keeps the users whose Erase it could not
// complete yet, so that a check can name them and try again.
type PendingEraser interface {
	PendingErases() []string
}

// RevReader is a Backend that reads a user's revision alone, as Snapshot
// would read it (every commit acknowledged before the call) but without
// the data: for a reader that only needs to know whether the user changed
// since a revision it holds, which is cheaper than any snapshot on the
// file and no dearer than one on a cluster.
type RevReader interface {
	Rev(ctx context.Context, user string) (uint64, error)
}

// Snapshot is one user's data at one revision. It stays valid after the
// call that made it returns; the byte slices it hands out must not be
// modified.
type Snapshot interface {
	// Rev is the user's revision; 0 for a user without data. A user's
	// revisions only grow: each commit's is above the one it was guarded by.
	Rev() uint64
	// Get returns the value of key in bucket, nil when there is none.
	Get(bucket string, key []byte) []byte
	// Scan calls fn with the keys of bucket in [from, to) (nil: unbounded),
	// in byte order or reversed, until fn returns false.
	Scan(bucket string, from, to []byte, reverse bool, fn func(key, value []byte) bool) error
}

// Op is one write of a commit: Value stored at Key in Bucket, or the key
// removed when Delete is set. Within one commit a later write of a key
// wins.
type Op struct {
	Bucket string
	Key    []byte
	Value  []byte
	Delete bool
}

// Errors of a Backend.
var (
	// ErrConflict: nothing was applied, and a commit on a fresh snapshot
	// may succeed: the user's data changed since the snapshot, or (on a
	// cluster) another commit of the user was still in flight.
	ErrConflict       = errors.New("the user's data changed since the snapshot, or another commit of the user was in flight")
	ErrUnknownOutcome = errors.New("the commit's outcome is unknown")
	ErrErasePending   = errors.New("erasure not yet provable on every replica")
	ErrTooLarge       = errors.New("commit too large for one atomic change")
	ErrBadOp          = errors.New("invalid write")
)

// Limits every backend keeps, so that a write set valid on one is valid on
// the other (JetStream subjects and message sizes bound them there).
const (
	MaxUser      = 128      // bytes of a user name (package memory's MaxUserLen)
	MaxBucketLen = 16       // bytes of a bucket name: [a-z0-9]
	MaxKeyLen    = 64       // bytes of a key
	MaxValueLen  = 1 << 20  // bytes of a value
	MaxOps       = 900      // writes of one commit
	MaxCommit    = 16 << 20 // bytes of one commit's values
)

// CheckUser refuses a user name a backend cannot hold: not UTF-8, or too
// long. The empty name is the default user.
func CheckUser(user string) error {
	if len(user) > MaxUser || !utf8.ValidString(user) {
		return fmt.Errorf("%w: user name of %d bytes, valid UTF-8 of at most %d", ErrBadOp, len(user), MaxUser)
	}
	return nil
}

// CheckOps refuses a write set before anything is written: an unknown
// bucket name form, an empty or long key, a long value, too many writes.
func CheckOps(ops []Op) error {
	if len(ops) > MaxOps {
		return fmt.Errorf("%w: %d writes, at most %d", ErrTooLarge, len(ops), MaxOps)
	}
	total := 0
	for i, op := range ops {
		if !validBucket(op.Bucket) {
			return fmt.Errorf("%w: write %d: bucket %q is not 1 to %d of [a-z0-9]", ErrBadOp, i, op.Bucket, MaxBucketLen)
		}
		if len(op.Key) == 0 || len(op.Key) > MaxKeyLen {
			return fmt.Errorf("%w: write %d: key of %d bytes, 1 to %d", ErrBadOp, i, len(op.Key), MaxKeyLen)
		}
		if op.Delete && op.Value != nil {
			return fmt.Errorf("%w: write %d: a delete with a value", ErrBadOp, i)
		}
		if len(op.Value) > MaxValueLen {
			return fmt.Errorf("%w: write %d: value of %d bytes, at most %d", ErrTooLarge, i, len(op.Value), MaxValueLen)
		}
		total += len(op.Value)
	}
	if total > MaxCommit {
		return fmt.Errorf("%w: %d bytes of values, at most %d", ErrTooLarge, total, MaxCommit)
	}
	return nil
}

func validBucket(b string) bool {
	if len(b) == 0 || len(b) > MaxBucketLen {
		return false
	}
	for i := range len(b) {
		if c := b[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
