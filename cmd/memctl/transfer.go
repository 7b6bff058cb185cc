package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/palimpsest-mem/memory"
	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
)

func (a *app) exportCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "export [FILE]",
		Short: "Write every fact, with history and logs, as JSON Lines to FILE or stdout",
		Long: `export writes every fact, with its history, and the decision and conflict
logs as JSON Lines, to stdout when FILE is absent or -.

A regular FILE is replaced whole, and only once the export is complete, by a
new file with the old one's mode (and owner, where allowed); a new FILE is
0600. A failed export leaves FILE as it was. A FIFO, socket or device is
written to, never replaced, and so are /dev/stdout and /dev/fd/N, which name
one of memctl's open descriptors. A symbolic link is followed and kept; a link
to nothing is refused, and so is the store's own file.`,
		Args: maxArgs("FILE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			path, err := a.dbPath()
			if err != nil {
				return err
			}
			return a.withStore(true, func(s *memory.Store) error {
				ctx := cmd.Context()
				if len(args) == 0 || args[0] == "-" || a.streamFile {
					return s.Export(ctx, a.stdout)
				}
				// Stat after the open, which refused a missing store.
				store, err := os.Stat(path)
				if err != nil {
					return err
				}
				return writeOutput(ctx, args[0], store, func(w io.Writer) error { return s.Export(ctx, w) })
			})
		},
	}
}

// maxLinks bounds the symbolic links followed to a file, as the kernel's
// own ELOOP does, so that a loop of links ends.
const maxLinks = 40

// target is what a file name given on the command line names.
type target struct {
	path string      // the name with every symbolic link resolved
	info fs.FileInfo // what is at path; nil if nothing is yet
	fd   int         // >= 0: this process's descriptor fd, named through /dev/fd or /proc
}

// resolve follows name's symbolic links itself, rather than leaving it to
// open or rename, so that what is at the end of them decides how it is
// written: a rename over a link would replace the link, and the links of
// /proc/self/fd name descriptors (a pipe, a socket), not paths.
func resolve(name string) (target, error) {
	if name == "" {
		return target{}, errors.New("empty file name")
	}
	if strings.HasSuffix(name, string(filepath.Separator)) {
		return target{}, fmt.Errorf("%s names a directory, not a file", name)
	}
	p := name
	for links := 0; ; links++ {
		dir, err := filepath.EvalSymlinks(filepath.Dir(p))
		if err != nil {
			return target{}, err
		}
		base := filepath.Base(p)
		p = filepath.Join(dir, base)
		if fd, ok := ownDescriptor(dir, base); ok {
			return target{path: p, fd: fd}, nil
		}
		fi, err := os.Lstat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist) && links > 0:
			// Creating a link's missing target would put a file of personal
			// data wherever the link points, which the name given does not
			// show: refused, as cp refuses to write through such a link.
			return target{}, fmt.Errorf("%s is a dangling link: %s does not exist", name, p)
		case errors.Is(err, fs.ErrNotExist):
			return target{path: p, fd: -1}, nil
		case err != nil:
			return target{}, err
		case fi.Mode().Type() != fs.ModeSymlink:
			return target{path: p, info: fi, fd: -1}, nil
		case links == maxLinks:
			return target{}, fmt.Errorf("%s: too many levels of symbolic links", name)
		}
		l, err := os.Readlink(p)
		if err != nil {
			return target{}, err
		}
		if !filepath.IsAbs(l) {
			l = filepath.Join(dir, l)
		}
		p = l
	}
}

// ownDescriptor reports whether dir/base names one of this process's open
// descriptors: dir is, with its links resolved, /proc/PID/fd (what
// /dev/fd, /proc/self/fd and /dev/stdout lead to on Linux), a thread's
// /proc/PID/task/TID/fd, or the /dev/fd of the BSDs.
func ownDescriptor(dir, base string) (int, bool) {
	fd, err := strconv.Atoi(base)
	if err != nil || fd < 0 || strconv.Itoa(fd) != base {
		return 0, false
	}
	dir, err = filepath.Abs(dir)
	if err != nil {
		return 0, false
	}
	proc := "/proc/" + strconv.Itoa(os.Getpid()) + "/"
	if dir == "/dev/fd" || dir == proc+"fd" {
		return fd, true
	}
	task, ok := strings.CutPrefix(dir, proc+"task/")
	if !ok {
		return 0, false
	}
	tid, ok := strings.CutSuffix(task, "/fd")
	_, err = strconv.Atoi(tid)
	return fd, ok && err == nil
}

// writeOutput writes to the file name by what it is: a regular file is
// replaced atomically, a new one created 0600, and a descriptor, FIFO,
// socket or device is written to in place, so that nothing but the named
// file's contents ever changes. The file store (the store's own) is
// refused, under whatever name: an export over it would destroy it.
func writeOutput(ctx context.Context, name string, store fs.FileInfo, write func(io.Writer) error) error {
	t, err := resolve(name)
	if err != nil {
		return err
	}
	isStore := func(fi fs.FileInfo) error {
		if os.SameFile(fi, store) {
			return fmt.Errorf("%s is the store itself: export to another file", name)
		}
		return nil
	}
	if t.fd >= 0 {
		f, err := dupDescriptor(t.fd, name)
		if err != nil {
			return err
		}
		if fi, err := f.Stat(); err == nil && isStore(fi) != nil {
			_ = f.Close()
			return isStore(fi)
		}
		return writeStream(ctx, f, write)
	}
	if t.info != nil {
		if err := isStore(t.info); err != nil {
			return err
		}
	}
	if t.info == nil {
		return replaceFile(ctx, t.path, nil, write)
	}
	switch typ := t.info.Mode().Type(); {
	case typ == 0:
		return replaceFile(ctx, t.path, t.info, write)
	case typ == fs.ModeDir:
		return fmt.Errorf("%s is a directory", name)
	case typ == fs.ModeSocket:
		c, err := (&net.Dialer{}).DialContext(ctx, "unix", t.path)
		if err != nil {
			return err
		}
		return writeStream(ctx, c, write)
	case typ == fs.ModeNamedPipe:
		f, err := openFIFO(ctx, t.path, os.O_WRONLY)
		if err != nil {
			return err
		}
		return writeStream(ctx, f, write)
	default: // a device
		f, err := os.OpenFile(t.path, os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		return writeStream(ctx, f, write)
	}
}

// writeStream writes to w in place and closes it. A cancelled ctx ends a
// write that waits on a slow reader, where w has deadlines (a FIFO, a
// socket; not an inherited descriptor, which stays blocking for whoever
// shares it).
func writeStream(ctx context.Context, w io.WriteCloser, write func(io.Writer) error) error {
	if d, ok := w.(interface{ SetWriteDeadline(time.Time) error }); ok {
		stop := context.AfterFunc(ctx, func() { _ = d.SetWriteDeadline(time.Unix(1, 0)) })
		defer stop()
	}
	err := write(w)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil && ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// openFIFO opens a FIFO, which waits for the other end to be opened; a
// cancelled ctx ends the wait.
func openFIFO(ctx context.Context, path string, flag int) (*os.File, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	type opened struct {
		f   *os.File
		err error
	}
	ch := make(chan opened, 1)
	go func() {
		f, err := os.OpenFile(path, flag, 0)
		ch <- opened{f, err}
	}()
	select {
	case o := <-ch:
		return o.f, o.err
	case <-ctx.Done():
	}
	// Stand in for the other end (a read-write open of a FIFO waits for
	// nobody), so that the waiting open returns, then close both.
	if other, err := os.OpenFile(path, os.O_RDWR, 0); err == nil {
		if o := <-ch; o.f != nil {
			_ = o.f.Close()
		}
		_ = other.Close()
	}
	return nil, ctx.Err()
}

// replaceFile writes path through a temporary file in its directory,
// renamed over it once complete and synced, so that an interrupted or
// failed write leaves the old file, or none, and never a truncated one.
// The new file takes old's mode and, where the process may set it, its
// owner; without old it is 0600: it holds personal data.
func replaceFile(ctx context.Context, path string, old fs.FileInfo, write func(io.Writer) error) (err error) {
	perm := fs.FileMode(0o600)
	if old != nil {
		// Replacing needs only the directory's permission; a file its
		// owner made read-only is refused, as writing into it would be.
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		_ = f.Close()
		perm = old.Mode().Perm()
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	if old != nil {
		keepOwner(tmp, old)
	}
	if err = tmp.Chmod(perm); err != nil { // exact: umask does not apply to a chmod
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
	if err = ctx.Err(); err != nil {
		return err
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	return syncDir(dir)
}

func (a *app) importCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "import FILE",
		Short: "Read an export (- for stdin) into an empty store",
		Args:  exactArgs("FILE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			// Open the input before the store, so that a wrong file name
			// does not leave an empty store behind.
			in, size, closeIn, err := a.openInput(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			defer closeIn()
			p := &importProgress{w: a.rawStderr, size: size}
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

// openInput opens name, or stdin for "-", with the size left to read when
// known (-1 if not). Names are resolved as export resolves them, so that
// /dev/stdin and /dev/fd/N read the descriptor from where it is, and a
// FIFO's wait for its writer ends with ctx.
func (a *app) openInput(ctx context.Context, name string) (io.Reader, int64, func(), error) {
	if name == "-" || a.streamFile {
		return a.stdin, sizeLeft(a.stdin), func() {}, nil
	}
	t, err := resolve(name)
	if err != nil {
		return nil, 0, nil, err
	}
	var f io.ReadCloser
	switch {
	case t.fd >= 0:
		f, err = dupDescriptor(t.fd, name)
	case t.info != nil && t.info.IsDir():
		err = fmt.Errorf("%s is a directory", name)
	case t.info != nil && t.info.Mode().Type() == fs.ModeSocket:
		f, err = (&net.Dialer{}).DialContext(ctx, "unix", t.path)
	case t.info != nil && t.info.Mode().Type() == fs.ModeNamedPipe:
		f, err = openFIFO(ctx, t.path, os.O_RDONLY)
	default: // a regular file, a device, or nothing: open's error names it
		f, err = os.Open(t.path)
	}
	if err != nil {
		return nil, 0, nil, err
	}
	return f, sizeLeft(f), func() { _ = f.Close() }, nil
}

// sizeLeft is what is left to read of r if r is a regular file, else -1.
func sizeLeft(r io.Reader) int64 {
	f, ok := r.(interface {
		Stat() (fs.FileInfo, error)
		Seek(int64, int) (int64, error)
	})
	if !ok {
		return -1
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return -1
	}
	off, err := f.Seek(0, io.SeekCurrent)
	if err != nil || off > fi.Size() {
		return -1
	}
	return fi.Size() - off
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
exits 1 with every problem found. It is not ok while the store may answer from
an older commit (a meta page failed its checksum) or while a hard delete's
scrub is pending (the deleted text may still be in the file's free pages):
memctl repair ends both. Past repairs are listed after ok.`,
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
