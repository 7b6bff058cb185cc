package memory_test

import (
	"errors"
	"fmt"
	"maps"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/internal/ollamatest"
)

// switchable serves a handler on a fixed loopback address that can stop
// listening (connections are then refused) and listen again, so that a
// store whose Ollama host is fixed at Open meets a refused connection
// between two answered ones.
type switchable struct {
	h    http.Handler
	addr string
	hs   *http.Server
	done chan struct{}
}

func newSwitchable(t *testing.T, h http.Handler) *switchable {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	sw := &switchable{h: h, addr: ln.Addr().String()}
	sw.serve(ln)
	return sw
}

func (sw *switchable) serve(ln net.Listener) {
	sw.hs, sw.done = &http.Server{Handler: sw.h}, make(chan struct{})
	go func(hs *http.Server, done chan struct{}) {
		defer close(done)
		_ = hs.Serve(ln)
	}(sw.hs, sw.done)
}

// refuse closes the listener and every connection.
func (sw *switchable) refuse() {
	if sw.hs != nil {
		_ = sw.hs.Close()
		<-sw.done
		sw.hs = nil
	}
}

// accept listens again on the same address.
func (sw *switchable) accept() error {
	if sw.hs != nil {
		return nil
	}
	ln, err := net.Listen("tcp", sw.addr)
	if err != nil {
		return err
	}
	sw.serve(ln)
	return nil
}

// A fault of the model for one Remember call.
type faultKind string

const (
	faultNone       faultKind = "none"
	faultError500   faultKind = "error 500"
	faultGarbage    faultKind = "garbage"
	faultHang       faultKind = "hang"
	faultRefused    faultKind = "refused"
	faultOutOfRange faultKind = "target out of range"
)

var faultKinds = []faultKind{faultNone, faultError500, faultGarbage, faultHang, faultRefused, faultOutOfRange}

// What each fault leaves in the decision's Fallback: the reason, not just
// the fact that there was one.
var faultReason = map[faultKind]string{
	faultError500:   "500",
	faultGarbage:    "not the JSON expected",
	faultHang:       "timed out after",
	faultRefused:    "connection refused",
	faultOutOfRange: "target out of range",
}

// Faults of the model (the fake Ollama server) switched between Remember
// calls while other goroutines keep adding and superseding facts: with
// either fallback policy no acknowledged fact is lost, every fallback is in
// its decision and the decision log, a refused fact (FallbackError) changes
// nothing, and answers without a fault are applied as given.
func TestRememberFaultsBesideWrites(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	for _, policy := range []memory.FallbackPolicy{memory.FallbackAdd, memory.FallbackError} {
		t.Run("fallback "+string(policy), func(t *testing.T) { faultsBesideWrites(t, policy) })
	}
	// The fake servers are closed and the stores too: nothing may linger,
	// not even the Ollama client's keep-alive connections.
	goleak.VerifyNone(t, ignore)
}

func faultsBesideWrites(t *testing.T, policy memory.FallbackPolicy) {
	const rounds, writers = 4, 3
	srv := ollamatest.New(t)
	sw := newSwitchable(t, srv.Config.Handler)
	defer sw.refuse()
	var answer atomic.Value // the reply of the next chat without a transport fault
	answer.Store(ollamatest.DefaultChatReply)
	srv.Chat = func(req ollamatest.ChatRequest) string {
		if a := answer.Load().(string); a != "" {
			return a
		}
		// An update of candidate 1 when there is one, else an add.
		for _, m := range req.Messages {
			if m.Role == "user" && strings.Contains(m.Content, "\n1. (recorded ") {
				return reply("update", 1, "", "")
			}
		}
		return reply("add", 0, "", "")
	}
	dec := must[memory.Decider](t)(memory.OllamaDecider("m", &memory.OllamaOptions{Host: "http://" + sw.addr, Timeout: 300 * time.Millisecond}))
	s, _ := open(t, nil, &memory.Options{NoSync: true, Decider: dec, Fallback: policy})

	var mu sync.Mutex
	acked := map[uint64]bool{}
	ack := func(id uint64) { mu.Lock(); acked[id] = true; mu.Unlock() }

	// Plain writes from other goroutines, until the Remember calls are done.
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var writes atomic.Int64
	errc := make(chan error, writers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var last uint64
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				var f memory.Fact
				var err error
				text := fmt.Sprintf("Writer %d likes green tea, cup %d.", w, i)
				if last != 0 && i%3 == 0 {
					f, err = s.Supersede(ctx, "", last, memory.Note{Text: text})
				} else {
					f, err = s.Add(ctx, memory.Note{Text: text})
				}
				// Only Remember supersedes others' facts; the writer's own
				// last fact may be one of them.
				if err != nil && !errors.Is(err, memory.ErrNotCurrent) {
					errc <- err
					return
				}
				if err == nil {
					ack(f.ID)
					last = f.ID
					writes.Add(1)
				}
				time.Sleep(2 * time.Millisecond) // a chat's pace, not a flood
			}
		}()
	}

	kindOf := map[uint64]faultKind{} // decision id → the fault it met
	fallbacks := map[faultKind]int{}
	var refused []string          // texts FallbackError refused
	var updates []memory.Decision // updates answered without a fault
	start := time.Now()
	for r := range rounds {
		for _, kind := range faultKinds {
			srv.SetFault(ollamatest.OK)
			answer.Store("")
			if err := sw.accept(); err != nil {
				t.Fatal(err)
			}
			switch kind {
			case faultError500:
				srv.SetFault(ollamatest.Error500)
			case faultGarbage:
				srv.SetFault(ollamatest.Garbage)
			case faultHang:
				srv.SetFault(ollamatest.Hang)
			case faultRefused:
				sw.refuse()
			case faultOutOfRange:
				answer.Store(reply("update", 99, "", ""))
			}
			text := fmt.Sprintf("Writer likes black tea now, round %d %s.", r, kind)
			t0 := time.Now()
			out, err := s.Remember(ctx, memory.Note{Text: text})
			if el := time.Since(t0); el > 3*time.Second {
				t.Errorf("%s: Remember took %v", kind, el)
			}
			d := out.Decision
			if d.ID == 0 {
				t.Fatalf("%s: no decision recorded: %v", kind, err)
			}
			kindOf[d.ID] = kind
			if kind == faultNone {
				if err != nil || d.Fallback != "" || out.Fact.ID == 0 || out.Fact.Text != text || d.Decider != "ollama" {
					t.Errorf("no fault: %v, %+v", err, out)
				}
				ack(out.Fact.ID)
				if d.Action == memory.ActionUpdate {
					updates = append(updates, d)
				}
				continue
			}
			fallbacks[kind]++
			if !strings.Contains(d.Fallback, faultReason[kind]) {
				t.Errorf("%s: fallback %q does not say %q", kind, d.Fallback, faultReason[kind])
			}
			switch policy {
			case memory.FallbackAdd:
				if err != nil || d.Action != memory.ActionAdd || d.Added == 0 || out.Fact.ID != d.Added || out.Fact.Text != text {
					t.Errorf("%s, fallback add: %v, %+v", kind, err, out)
				}
				ack(out.Fact.ID)
			case memory.FallbackError:
				if !errors.Is(err, memory.ErrDecider) || d.Action != "" || d.Added != 0 || out.Fact.ID != 0 {
					t.Errorf("%s, fallback error: %v, %+v", kind, err, out)
				}
				refused = append(refused, text)
			}
		}
	}
	elapsed := time.Since(start)
	close(stop)
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Error(err)
	}

	// Every decision is in the log, with its fallback, and only those.
	logged := must[[]memory.Decision](t)(s.Decisions(ctx, "", 0))
	if len(logged) != len(kindOf) {
		t.Errorf("%d decisions logged, %d Remember calls", len(logged), len(kindOf))
	}
	logFallbacks := map[faultKind]int{}
	for _, d := range logged {
		kind, ok := kindOf[d.ID]
		if !ok {
			t.Errorf("decision %d was not returned by any Remember", d.ID)
			continue
		}
		if (d.Fallback != "") != (kind != faultNone) {
			t.Errorf("decision %d met %s, logged fallback %q", d.ID, kind, d.Fallback)
		}
		if d.Fallback != "" {
			logFallbacks[kind]++
		}
	}
	if !maps.Equal(fallbacks, logFallbacks) {
		t.Errorf("fallbacks returned %v, logged %v", fallbacks, logFallbacks)
	}
	for _, kind := range faultKinds[1:] {
		if fallbacks[kind] != rounds {
			t.Errorf("%s: %d fallbacks, want %d", kind, fallbacks[kind], rounds)
		}
	}
	// No acknowledged fact is lost; no refused one is stored.
	all := must[[]memory.Fact](t)(s.List(ctx, "", &memory.ListOptions{All: true}))
	have := map[uint64]bool{}
	for _, f := range all {
		have[f.ID] = true
		if slices.Contains(refused, f.Text) {
			t.Errorf("the refused %q was stored as fact %d", f.Text, f.ID)
		}
	}
	for id := range acked {
		if !have[id] {
			t.Errorf("acknowledged fact %d is missing", id)
		}
	}
	// An update answered without a fault was applied as given, writers
	// racing on its target notwithstanding.
	for _, d := range updates {
		if g := getFact(t, s, "", d.Target); g.SupersededBy != d.Added {
			t.Errorf("decision %d updated fact %d, which is superseded by %d", d.ID, d.Target, g.SupersededBy)
		}
	}
	checkClean(t, s)
	t.Logf("fallback %s: %d Remember calls in %v, %d plain writes beside them, %d facts; fallbacks by fault %v; %d chat requests",
		policy, len(kindOf), elapsed.Round(time.Millisecond), writes.Load(), len(all), fallbacks, len(srv.ChatRequests()))
	t.Logf("%d of the %d answers without a fault were updates", len(updates), rounds)
	s.Close()
	sw.refuse()
	srv.Close()
}
