package jetstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nuid"
)

// Headers of JetStream's atomic batch publish (server 2.12 and later) and
// of the per-subject guard. nats.go v1.55 has the stream setting
// AllowAtomicPublish but no batch publisher: the protocol is plain headers.
const (
	hdrBatchID       = "Nats-Batch-Id"       // at most 64 characters, one per batch
	hdrBatchSeq      = "Nats-Batch-Sequence" // 1..n without gaps
	hdrBatchCommit   = "Nats-Batch-Commit"   // "1" on the last message
	hdrExpLastSubSeq = "Nats-Expected-Last-Subject-Sequence"
)

// JetStream error codes the backend tells apart.
const (
	errCodeWrongLastSeq      = 10071 // the guard failed: "wrong last sequence: N"
	errCodeWrongLastSeqFlyer = 10164 // the guarded subject has a write in flight
	errCodeBatchIncomplete   = 10176 // staged messages lost (a new leader, a timeout)
	errCodeBatchBusy         = 10210 // too many batches open on the stream (50 by default)
	errCodeNoMessage         = 10037 // no message found
	errCodeNoPeers           = 10005 // no suitable peers for placement
)

// maxBatch is the server's limit of messages in one batch (err_code 10199).
const maxBatch = 1000

// APIError is an error answer of the JetStream API. An API error is
// definite: the leader decided and applied nothing.
type APIError struct {
	Code        int    `json:"code"`
	ErrCode     int    `json:"err_code"`
	Description string `json:"description"`
}

func (e *APIError) Error() string {
	return fmt.Sprintf("%s (code %d, err_code %d)", e.Description, e.Code, e.ErrCode)
}

// IsConflict reports a failed guard: nothing of the batch was applied.
// A refusal for a write in flight (10164) compares no revision: that write
// is not visible yet, and may be lost if its leader crashes, so the user
// may still be at the guard's revision (crash_test.go reads the old head
// after such a refusal).
func IsConflict(err error) bool {
	var ae *APIError
	return errors.As(err, &ae) && (ae.ErrCode == errCodeWrongLastSeq || ae.ErrCode == errCodeWrongLastSeqFlyer)
}

// definite reports whether err says for sure that nothing was applied (an
// answer of the leader) rather than leaving the outcome unknown (a timeout,
// no responders during an election, a lost connection).
func definite(err error) bool {
	var ae *APIError
	return errors.As(err, &ae)
}

// write is one message of a batch. guard, when set, is the stream sequence
// the last message on subject must be at when the batch commits (0: no
// message at all).
type write struct {
	subject string
	data    []byte
	header  nats.Header
	guard   *uint64
}

type pubAck struct {
	Stream string    `json:"stream"`
	Seq    uint64    `json:"seq"`
	Count  int       `json:"count"`
	Error  *APIError `json:"error"`
}

// publishBatch sends writes as one atomic batch and returns the stream
// sequence of its last message. All messages but the last go without a
// reply (the leader stages them); the last carries the commit and waits
// for the ack. Every guard is checked on the leader at commit, before the
// whole batch is proposed as one raft entry: it applies whole or not at
// all. An error that is not an *APIError leaves the outcome unknown.
func publishBatch(ctx context.Context, nc *nats.Conn, writes []write) (uint64, error) {
	if len(writes) == 0 || len(writes) > maxBatch {
		return 0, fmt.Errorf("a batch of %d messages, 1 to %d", len(writes), maxBatch)
	}
	id := nuid.Next()
	for i, w := range writes {
		m := nats.NewMsg(w.subject)
		m.Data = w.data
		for k, vs := range w.header {
			for _, v := range vs {
				m.Header.Add(k, v)
			}
		}
		m.Header.Set(hdrBatchID, id)
		m.Header.Set(hdrBatchSeq, strconv.Itoa(i+1))
		if w.guard != nil {
			m.Header.Set(hdrExpLastSubSeq, strconv.FormatUint(*w.guard, 10))
		}
		if i < len(writes)-1 {
			if err := nc.PublishMsg(m); err != nil {
				return 0, fmt.Errorf("batch message %d: %w", i+1, err)
			}
			continue
		}
		m.Header.Set(hdrBatchCommit, "1")
		resp, err := nc.RequestMsgWithContext(ctx, m)
		if err != nil {
			return 0, fmt.Errorf("batch commit: %w", err)
		}
		var ack pubAck
		if err := json.Unmarshal(resp.Data, &ack); err != nil {
			return 0, fmt.Errorf("batch commit: ack %q: %w", resp.Data, err)
		}
		if ack.Error != nil {
			return 0, ack.Error
		}
		return ack.Seq, nil
	}
	return 0, errors.New("unreachable")
}

// stored is one message as a read returns it.
type stored struct {
	subject string
	seq     uint64
	data    []byte
	header  nats.Header
}

// errNoMsg: the read found no message.
var errNoMsg = errors.New("no message")

// leaderGet reads one message through the stream leader
// ($JS.API.STREAM.MSG.GET): linearizable, unlike Direct Get, which any
// replica answers. req is {"last_by_subj": s} or {"seq": n,
// "next_by_subj": s}.
func leaderGet(ctx context.Context, nc *nats.Conn, stream string, req msgGetRequest) (*stored, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	resp, err := nc.RequestWithContext(ctx, "$JS.API.STREAM.MSG.GET."+stream, body)
	if err != nil {
		return nil, fmt.Errorf("get from the leader of %s: %w", stream, err)
	}
	var r struct {
		Message *struct {
			Subject string `json:"subject"`
			Seq     uint64 `json:"seq"`
			Header  []byte `json:"hdrs"`
			Data    []byte `json:"data"`
		} `json:"message"`
		Error *APIError `json:"error"`
	}
	if err := json.Unmarshal(resp.Data, &r); err != nil {
		return nil, fmt.Errorf("get from the leader of %s: %q: %w", stream, resp.Data, err)
	}
	if r.Error != nil {
		if r.Error.Code == 404 || r.Error.ErrCode == errCodeNoMessage {
			return nil, errNoMsg
		}
		return nil, r.Error
	}
	if r.Message == nil {
		return nil, fmt.Errorf("get from the leader of %s: an answer without a message", stream)
	}
	s := &stored{subject: r.Message.Subject, seq: r.Message.Seq, data: r.Message.Data}
	if len(r.Message.Header) > 0 {
		h, err := nats.DecodeHeadersMsg(r.Message.Header)
		if err != nil {
			return nil, fmt.Errorf("message %d of %s: %w", s.seq, stream, err)
		}
		s.header = h
	}
	return s, nil
}

// msgGetRequest is the body of a STREAM.MSG.GET or DIRECT.GET request.
type msgGetRequest struct {
	Seq       uint64   `json:"seq,omitempty"`
	LastFor   string   `json:"last_by_subj,omitempty"`
	NextFor   string   `json:"next_by_subj,omitempty"`
	Batch     int      `json:"batch,omitempty"`
	MultiLast []string `json:"multi_last,omitempty"`
	UpToSeq   uint64   `json:"up_to_seq,omitempty"`
}

// errTooMany: a multi_last matched more subjects than the server answers
// at once (1024 by default, status 413).
var errTooMany = errors.New("too many subjects for one multi_last")

// multiLast reads the last message of every subject matching filters as of
// stream sequence upTo, through Direct Get: one replica answers under its
// lock, so the result is one prefix of the stream, but maybe a stale one;
// the caller checks it holds what it must.
func multiLast(ctx context.Context, nc *nats.Conn, stream string, filters []string, upTo uint64) ([]stored, error) {
	return directBatch(ctx, nc, stream, msgGetRequest{MultiLast: filters, UpToSeq: upTo})
}

// directNext reads up to n messages from seq on whose subjects match
// filter, through Direct Get (any replica).
func directNext(ctx context.Context, nc *nats.Conn, stream string, seq uint64, n int, filter string) ([]stored, error) {
	return directBatch(ctx, nc, stream, msgGetRequest{Seq: seq, NextFor: filter, Batch: n})
}

// directBatch sends a batched Direct Get and gathers the messages up to
// the end-of-batch status (204).
func directBatch(ctx context.Context, nc *nats.Conn, stream string, req msgGetRequest) ([]stored, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	inbox := nc.NewRespInbox()
	sub, err := nc.SubscribeSync(inbox)
	if err != nil {
		return nil, err
	}
	defer sub.Unsubscribe()
	if err := nc.PublishRequest("$JS.API.DIRECT.GET."+stream, inbox, body); err != nil {
		return nil, err
	}
	var out []stored
	for {
		m, err := sub.NextMsgWithContext(ctx)
		if err != nil {
			return nil, fmt.Errorf("direct get from %s: %w", stream, err)
		}
		switch st := m.Header.Get("Status"); st {
		case "":
			seq, err := strconv.ParseUint(m.Header.Get("Nats-Sequence"), 10, 64)
			if err != nil {
				return nil, fmt.Errorf("direct get from %s: sequence %q", stream, m.Header.Get("Nats-Sequence"))
			}
			out = append(out, stored{subject: m.Header.Get("Nats-Subject"), seq: seq, data: m.Data, header: m.Header})
		case "204": // end of the batch
			return out, nil
		case "404":
			return out, nil
		case "413":
			return nil, fmt.Errorf("direct get from %s: %w", stream, errTooMany)
		default:
			return nil, fmt.Errorf("direct get from %s: status %s %s", stream, st, m.Header.Get("Description"))
		}
	}
}

// secureDelete removes message seq and overwrites its bytes in the
// stream's blocks on every replica that applies the delete
// ({"seq": n} without no_erase). A message already gone is not an error.
func secureDelete(ctx context.Context, nc *nats.Conn, stream string, seq uint64) error {
	body := []byte(fmt.Sprintf(`{"seq":%d}`, seq))
	resp, err := nc.RequestWithContext(ctx, "$JS.API.STREAM.MSG.DELETE."+stream, body)
	if err != nil {
		return fmt.Errorf("secure delete of %d in %s: %w", seq, stream, err)
	}
	var r struct {
		Success bool      `json:"success"`
		Error   *APIError `json:"error"`
	}
	if err := json.Unmarshal(resp.Data, &r); err != nil {
		return fmt.Errorf("secure delete of %d in %s: %q: %w", seq, stream, resp.Data, err)
	}
	if r.Error != nil {
		if r.Error.ErrCode == errCodeSeqNotFound {
			return nil
		}
		return fmt.Errorf("secure delete of %d in %s: %w", seq, stream, r.Error)
	}
	if !r.Success {
		return fmt.Errorf("secure delete of %d in %s: not done", seq, stream)
	}
	return nil
}

// errCodeSeqNotFound: "sequence N not found" of a delete.
const errCodeSeqNotFound = 10043
