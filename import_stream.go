package memory

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
)

// importChunkLines is how many lines a worker decodes at a time.
const importChunkLines = 512

// streamImport reads the lines after the header and decodes them on every
// core (JSON decoding is most of an import's work), handing each chunk to
// write in file order, as soon as it and every chunk before it are
// decoded. At most a few chunks per core are held at once, so memory does
// not grow with the input. Reading stops at the first chunk found bad, or
// at the first error of write, which is returned; a chunk's own error
// (its first bad line) is write's to report, after the lines before it.
func (s *Store) streamImport(ctx context.Context, sc *lineReader, hdr exportHeader, write func(*importChunk) error, progress func(facts int)) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	procs := runtime.GOMAXPROCS(0)
	jobs := make(chan *importChunk)
	order := make(chan *importChunk, 2*procs)
	var failed atomic.Bool
	var workers sync.WaitGroup
	for range procs {
		workers.Go(func() {
			for c := range jobs {
				s.decodeChunk(ctx, c, hdr)
				if c.err != nil {
					failed.Store(true)
				}
				close(c.decoded)
			}
		})
	}
	var readErr error
	read := make(chan struct{})
	go func() {
		defer close(read)
		defer close(order)
		defer workers.Wait()
		defer close(jobs)
		readErr = readChunks(ctx, sc, &failed, progress, func(c *importChunk) bool {
			c.decoded = make(chan struct{})
			select {
			case order <- c:
			case <-ctx.Done():
				return false
			}
			select {
			case jobs <- c:
				return true
			case <-ctx.Done():
				close(c.decoded) // never decoded: its writer has gone
				return false
			}
		})
	}()
	var err error
	for c := range order {
		if err != nil {
			continue // drained, so the reader ends
		}
		select {
		case <-c.decoded:
		case <-ctx.Done():
		}
		if err = ctx.Err(); err == nil {
			err = write(c)
		}
		if err != nil {
			cancel()
		}
	}
	<-read
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return readErr
}

// readChunks cuts the lines of sc into chunks and hands each to send,
// which returns false to stop. It returns the read error that ended the
// input early, naming its line.
func readChunks(ctx context.Context, sc *lineReader, failed *atomic.Bool, progress func(int), send func(*importChunk) bool) error {
	var cur *importChunk
	flush := func() bool {
		c := cur
		cur = nil
		return c == nil || send(c)
	}
	line, facts := 1, 0
	// Blank lines are held back: at the end of the file they are no
	// record (an editor's last newline), before a record they are handed
	// out with it, and the first is refused (decodeChunk).
	var blanks int
	for !failed.Load() && ctx.Err() == nil && sc.Scan() {
		line++
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			blanks++
			continue
		}
		for ; blanks > 0; blanks-- {
			if cur == nil {
				cur = &importChunk{first: line - blanks}
			}
			cur.lines = append(cur.lines, nil)
			if len(cur.lines) == importChunkLines && !flush() {
				return nil
			}
		}
		if cur == nil {
			cur = &importChunk{first: line}
		}
		b := bytes.Clone(sc.Bytes())
		cur.lines = append(cur.lines, b)
		if !isLogLine(b) {
			if facts++; facts%1000 == 0 && progress != nil {
				progress(facts)
			}
		}
		if len(cur.lines) == importChunkLines && !flush() {
			return nil
		}
	}
	if !flush() {
		return nil
	}
	if err := sc.Err(); err != nil && !failed.Load() {
		return fmt.Errorf("%w: line %d: %w", ErrBadImport, line+1, err)
	}
	return nil
}
