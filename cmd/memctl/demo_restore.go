package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/palimpsest-mem/memory"
)

// restore moves the memory to a new store: an export, and an import into
// an empty file, which fills a file beside it a batch at a time and puts
// it in place in one step once the whole is read and checked.
func (d *demo) restore() error {
	d.printf("\n17. Moving the memory to a new file: export, then import\n")
	var export strings.Builder
	if err := d.s.Export(d.ctx, &export); err != nil {
		return err
	}
	// A folder of its own, gone afterwards: demo --keep leaves only its
	// store where it was asked to.
	dir, err := os.MkdirTemp("", "memctl-demo-restore-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "restored.db")
	r, err := memory.Open(path, 0o600, &memory.Options{Clock: func() time.Time { return d.now }, NoSync: true})
	if err != nil {
		return err
	}
	defer r.Close()
	n, err := r.Import(d.ctx, strings.NewReader(export.String()), nil)
	if err != nil {
		return err
	}
	d.printf("    Import → %d facts (%d bytes of export), written into %s and renamed\n", n, export.Len(), filepath.Base(path)+".import")
	d.printf("    over %s once checked: memory bounded by a batch, nothing visible until then\n", filepath.Base(path))
	if _, err := os.Stat(path + ".import"); !os.IsNotExist(err) {
		return fmt.Errorf("demo: the import left %s.import beside the new store (%v)", path, err)
	}
	var again strings.Builder
	if err := r.Export(d.ctx, &again); err != nil {
		return err
	}
	if again.String() != export.String() {
		return fmt.Errorf("demo: the restored store exports differently from the one it came from")
	}
	if err := r.Check(d.ctx); err != nil {
		return fmt.Errorf("demo: Check of the restored store: %w", err)
	}
	d.printf("    Its export is byte for byte the first one's, and Check is clean.\n")
	return nil
}
