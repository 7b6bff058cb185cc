package kv

import (
	"errors"
	"fmt"
	"os"

	bolt "go.etcd.io/bbolt"
)

// besideSuffix names the file Beside makes next to the store.
const besideSuffix = ".import"

// Beside makes a new, empty store file beside d's, for a caller to fill in
// as many transactions as it likes (an import of a large file, which one
// transaction would hold in memory whole) and then put in d's place with
// Replace; until then nothing of it is visible through d, and a process
// that dies leaves d as it was. It has d's options but syncs nothing until
// Replace, and the permission, owner and group of d's file. Its name is
// d's path with ".import"; a file a dead process left there is replaced
// here, and removed by a writable Open.
//
// Replacing the file would leave the old one under every other name of
// it, so a file with other names is refused with ErrLinked, as is one
// whose owner and group this process cannot give the new file.
func (d *DB) Beside() (*DB, error) {
	if d.opts.ReadOnly {
		return nil, ErrReadOnly
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.bolt == nil {
		return nil, ErrClosed
	}
	if d.filling != nil {
		return nil, ErrBusy
	}
	if err := d.Replaceable(); err != nil {
		return nil, err
	}
	tmp := d.path + besideSuffix
	b, err := d.newBeside(tmp)
	if err != nil {
		return nil, err
	}
	n := &DB{bolt: b, path: tmp, mode: d.mode, opts: d.opts, of: d}
	n.opts.NoSync = true
	if err := n.initSchema(b); err != nil {
		_ = b.Close()
		_ = os.Remove(tmp)
		return nil, err
	}
	d.filling = n
	return n, nil
}

// Replace puts src, made by d.Beside and filled since, in place of d's
// file, if keep, run on d's file with every transaction of d held off,
// returns nil; then, still holding them off, it calls after (a caller's
// caches of the old file go there). From then on d reads and writes what
// src held, and src is closed. On an error before the new file is in
// place nothing changed, and src is still the caller's to Discard.
func (d *DB) Replace(src *DB, keep func(*Tx) error, after func()) (err error) {
	if src.of != d {
		return errors.New("kv: Replace of a store not made by this store's Beside")
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.bolt == nil {
		return ErrClosed
	}
	if err := d.staleLocked(); err != nil {
		return fmt.Errorf("replace refused until the store is repaired: %w", err)
	}
	defer recoverCorrupt(&err, guard())
	if keep != nil {
		if err := d.bolt.View(func(btx *bolt.Tx) error { return keep(d.newTx(btx)) }); err != nil {
			return err
		}
	}
	src.mu.Lock()
	defer src.mu.Unlock()
	if src.bolt == nil {
		return ErrClosed
	}
	placed, err := d.swapLocked(src.bolt, src.path)
	if !placed {
		return err
	}
	src.bolt = nil
	d.filling = nil
	d.format, d.logsIndexed = src.format, src.logsIndexed
	if after != nil {
		after()
	}
	return err
}

// Discard closes d, a file made by Beside that Replace did not put in
// place, and removes it; after Replace it does nothing.
func (d *DB) Discard() error {
	if d.of == nil {
		return errors.New("kv: Discard of a store not made by Beside")
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.bolt == nil {
		return nil
	}
	err := d.bolt.Close()
	d.bolt = nil
	err = errors.Join(err, os.Remove(d.path))
	d.of.mu.Lock()
	d.of.filling = nil
	d.of.mu.Unlock()
	return err
}

// removeBeside removes the file a Beside of a process that died left next
// to the store, if it is a regular file.
func (d *DB) removeBeside() {
	name := d.path + besideSuffix
	if st, err := os.Lstat(name); err == nil && st.Mode().IsRegular() {
		_ = os.Remove(name)
	}
}
