package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/palimpsest-mem/memory"
	"github.com/spf13/cobra"
)

func (a *app) repairCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "repair",
		Short: "Make a store whose newest commit may have been lost writable again, recording it",
		Long: `repair ends the state in which a store may answer from an older commit: one of
its two meta pages failed its checksum (a power cut while committing, or
damage), so its newest commit may have been lost, every command warns and every
write is refused. What a lost commit wrote is not brought back; repair records
in the store which commit may have been lost and which fact ids it may have
handed out (found in the file's pages), and moves
the next id past them so that none is given twice. memctl check lists the
record. It also finishes a hard delete's pending scrub. On a sound store
it does nothing.`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			path, err := a.dbPath()
			if err != nil {
				return err
			}
			if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("no store at %s", path)
			}
			a.quietStale = true
			return a.withStore(false, func(s *memory.Store) error {
				rep, err := s.Repair(cmd.Context())
				if rep == nil && err != nil {
					return err
				}
				if a.json {
					res := struct {
						Repaired bool           `json:"repaired"`
						Repair   *memory.Repair `json:"repair,omitempty"`
					}{Repaired: rep != nil, Repair: rep}
					if jerr := a.printJSON(res); jerr != nil {
						return errors.Join(err, jerr)
					}
					return err
				}
				line := "nothing to repair"
				if rep != nil {
					line = repairLine(*rep)
				}
				if _, perr := fmt.Fprintln(a.stdout, line); perr != nil {
					return errors.Join(err, perr)
				}
				return err
			})
		},
	}
}

// repairLine says what a repair recorded.
func repairLine(r memory.Repair) string {
	ids := fmt.Sprintf("no fact id beyond %d was found", r.NextID-1)
	if r.LastID != 0 {
		ids = fmt.Sprintf("ids %d..%d may have been handed out by it and are never reused", r.FirstID, r.LastID)
	}
	return fmt.Sprintf("repaired %s: a meta page failed its checksum and commit %d may have been lost (answers came from commit %d); %s; next id %d",
		r.At.UTC().Format(time.DateTime), r.Lost, r.Answered, ids, r.NextID)
}
