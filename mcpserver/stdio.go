package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxLineBytes bounds one JSON-RPC line on stdio. A fact is at most 600
// runes; a longer line is no call a client of this server makes, and is
// answered with an error without being kept.
const MaxLineBytes = 1 << 20

// ServeStdio runs server over r and w, newline-delimited JSON-RPC (MCP's
// stdio transport), until ctx ends or r ends (the client closed stdin).
// Nothing but protocol is written to w. A line that is not one JSON-RPC
// message — not JSON, a batch, a frame of the wrong shape, one over
// MaxLineBytes — is answered with a JSON-RPC error and the session goes
// on: the SDK's own reader ends the session on the first such line.
func ServeStdio(ctx context.Context, server *mcp.Server, r io.Reader, w io.Writer) error {
	err := server.Run(ctx, NewStdioTransport(r, w))
	if errors.Is(err, context.Canceled) && ctx.Err() != nil {
		return nil // the end asked for
	}
	return err
}

// NewStdioTransport is the transport ServeStdio runs on, for a server
// connected some other way (mcp.Server.Connect).
func NewStdioTransport(r io.Reader, w io.Writer) mcp.Transport {
	return &stdio{r: r, w: &lockedWriter{w: w}}
}

type stdio struct {
	r io.Reader
	w *lockedWriter
}

// Connect starts the filter between r and the SDK's reader: each line that
// is a JSON-RPC message goes through as it came, every other line is
// answered here.
func (t *stdio) Connect(ctx context.Context) (mcp.Connection, error) {
	pr, pw := io.Pipe()
	go t.filter(pw)
	return (&mcp.IOTransport{Reader: pr, Writer: t.w, MaxLineLength: -1}).Connect(ctx)
}

func (t *stdio) filter(pw *io.PipeWriter) {
	br := bufio.NewReaderSize(t.r, 64<<10)
	for {
		line, tooLong, err := readLine(br)
		if len(bytes.TrimSpace(line)) > 0 || tooLong {
			if msg := check(line, tooLong); msg != nil {
				if t.w.writeLine(msg) != nil {
					pw.CloseWithError(io.ErrClosedPipe)
					return
				}
			} else if _, werr := pw.Write(append(line, '\n')); werr != nil {
				return // the session is closed
			}
		}
		if err != nil {
			pw.Close() // end of input: the session ends
			return
		}
	}
}

// readLine reads one line without its end; past MaxLineBytes it reads on
// to the line's end without keeping it and says so.
func readLine(br *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > MaxLineBytes+1 {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimRight(line, "\r\n"), tooLong, err
	}
}

// check returns nil for a line that is one JSON-RPC message, else the
// error answer to write for it: a parse error for what is not JSON, an
// invalid request for JSON that is no message (with the request's id when
// it has one the answer can name).
func check(line []byte, tooLong bool) []byte {
	switch {
	case tooLong:
		return errorLine(nil, jsonrpc.CodeParseError, fmt.Sprintf("a line over %d bytes", MaxLineBytes))
	case !json.Valid(line):
		return errorLine(nil, jsonrpc.CodeParseError, "not JSON")
	}
	line = bytes.TrimSpace(line)
	if line[0] == '[' {
		return errorLine(nil, jsonrpc.CodeInvalidRequest, "batches are not supported: send one message a line")
	}
	if _, err := jsonrpc.DecodeMessage(line); err != nil {
		var probe struct {
			ID json.RawMessage `json:"id"`
		}
		_ = json.Unmarshal(line, &probe)
		return errorLine(probe.ID, jsonrpc.CodeInvalidRequest, "not a JSON-RPC 2.0 message: "+err.Error())
	}
	return nil
}

// errorLine is a JSON-RPC error response; id is the request's when it is
// a string or a number, else null.
func errorLine(id json.RawMessage, code int64, message string) []byte {
	var v any
	if json.Unmarshal(id, &v) == nil {
		switch v.(type) {
		case string, float64:
		default:
			id = nil
		}
	} else {
		id = nil
	}
	if id == nil {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int64  `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}{code, message}})
	return b
}

// lockedWriter keeps the filter's answers and the SDK's messages whole,
// one line each: the SDK writes a message in one Write.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) writeLine(b []byte) error {
	_, err := l.Write(append(b, '\n'))
	return err
}

// Close leaves w open: it is the caller's (stdout).
func (l *lockedWriter) Close() error { return nil }
