package reconcile

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory/internal/ollamatest"
	"github.com/palimpsest-mem/memory/internal/openaitest"
)

// dupAnswers repeat a key somewhere in an answer; encoding/json lets the
// last one win, which once turned a noop into a retraction.
var dupAnswers = []struct{ name, reply string }{
	{"action twice", `{"reasoning":"r","action":"noop","target":1,"event_from":null,"grain":null,"claims":[],"action":"invalidate"}`},
	{"target twice", `{"reasoning":"r","action":"invalidate","target":3,"target":1,"event_from":null,"grain":null,"claims":[]}`},
	{"escaped spelling of a key", `{"reasoning":"r","action":"noop","target":1,"event_from":null,"grain":null,"claims":[],"\u0061ction":"invalidate"}`},
	{"in a claim", `{"reasoning":"r","action":"add","target":0,"event_from":null,"grain":null,"claims":[{"subject":"","relation":"lives_in","object":"Lyon","object":"Paris","kind":"place"}]}`},
}

func TestParseAnswerRefusesDuplicateKeys(t *testing.T) {
	for _, tc := range dupAnswers {
		t.Run(tc.name, func(t *testing.T) {
			d, err := parseAnswer(tc.reply, deciderInput())
			if !errors.Is(err, ErrInvalidDecision) || !strings.Contains(err.Error(), "twice") {
				t.Errorf("accepted as %+v, error %v", d, err)
			}
		})
	}
	// Keys repeated in different objects are no duplicate.
	ok := `{"reasoning":"r","action":"add","target":0,"event_from":null,"grain":null,"claims":[` +
		`{"subject":"","relation":"lives_in","object":"Lyon","kind":"place"},{"subject":"sister","relation":"lives_in","object":"Kazan","kind":"place"}]}`
	if d, err := parseAnswer(ok, deciderInput()); err != nil || len(d.Claims) != 2 {
		t.Errorf("%+v %v", d, err)
	}
}

// A duplicate key is an invalid answer like any other: asked once more,
// then the error.
func TestDuplicateKeyRetried(t *testing.T) {
	d, srv := fakeOpenAI(t, "", 2*time.Second, dupAnswers[0].reply, goodUpdate)
	got, err := d.Decide(context.Background(), deciderInput())
	if err != nil || got.Action != Update || srv.Calls() != 2 {
		t.Fatalf("%+v %v after %d calls", got, err, srv.Calls())
	}
	o, srv2 := fakeDecider(t, 2*time.Second, dupAnswers[0].reply)
	if _, err := o.Decide(context.Background(), deciderInput()); !errors.Is(err, ErrInvalidDecision) || len(srv2.ChatRequests()) != 2 {
		t.Errorf("%v after %d requests", err, len(srv2.ChatRequests()))
	}
}

// A vector longer than MaxVectorLen is refused by both clients, as one of
// no values or of unequal lengths is.
func TestEmbedRefusesOversizedVectors(t *testing.T) {
	long := func(string) []float32 { return make([]float32, 20000) }
	srv := openaitest.New(t)
	srv.Embed = long
	e, _ := NewOpenAIEmbedder("m", &OpenAIOptions{BaseURL: srv.BaseURL(), Timeout: 2 * time.Second})
	if vs, err := e.Embed(context.Background(), []string{"a"}); err == nil {
		t.Errorf("openai: accepted a vector of %d values", len(vs[0]))
	}
	osrv := ollamatest.New(t)
	osrv.Embed = long
	oe, _ := NewEmbedder("m", &OllamaOptions{Host: osrv.URL, Timeout: 2 * time.Second})
	if vs, err := oe.Embed(context.Background(), []string{"a"}); err == nil {
		t.Errorf("ollama: accepted a vector of %d values", len(vs[0]))
	}
}
