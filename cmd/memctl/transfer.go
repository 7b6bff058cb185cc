package main

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/palimpsest-mem/memory"
	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
)

func (a *app) exportCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "export [FILE]",
		Short: "Write every fact, with history and logs, as JSON Lines to FILE or stdout",
		Args:  maxArgs("FILE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withStore(true, func(s *memory.Store) error {
				if len(args) == 0 || args[0] == "-" {
					return s.Export(cmd.Context(), a.stdout)
				}
				return writeFileAtomic(args[0], func(w io.Writer) error {
					return s.Export(cmd.Context(), w)
				})
			})
		},
	}
}

// writeFileAtomic writes path through a temporary file in the same
// directory, renamed into place once complete, so that an interrupted
// export never leaves a truncated file under the real name. The file is
// 0600: it holds personal data.
func writeFileAtomic(path string, write func(io.Writer) error) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	if err = tmp.Chmod(0o600); err != nil {
		return err
	}
	if err = write(tmp); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

func (a *app) importCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "import FILE",
		Short: "Read an export (- for stdin) into an empty store",
		Args:  exactArgs("FILE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			// Open the input before the store, so that a wrong file name
			// does not leave an empty store behind.
			in, size, closeIn, err := a.openInput(args[0])
			if err != nil {
				return err
			}
			defer closeIn()
			p := &importProgress{w: a.stderr, size: size}
			var n int
			err = a.withStore(false, func(s *memory.Store) error {
				n, err = s.Import(cmd.Context(), in, &memory.ImportOptions{Progress: p.update})
				return err
			})
			p.done(err == nil)
			if err != nil {
				return err
			}
			if a.json {
				return a.printJSON(map[string]int{"imported": n})
			}
			_, err = fmt.Fprintf(a.stdout, "imported %d facts\n", n)
			return err
		},
	}
}

// openInput opens name, or stdin for "-", with its size when known (-1 if not).
func (a *app) openInput(name string) (io.Reader, int64, func(), error) {
	if name == "-" {
		size := int64(-1)
		if st, ok := a.stdin.(interface{ Stat() (fs.FileInfo, error) }); ok {
			if fi, err := st.Stat(); err == nil && fi.Mode().IsRegular() {
				size = fi.Size()
			}
		}
		return a.stdin, size, func() {}, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, 0, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return nil, 0, nil, err
	}
	return f, fi.Size(), func() { _ = f.Close() }, nil
}

// progressMin is the input size from which import shows a progress bar;
// smaller files are done before a bar would be worth reading.
const progressMin = 1 << 20

// importProgress draws a byte-based bar from Import's callbacks, which
// Import makes synchronously, so it needs no lock. For input of unknown
// size (a pipe) the bar appears once progressMin bytes were read.
type importProgress struct {
	w    io.Writer
	size int64
	bar  *progressbar.ProgressBar
}

func (p *importProgress) update(_ int, n int64) {
	if p.bar == nil {
		switch {
		case p.size > progressMin:
			p.bar = p.newBar(p.size)
		case p.size < 0 && n > progressMin:
			p.bar = p.newBar(-1)
		default:
			return
		}
	}
	_ = p.bar.Set64(n)
}

func (p *importProgress) newBar(max int64) *progressbar.ProgressBar {
	w := p.w
	return progressbar.NewOptions64(max,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription("importing"),
		progressbar.OptionShowBytes(true),
		progressbar.OptionShowCount(),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionOnCompletion(func() { fmt.Fprintln(w) }),
	)
}

// done completes the bar, or ends its line so that an error starts on its own.
func (p *importProgress) done(ok bool) {
	if p.bar == nil {
		return
	}
	if ok {
		_ = p.bar.Finish()
	}
	if !p.bar.IsFinished() {
		fmt.Fprintln(p.w)
	}
}

func (a *app) checkCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "check",
		Short: "Verify the file and the store's invariants; list past repairs",
		Long: `check verifies the file's pages and the store's invariants and prints ok, or
exits 1 with every problem found. It is not ok while the store answers from an
older commit (its newest commit failed its checksum) or while a hard delete's
compaction is pending (the deleted text may still be in the file): memctl
repair ends both. Past repairs are listed after ok.`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			var repairs []memory.Repair
			a.quietStale = true // Check's own error says it
			err := a.withStore(true, func(s *memory.Store) error {
				err := s.Check(cmd.Context())
				if reps, rerr := s.Repairs(cmd.Context()); rerr == nil {
					repairs = reps
				} else if err == nil {
					err = rerr
				}
				return err
			})
			if a.json {
				res := struct {
					OK      bool            `json:"ok"`
					Error   string          `json:"error,omitempty"`
					Repairs []memory.Repair `json:"repairs,omitempty"`
				}{OK: err == nil, Repairs: repairs}
				if err != nil {
					res.Error = oneLine(err)
				}
				if jerr := a.printJSON(res); jerr != nil && err == nil {
					return jerr
				}
				return err
			}
			if err != nil {
				return err
			}
			if _, err := fmt.Fprintln(a.stdout, "ok"); err != nil {
				return err
			}
			for _, r := range repairs {
				if _, err := fmt.Fprintln(a.stdout, repairLine(r)); err != nil {
					return err
				}
			}
			return nil
		},
	}
}
