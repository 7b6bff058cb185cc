package memory

import (
	"errors"
	"fmt"

	"github.com/palimpsest-mem/memory/claims"
	"github.com/palimpsest-mem/memory/index"
	"github.com/palimpsest-mem/memory/index/live"
	"github.com/palimpsest-mem/memory/kv"
)

// Sentinel errors. Every error a Store returns wraps at most one of them and
// can be tested with errors.Is. Its message names the argument at fault as
// the caller wrote it (Options.AutoBudget, PromptOptions.Budget, k, from),
// or the record (fact 3, conflict 2), and a value out of range with what is
// wanted; Open's and the constructors' start with "memory: ", there being
// no store yet to say whose.
var (
	// ErrNotFound: no fact with that id (or not the given user's).
	ErrNotFound = kv.ErrNotFound
	// ErrLocked: another process holds the file.
	ErrLocked = kv.ErrLocked
	// ErrReadOnly: a write on a store opened read-only.
	ErrReadOnly = kv.ErrReadOnly
	// ErrCorrupt: the file is damaged or is not a memory store.
	ErrCorrupt = kv.ErrCorrupt
	// ErrClosed: the store was closed.
	ErrClosed = kv.ErrClosed
	// ErrNotStore: the path names what cannot be a store (a directory,
	// FIFO, socket, device, empty file or dangling symlink). Open refuses
	// it at once and changes nothing.
	ErrNotStore = kv.ErrNotStore
	// ErrStale: a meta page of the file failed its checksum, so the
	// store may answer as it was a commit earlier (see Store.Stale). Writes
	// return it until Repair.
	ErrStale = kv.ErrStale
	// ErrScrubPending: Check of a store whose hard delete has not
	// finished overwriting the file's free pages: the deleted bytes may
	// still be in them. A read-write Open (or Repair) finishes it.
	ErrScrubPending = errors.New("a hard delete's scrub of the file's free pages is pending: deleted text may remain in them")
	// ErrLinked: the store file has other names (hard links). Import
	// refuses it, since the new file it fills would take the store's path
	// and leave the old one under every other name, splitting the store
	// in two. Remove the other names (or copy the store) first.
	ErrLinked = kv.ErrLinked
	// ErrImportBusy: Import while another Import of the store is under
	// way; nothing changes.
	ErrImportBusy = kv.ErrBusy

	ErrEmpty           = errors.New("text is empty")
	ErrTooLong         = errors.New("text is too long")
	ErrInvalidUTF8     = errors.New("text is not valid UTF-8")
	ErrControlChar     = errors.New("text holds a control character")
	ErrInvalidUser     = errors.New("invalid user name")
	ErrInvalidInterval = errors.New("event interval ends before it starts")
	ErrInvalidTime     = errors.New("time outside the years 1900 to 2199")
	// ErrInvalidClock: the store's clock (Options.Clock) reads a time no
	// record time can be (see ValidRecordTime); every write is refused,
	// writing nothing, while it does.
	ErrInvalidClock = errors.New("clock outside the record times a store holds (1677-09-21 to 2262-04-11 UTC)")
	// ErrInvalidClaim: a claim of a Note that is not valid (unknown
	// relation, empty or over-long name, …).
	ErrInvalidClaim = claims.ErrInvalidClaim

	// ErrPinned: automation tried to supersede or invalidate a pinned fact.
	ErrPinned = errors.New("fact is pinned")
	// ErrNotCurrent: the fact is already superseded or retracted.
	ErrNotCurrent = errors.New("fact is not current")
	// ErrAlreadyCurrent: Restore of a fact that is current.
	ErrAlreadyCurrent = errors.New("fact is already current")
	// ErrTimeOrder: the record time of a change is earlier than the fact's
	// last change (a clock set back), which would make its log go back in time.
	ErrTimeOrder = errors.New("record time is earlier than the fact's last change")
	// ErrBudgetExceeded: the user's cap on automatic facts is reached.
	ErrBudgetExceeded = errors.New("budget of automatic facts exceeded")
	// ErrNotEmpty: Import into a store that already holds facts.
	ErrNotEmpty = errors.New("store is not empty")
	// ErrInvalidK: a number of candidates outside 1..MaxCandidates.
	ErrInvalidK = errors.New("invalid number of candidates")
	// ErrInvalidPromptOptions: a negative PromptOptions.Budget or HalfLife.
	ErrInvalidPromptOptions = errors.New("invalid prompt options")
	// ErrInvalidSearch marks search options Search cannot take.
	ErrInvalidSearch = errors.New("invalid search options")
	// ErrInvalidMerge: a merge of entities that is refused: a name is the
	// user or empty, both name one entity, or From is an alias already.
	ErrInvalidMerge = errors.New("invalid merge")
	// ErrMergeCycle: a merge of an entity into one merged into it.
	ErrMergeCycle = errors.New("merge would make a cycle")
	// ErrKindMismatch: a merge of entities whose known kinds differ (a
	// company into a city); an entity of no known kind merges with any.
	ErrKindMismatch = errors.New("entities of different kinds")
	// ErrSupersessionCycle: ResolveConflict keeping a new fact over an
	// existing one that already follows it (a successor of it, the older
	// one restored since): the chain of versions would have no first.
	ErrSupersessionCycle = errors.New("fact already follows the other")
	// ErrMergeUndone: UndoMerge of a merge undone before.
	ErrMergeUndone = errors.New("merge already undone")
	// ErrIDsExhausted: a write that needs an id past 2^53−1, the largest
	// a store gives; it changes nothing.
	ErrIDsExhausted = kv.ErrIDsExhausted
	// ErrErasePending: a hard delete on a cluster committed, but not every
	// replica has been shown to hold no earlier copy yet (one is down);
	// the facts are gone from every answer, and the erase completes when
	// the replica is back (Check names it until then).
	ErrErasePending = kv.ErrErasePending
	// ErrUnknownOutcome: a write on a cluster whose commit could not be
	// told applied or not before its context ended (the cluster lost its
	// leader); reading the fact back tells.
	ErrUnknownOutcome = kv.ErrUnknownOutcome
	// ErrUnsupported: an operation the store's backend does not offer (a
	// file's Repair or Import on a cluster).
	ErrUnsupported = errors.New("not supported by this store's backend")
	// ErrBadImport: an import line that is malformed or inconsistent.
	ErrBadImport = errors.New("invalid import data")
	// ErrIndexDir: the candidate index cannot live in its folder beside
	// the store, <store>.index: something the store did not make is at
	// that path (it is left untouched), or the folder cannot be written
	// (lookups need write access beside the store, even read-only).
	// Lookups return it; the store still reads and writes. Check returns
	// it too, and also when a writable Open could not remove the indexes
	// that processes now gone left in that folder.
	ErrIndexDir = index.ErrDir

	// Of reconciliation:

	// ErrDecider: the decider failed and the fallback policy is FallbackError.
	ErrDecider = errors.New("decider failed")
	// ErrAlreadyUndone: Undo of a decision that was undone before.
	ErrAlreadyUndone = errors.New("decision already undone")
	// ErrUndoStale: the facts a decision changed have changed again since.
	ErrUndoStale = errors.New("facts changed since the decision")
	// ErrResolved: a conflict that is resolved already.
	ErrResolved = errors.New("conflict already resolved")
	// ErrMoot: a conflict that no longer holds, because one of its facts
	// is no longer current or, for a derived one, both name one entity.
	ErrMoot = errors.New("conflict is moot")
	// ErrDecisionHasFact: DeleteDecision of a decision that added a fact, or
	// superseded, retracted or confirmed one, that still exists (or that a
	// conflict names): it goes with Delete of that fact, which scrubs it.
	ErrDecisionHasFact = errors.New("decision added or changed a fact that still exists")
)

// errMoved stops a Remember transaction whose target changed after the
// decision was made: the decision is made again on the new state.
var errMoved = errors.New("target changed since the decision")

// errNoConfirmation: an Unconfirmed step names a decision with no
// confirmation left to cancel. Undo takes it as nothing to cancel (the
// clock stood behind the log when the restatement came); in a log it is
// corruption.
var errNoConfirmation = errors.New("cancels no confirmation")

// fromLive maps the live index's ErrClosed to ErrClosed, which it stands
// for (the index closes with its store), keeping the message as it is.
func fromLive(err error) error {
	if errors.Is(err, live.ErrClosed) {
		return fmt.Errorf("%w%.0w", err, ErrClosed) // %.0w wraps ErrClosed without printing it
	}
	return err
}
