package kv

import (
	"bytes"
	"errors"
	"fmt"
	"math"

	bolt "go.etcd.io/bbolt"
)

// Buckets of a store file. A write touches as few pages as it can, for
// each page a commit writes costs its fsync time: a fact's lifecycle log
// lives beside its record (one leaf for an insert), the per-user index is
// one bucket holding every fact with its state, and the last id allocated
// is the facts bucket's sequence, kept in a page every commit writes anyway.
var (
	bucketMeta  = []byte("meta")  // format version, pending scrub, import mark, repairs
	bucketFacts = []byte("facts") // id -> Record; id ‖ seq -> Event, the append-only log of the fact
	bucketUsers = []byte("users") // user key ‖ id -> state flags: every fact of a user
	allBuckets  = [][]byte{bucketMeta, bucketFacts, bucketUsers}

	keyVersion = []byte("version")
	// keyScrub marks a hard delete whose scrub of the free pages has not
	// finished yet (the name is from when a compaction did that job).
	keyScrub = []byte("compact_pending")
	// keyImported marks a file an Import committed to.
	keyImported = []byte("imported")
)

// State flags of a fact in the users bucket.
const (
	userCurrent byte = 1 << iota
	userAuto
)

// Key lengths in the facts bucket: a record's, and a log entry's.
const (
	recordKeyLen = 8
	eventKeyLen  = 12
)

// MaxUserLen is the longest user name, in bytes, that a key can hold.
const MaxUserLen = 255

// Tx is a transaction on a store file, valid only inside the Update or View
// closure that received it.
type Tx struct {
	// tx is the bbolt transaction, nil for one user's over a Backend
	// (overlay); sp is where the buckets are, either way.
	tx                 *bolt.Tx
	sp                 space
	meta, facts, users bucket
	// touched holds the final state of each record written or whose log
	// changed, nil once deleted; byUser, the ids of each user's records so
	// changed, and the users whose other data changed (with no ids).
	touched map[factKey]touchedFact
	byUser  map[string][]uint64
	// data holds the users whose data outside the records changed.
	data map[string]bool
	// owner names the user of a conflict or merge for the log index;
	// logsIndexed says the file's index is whole (see userlogs.go).
	owner       LogOwner
	logsIndexed bool
	// factKeys names the facts of a conflict for the log index;
	// factsIndexed says the file's index holds those keys (format 5).
	factKeys     LogFacts
	factsIndexed bool
	// commit is the change log's entry this transaction wrote (changes.go).
	commit Commit
	// erase: a transaction over a Backend asked for its earlier versions
	// to be erased (MarkScrubPending).
	erase bool
	// scope is the user the writes are for, while one is set (scope.go).
	scope scope
	// perUser: the file keeps each user's data apart (format 6), and
	// Use picks whose the fact, index and blob buckets are; spaces holds
	// the users used so far, revved those whose revision moved on.
	perUser bool
	// nested: a file of format 6, each user's data in buckets of their
	// own, read as it is (userspace.go); otherwise format 7's (byuser.go).
	nested bool
	spaces map[string]*userSpace
	revved map[string]bool
}

// newTx is a transaction on a file of format version: every user's data
// in one set of buckets (format 5 or older, read as it is), or each
// user's apart, reached through Use (the default user's until then).
func newTx(tx *bolt.Tx, version uint64) *Tx {
	perUser := version >= formatVersionV6
	t := &Tx{tx: tx, sp: boltSpace{tx}, perUser: perUser, nested: version == formatVersionV6}
	t.meta = t.sp.bucket(bucketMeta)
	if perUser {
		// The default user's buckets until Use names another.
		t.Use("")
		return t
	}
	if b := tx.Bucket(bucketFacts); b != nil {
		// Ids only grow, so records are appended: pages split full rather
		// than half full, which halves the pages a large import writes.
		// A record rewritten in place rarely grows.
		b.FillPercent = factsFillPercent
	}
	t.facts, t.users = t.sp.bucket(bucketFacts), t.sp.bucket(bucketUsers)
	return t
}

const factsFillPercent = 0.95

// Use makes the fact, index and blob buckets of the transaction user's,
// in a file that keeps each user's data apart; in an older file every
// user's are one set, and Use changes nothing. A transaction over a
// Backend is one user's from the start. Users, CurrentPage, Empty and
// VectorDim are of the whole store whatever the user in use; Put of a
// record goes to its own user's data.
func (t *Tx) Use(user string) {
	if !t.perUser {
		return
	}
	sp := t.spaces[user]
	if sp == nil {
		if t.spaces == nil {
			t.spaces = map[string]*userSpace{}
		}
		sp = &userSpace{t: t, user: user}
		t.spaces[user] = sp
	}
	t.sp = sp
	t.facts, t.users = sp.bucket(bucketFacts), sp.bucket(bucketUsers)
}

// keepUse returns a function that makes the buckets in use again those
// in use now: for a reader that visits every user.
func (t *Tx) keepUse() func() {
	sp, facts, users := t.sp, t.facts, t.users
	return func() { t.sp, t.facts, t.users = sp, facts, users }
}

// EachUser calls fn for each user with any data (facts, or logs alone),
// with the transaction on that user's buckets (Use), and then puts back
// those in use before. In an older file, where every user's data is one
// set, it calls fn once, with user "" and every user's buckets.
func (t *Tx) EachUser(fn func(user string) error) error {
	if !t.perUser {
		return fn("")
	}
	defer t.keepUse()()
	users, err := t.usersWithData()
	if err != nil {
		return err
	}
	for _, u := range users {
		t.Use(u)
		if err := fn(u); err != nil {
			return err
		}
	}
	return nil
}

// User returns the user whose buckets the transaction is on, in a file
// that keeps users apart (the default user's until Use names another);
// false for an older file (one set of buckets) and a Backend's
// transaction, whose buckets are its one user's.
func (t *Tx) User() (string, bool) {
	if sp, ok := t.sp.(*userSpace); ok {
		return sp.user, true
	}
	return "", false
}

func idKey(id uint64) []byte { return be.AppendUint64(make([]byte, 0, 8), id) }

func userPrefix(user string) []byte {
	b := make([]byte, 0, 1+len(user)+8)
	b = append(b, byte(len(user)))
	return append(b, user...)
}

func userKey(user string, id uint64) []byte { return be.AppendUint64(userPrefix(user), id) }

func eventKey(id uint64, seq uint32) []byte { return be.AppendUint32(idKey(id), seq) }

// NextID allocates a fact id. Ids only grow: a hard delete never frees one.
func (t *Tx) NextID() (uint64, error) {
	id := t.PeekNextID()
	if err := freeID("fact", id, t.Has(id)); err != nil {
		return 0, err
	}
	return id, t.SetNextID(id + 1)
}

// PeekNextID returns the id NextID would allocate.
func (t *Tx) PeekNextID() uint64 { return max(t.facts.Sequence(), t.floor(bucketFacts)) + 1 }

// floor is the last id of bucket's counter a Repair found the file may have
// given in a lost commit, to any user (ids are each user's from format 6,
// and the lost one may have been a new user's): no user is given it, or
// one below it, again.
func (t *Tx) floor(bucket []byte) uint64 {
	if !t.perUser {
		return 0
	}
	if v := t.meta.Get(floorKey(bucket)); len(v) == 8 {
		return be.Uint64(v)
	}
	return 0
}

func floorKey(bucket []byte) []byte { return append([]byte("floor/"), bucket...) }

// SetNextID sets the next id to allocate (import keeps the exported counter).
func (t *Tx) SetNextID(id uint64) error {
	if id == 0 {
		return fmt.Errorf("next id 0 is reserved")
	}
	if id > MaxID+1 {
		return fmt.Errorf("%w: next fact id %d is past %d", ErrIDsExhausted, id, uint64(MaxID))
	}
	return t.facts.SetSequence(id - 1)
}

// Get returns the record with the given id, or ErrNotFound.
func (t *Tx) Get(id uint64) (Record, error) {
	v := t.facts.Get(idKey(id))
	if v == nil {
		return Record{}, fmt.Errorf("fact %d: %w", id, ErrNotFound)
	}
	return decodeRecord(id, v)
}

// Has reports whether a record with the id exists.
func (t *Tx) Has(id uint64) bool { return t.facts.Get(idKey(id)) != nil }

// Put writes r and brings the per-user indexes in line with it.
func (t *Tx) Put(r *Record) error {
	if len(r.User) > MaxUserLen {
		return fmt.Errorf("user name of %d bytes exceeds %d", len(r.User), MaxUserLen)
	}
	if r.ID == 0 {
		return fmt.Errorf("fact id 0 is reserved")
	}
	if u, in := t.User(); in && u != r.User {
		// A record is kept with its user's data, and the transaction goes
		// on there (under a scope of another user, the write is noted).
		t.Use(r.User)
	}
	if t.scope.on {
		// A record written over another user's (no index key of its own
		// user yet, but a record under its id) changes that user's data.
		if t.users.Get(userKey(r.User, r.ID)) == nil {
			if v := t.facts.Get(idKey(r.ID)); v != nil {
				old, err := decodeRecord(r.ID, v)
				if err != nil {
					return err
				}
				t.factInScope(r.ID, old.User)
			}
		}
	}
	if err := t.facts.Put(idKey(r.ID), appendRecord(nil, r)); err != nil {
		return err
	}
	cp := *r
	t.touch(r.ID, &cp, r.User)
	return t.users.Put(userKey(r.User, r.ID), []byte{userFlags(r)})
}

func userFlags(r *Record) byte {
	var f byte
	if r.Current() {
		f |= userCurrent
	}
	if r.Auto {
		f |= userAuto
	}
	return f
}

// Delete removes a record, its whole lifecycle log and its index keys.
func (t *Tx) Delete(id uint64) error {
	r, err := t.Get(id)
	if err != nil {
		return err
	}
	t.touch(id, nil, r.User)
	uk := userKey(r.User, id)
	for _, step := range []func() error{
		func() error { return t.facts.Delete(idKey(id)) },
		func() error { return t.users.Delete(uk) },
		func() error { return t.deleteEvents(id) },
		func() error { return t.deleteVector(id) },
	} {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// factKey names a fact among those a transaction touched: by its id in
// the buckets in use, which are one user's in a file that keeps users
// apart (space is then the user) and every user's in an older file.
type factKey struct {
	space string
	id    uint64
}

type touchedFact struct {
	user string
	r    *Record // the final state, nil once deleted
}

func (t *Tx) factKey(id uint64) factKey {
	if u, ok := t.User(); ok {
		return factKey{u, id}
	}
	return factKey{id: id}
}

func (t *Tx) touch(id uint64, r *Record, user string) {
	t.factInScope(id, user)
	if t.touched == nil {
		t.touched, t.byUser = map[factKey]touchedFact{}, map[string][]uint64{}
	}
	k := t.factKey(id)
	if _, ok := t.touched[k]; !ok {
		t.byUser[user] = append(t.byUser[user], id)
	}
	t.touched[k] = touchedFact{user, r}
}

// logChanged notes that the log of fact id changed: a step appended
// without its record written is a change of the fact all the same.
func (t *Tx) logChanged(id uint64) error {
	if f, ok := t.touched[t.factKey(id)]; ok {
		if f.r != nil {
			t.factInScope(id, f.user)
		}
		return nil
	}
	r, err := t.Get(id)
	if err != nil {
		return err
	}
	t.touch(id, &r, r.User)
	return nil
}

// TouchUser notes a change to data of user kept outside the fact records
// (a merge of the user's entities), so that what is derived from it
// follows the commit too.
func (t *Tx) TouchUser(user string) {
	if t.foreign(user) {
		t.noteForeign(user, "data")
	}
	if t.touched == nil {
		t.touched, t.byUser = map[factKey]touchedFact{}, map[string][]uint64{}
	}
	if _, ok := t.byUser[user]; !ok {
		t.byUser[user] = nil
	}
	if t.data == nil {
		t.data = map[string]bool{}
	}
	t.data[user] = true
}

// TouchFact notes a change to what is derived from fact id though neither
// its record nor its log changed (a conflict naming it stopped standing),
// so that derived data follow the commit as for a change of its log. A
// fact that does not exist (deleted in this transaction) is no change.
func (t *Tx) TouchFact(id uint64) error {
	err := t.logChanged(id)
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	return err
}

// TouchLog notes a change to a log entry of user (a conflict), so that
// the caches of what is read from the log follow the commit; unlike
// TouchUser it says nothing of the user's other data.
func (t *Tx) TouchLog(user string) {
	if t.foreign(user) {
		t.noteForeign(user, "a log entry")
	}
	if t.touched == nil {
		t.touched, t.byUser = map[factKey]touchedFact{}, map[string][]uint64{}
	}
	if _, ok := t.byUser[user]; !ok {
		t.byUser[user] = nil
	}
}

// DataTouched reports whether TouchUser was called for user in this
// transaction.
func (t *Tx) DataTouched(user string) bool { return t.data[user] }

// Touched calls fn with the user, id and final state of every record the
// transaction wrote or whose log it changed, or nil for one it deleted,
// so that derived data can follow the commit.
func (t *Tx) Touched(fn func(user string, id uint64, r *Record)) {
	for k, f := range t.touched {
		fn(f.user, k.id, f.r)
	}
}

// TouchedUsers calls fn for each user whose facts (ids: the records
// written, deleted or whose logs changed, in the order first changed) or
// other data the transaction changed.
func (t *Tx) TouchedUsers(fn func(user string, ids []uint64)) {
	for u, ids := range t.byUser {
		fn(u, ids)
	}
}

// ForEachCurrent calls fn for every current record in the buckets in use:
// the user's in a file that keeps users apart, every user's in an older one.
func (t *Tx) ForEachCurrent(fn func(r Record) error) error {
	var after []byte
	for {
		page, next, err := t.currentPage(after, 1024)
		if err != nil {
			return err
		}
		for _, r := range page {
			if err := fn(r); err != nil {
				return err
			}
		}
		if next == nil {
			return nil
		}
		after = next
	}
}

// CurrentPage returns up to n current records of every user, in user-index
// order, starting after the key after (nil: from the first), and the key to
// pass for the next page, nil after the last. Pages let a long read go in
// short transactions.
func (t *Tx) CurrentPage(after []byte, n int) ([]Record, []byte, error) {
	if t.perUser {
		return t.currentPageOfUsers(after, n)
	}
	return t.currentPage(after, n)
}

// currentPageOfUsers is CurrentPage in a file that keeps users apart: each
// user's current records in turn, users in the order of their index keys.
func (t *Tx) currentPageOfUsers(after []byte, n int) ([]Record, []byte, error) {
	defer t.keepUse()()
	users, err := t.fileUsers()
	if err != nil {
		return nil, nil, err
	}
	var page []Record
	for _, u := range users {
		if len(page) == n {
			// Full at the end of a user: the next page starts after its
			// last fact, in the users that follow.
			last := page[len(page)-1]
			return page, userKey(last.User, last.ID), nil
		}
		if after != nil && bytes.Compare(userKey(u, math.MaxUint64), after) < 0 {
			continue // every fact of u came in an earlier page
		}
		t.Use(u)
		recs, next, err := t.currentPage(after, n-len(page))
		if err != nil {
			return nil, nil, err
		}
		if page = append(page, recs...); next != nil {
			return page, next, nil
		}
	}
	return page, nil, nil
}

// currentPage is CurrentPage over the index in use.
func (t *Tx) currentPage(after []byte, n int) ([]Record, []byte, error) {
	var page []Record
	var last []byte
	c := t.users.Cursor()
	k, v := c.First()
	if after != nil {
		if k, v = c.Seek(after); k != nil && bytes.Equal(k, after) {
			k, v = c.Next()
		}
	}
	for ; k != nil; k, v = c.Next() {
		if len(k) < 9 || len(v) != 1 {
			return nil, nil, fmt.Errorf("%w: user index entry %x", ErrCorrupt, k)
		}
		if v[0]&userCurrent == 0 {
			continue
		}
		if len(page) == n {
			return page, last, nil
		}
		r, err := t.Get(be.Uint64(k[len(k)-8:]))
		if err != nil {
			return nil, nil, err
		}
		page, last = append(page, r), append(last[:0], k...)
	}
	return page, nil, nil
}

// lastLogEntry returns the key and value of the newest log entry of fact
// id, or nil if its log is empty.
func (t *Tx) lastLogEntry(id uint64) (k, v []byte) {
	if pb, ok := t.facts.(*placedBucket); ok {
		return pb.lastOf(id)
	}
	c := t.facts.Cursor()
	if k, _ = c.Seek(idKey(id + 1)); k == nil {
		k, v = c.Last()
	} else {
		k, v = c.Prev()
	}
	if k == nil {
		// bbolt rebalances pages only at commit, so a Delete earlier in
		// this transaction can leave a leaf empty, and Prev (unlike Seek,
		// Next and Last) stops on such a leaf as if the bucket began there:
		// a log whose own page was emptied would seem empty, and the next
		// step would be written as step 0, over the recording. Walking
		// forward from the log's start steps over empty leaves.
		prefix := idKey(id)
		for fk, fv := c.Seek(eventKey(id, 0)); fk != nil && len(fk) == eventKeyLen && bytes.HasPrefix(fk, prefix); fk, fv = c.Next() {
			k, v = fk, fv
		}
	}
	if k == nil || len(k) != eventKeyLen || !bytes.HasPrefix(k, idKey(id)) {
		return nil, nil
	}
	return k, v
}

// Append adds e to the end of the lifecycle log of fact id.
func (t *Tx) Append(id uint64, e *Event) error {
	if err := t.logChanged(id); err != nil {
		return err
	}
	var seq uint32
	if k, _ := t.lastLogEntry(id); k != nil {
		seq = be.Uint32(k[8:]) + 1
	}
	return t.facts.Put(eventKey(id, seq), appendEvent(nil, e))
}

// LastEventAt returns the record time of the newest step in the log of
// fact id, or 0 if it has none.
func (t *Tx) LastEventAt(id uint64) (int64, error) {
	k, v := t.lastLogEntry(id)
	if k == nil {
		return 0, nil
	}
	e, err := decodeEvent(v)
	return e.At, err
}

// MarkScrubPending records, in the transaction that deletes, that the
// file's free pages must be scrubbed (see Scrub); Open finishes the job if
// the process dies first.
func (t *Tx) MarkScrubPending() error {
	if t.tx == nil {
		t.erase = true // UpdateUser erases once the commit is in
		return nil
	}
	return t.meta.Put(keyScrub, []byte{1})
}

// MarkImported records that an import committed to the file. An import
// of no fact writes nothing else, and a new file with nothing written
// is removed at Close: this keeps the store the import made.
func (t *Tx) MarkImported() error { return t.meta.Put(keyImported, []byte{1}) }

// Events returns the lifecycle log of fact id, oldest first.
func (t *Tx) Events(id uint64) ([]Event, error) {
	var out []Event
	prefix := idKey(id)
	c := t.facts.Cursor()
	for k, v := c.Seek(eventKey(id, 0)); k != nil && len(k) == eventKeyLen && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		e, err := decodeEvent(v)
		if err != nil {
			return nil, fmt.Errorf("fact %d: %w", id, err)
		}
		out = append(out, e)
	}
	return out, nil
}

// ReplaceEvents rewrites the log of fact id. Only hard delete uses it, to cut
// links to a fact that no longer exists.
func (t *Tx) ReplaceEvents(id uint64, events []Event) error {
	if len(events) > math.MaxUint32 {
		return fmt.Errorf("log of %d steps exceeds %d", len(events), uint64(math.MaxUint32))
	}
	if err := t.logChanged(id); err != nil {
		return err
	}
	if err := t.deleteEvents(id); err != nil {
		return err
	}
	// The log is empty now: its steps are numbered from 0 again, without a
	// look for the last one each.
	for i := range events {
		if err := t.facts.Put(eventKey(id, uint32(i)), appendEvent(nil, &events[i])); err != nil {
			return err
		}
	}
	return nil
}

func (t *Tx) deleteEvents(id uint64) error {
	prefix, first := idKey(id), eventKey(id, 0)
	c := t.facts.Cursor()
	for k, _ := c.Seek(first); k != nil && len(k) == eventKeyLen && bytes.HasPrefix(k, prefix); k, _ = c.Seek(first) {
		if err := c.Delete(); err != nil {
			return err
		}
	}
	return nil
}

// UserIDs calls fn for each fact id of user in increasing order: all of them,
// or only the current ones, with whether automation wrote the fact.
func (t *Tx) UserIDs(user string, currentOnly bool, fn func(id uint64, auto bool) error) error {
	prefix := userPrefix(user)
	c := t.users.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		if len(k) != len(prefix)+8 {
			continue // a longer user name that starts with the same bytes cannot, thanks to the length byte
		}
		if len(v) != 1 {
			return fmt.Errorf("%w: user index entry %x", ErrCorrupt, k)
		}
		if currentOnly && v[0]&userCurrent == 0 {
			continue
		}
		if err := fn(be.Uint64(k[len(prefix):]), v[0]&userAuto != 0); err != nil {
			return err
		}
	}
	return nil
}

// CountCurrent counts the current facts of user; with autoOnly, only those
// written by automation.
func (t *Tx) CountCurrent(user string, autoOnly bool) int {
	n := 0
	_ = t.UserIDs(user, true, func(_ uint64, auto bool) error {
		if auto || !autoOnly {
			n++
		}
		return nil
	})
	return n
}

// ForEach calls fn for every record in id order.
func (t *Tx) ForEach(fn func(r Record) error) error {
	c := t.facts.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if len(k) == eventKeyLen {
			continue // a log entry of the record before it
		}
		if len(k) != recordKeyLen {
			return fmt.Errorf("%w: fact key of %d bytes", ErrCorrupt, len(k))
		}
		r, err := decodeRecord(be.Uint64(k), v)
		if err != nil {
			return err
		}
		if err := fn(r); err != nil {
			return err
		}
	}
	return nil
}

// ForEachWithLog calls fn for every record in id order with its lifecycle
// log, oldest first, read in the same walk (a log beside its record):
// Events for each record would seek each log again. A log entry of no
// record is skipped (CheckIndexes reports it).
func (t *Tx) ForEachWithLog(fn func(r Record, log []Event) error) error {
	var r Record
	var log []Event
	have := false
	flush := func() error {
		if !have {
			return nil
		}
		have = false
		return fn(r, log)
	}
	c := t.facts.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		switch len(k) {
		case recordKeyLen:
			if err := flush(); err != nil {
				return err
			}
			var err error
			if r, err = decodeRecord(be.Uint64(k), v); err != nil {
				return err
			}
			log, have = nil, true
		case eventKeyLen:
			if !have || be.Uint64(k) != r.ID {
				continue
			}
			e, err := decodeEvent(v)
			if err != nil {
				return fmt.Errorf("fact %d: %w", r.ID, err)
			}
			log = append(log, e)
		default:
			return fmt.Errorf("%w: fact key of %d bytes", ErrCorrupt, len(k))
		}
	}
	return flush()
}

// Empty reports whether the store holds no fact and has never allocated an id.
func (t *Tx) Empty() bool {
	if t.perUser {
		if t.nested {
			top := t.tx.Bucket(bucketPerUser)
			return top == nil || firstKey(top) == nil
		}
		revs, _ := flatRoot(t.tx, bucketRevs, false)
		return revs == nil || firstKey(revs) == nil
	}
	k, _ := t.facts.Cursor().First()
	return k == nil && t.PeekNextID() == 1
}

// CheckIndexes verifies that the users bucket holds exactly the keys and
// states the records imply, that every log entry belongs to a record, and
// that the log index holds exactly the keys of the logs it indexes.
func (t *Tx) CheckIndexes() []error {
	errs := t.checkLogIndex()
	// One walk of the facts: a record, then its log (id ‖ seq sorts after
	// id); a walk is a seek a fact where each user's facts are not one
	// range of the file (format 7).
	u, in := t.User()
	want := map[string]byte{}
	var last uint64
	seen := false
	_ = forEach(t.facts, func(k, v []byte) error {
		switch len(k) {
		case recordKeyLen:
			last, seen = be.Uint64(k), true
			r, err := decodeRecord(last, v)
			if err != nil {
				return nil // ForEach reports it; its index entry is stray here
			}
			if in && r.User != u {
				errs = append(errs, fmt.Errorf("fact %d of user %q is kept with user %q's", r.ID, r.User, u))
			}
			want[string(userKey(r.User, r.ID))] = userFlags(&r)
		case eventKeyLen:
			if !seen || be.Uint64(k) != last {
				errs = append(errs, fmt.Errorf("log key %x belongs to no fact", k))
			}
		}
		return nil
	})
	n := 0
	_ = forEach(t.users, func(k, v []byte) error {
		n++
		if f, ok := want[string(k)]; !ok {
			errs = append(errs, fmt.Errorf("user index holds a stray key %x", k))
		} else if len(v) != 1 || v[0] != f {
			errs = append(errs, fmt.Errorf("user index entry %x holds state %x, its record implies %x", k, v, f))
		}
		return nil
	})
	if n != len(want) {
		errs = append(errs, fmt.Errorf("user index has %d keys, records imply %d", n, len(want)))
	}
	return errs
}

func firstKey(b *bolt.Bucket) []byte {
	k, _ := b.Cursor().First()
	return k
}
