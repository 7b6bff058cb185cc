package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palimpsest-mem/memory/internal/ollamatest"
	"github.com/palimpsest-mem/memory/internal/openaitest"
)

func TestClaimsCommand(t *testing.T) {
	data := filepath.Join(t.TempDir(), "claims.jsonl")
	err := os.WriteFile(data, []byte(strings.Join([]string{
		`{"text":"I work at Contoso and live in Kazan.","claims":[{"subject":"","relation":"works_at","object":"Contoso","kind":"company"},{"subject":"","relation":"lives_in","object":"Kazan","kind":"place"}]}`,
		`{"text":"My sister lives in Kazan.","claims":[{"subject":"sister","relation":"lives_in","object":"Kazan","kind":"place"}]}`,
		`{"text":"Remind me to call Anna.","claims":[]}`,
		`{"text":"I like jazz.","claims":[{"subject":"","relation":"likes","object":"free jazz","kind":"thing"}]}`,
	}, "\n")+"\n"), 0o600)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	c := claimsCmd()
	c.SetOut(&out)
	c.SetArgs([]string{"--data", data, "-v"})
	if err := c.Execute(); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"4 facts, 1 labelled with no claim",
		"lives_in         2          2        2       1.00    1.00",
		"likes         1          1        0       0.00    0.00",
		"extra  (user, likes, \"jazz\")",
		"claims: precision 0.750, recall 0.750 (3 matched of 4 extracted, 4 labelled); 1 of 1 facts with no claim got none",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	c = claimsCmd()
	c.SetOut(&out)
	c.SetArgs([]string{"--data", filepath.Join(t.TempDir(), "none.jsonl")})
	if err := c.Execute(); err == nil {
		t.Error("a missing file did not fail")
	}
}

// TestClaimsDefaultData runs the command on the dev set it defaults to.
func TestClaimsDefaultData(t *testing.T) {
	var out bytes.Buffer
	c := claimsCmd()
	c.SetOut(&out)
	t.Chdir("..") // the default is a path from the project's root, where go run ./bench runs
	c.SetArgs(nil)
	if err := c.Execute(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "works_at") || !strings.Contains(out.String(), "\nclaims: precision") {
		t.Errorf("output:\n%s", out.String())
	}
}

// claimsFixture is a small labelled file for the model runs.
func claimsFixture(t *testing.T) string {
	t.Helper()
	data := filepath.Join(t.TempDir(), "claims.jsonl")
	err := os.WriteFile(data, []byte(strings.Join([]string{
		`{"text":"I work at Contoso.","claims":[{"subject":"","relation":"works_at","object":"Contoso","kind":"company"}]}`,
		`{"text":"My sister lives in Kazan.","claims":[{"subject":"sister","relation":"lives_in","object":"Kazan","kind":"city"}]}`,
		`{"text":"Remind me to call Anna.","claims":[]}`,
	}, "\n")+"\n"), 0o600)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// fakeClaims answers as a model would for the fixture: right on the first
// two facts, one wrong and one invalid claim on the third; in a decision
// unless claimsOnly.
func fakeClaims(prompt string, claimsOnly bool) string {
	list := `[]`
	switch {
	case strings.Contains(prompt, "Contoso"):
		list = `[{"subject":"","relation":"works_at","object":"Contoso","kind":"company"}]`
	case strings.Contains(prompt, "Kazan"):
		list = `[{"subject":"sister","relation":"lives_in","object":"Kazan","kind":"city"}]`
	case strings.Contains(prompt, "Anna"):
		list = `[{"subject":"","relation":"friend","object":"Anna","kind":"person"},{"subject":"","relation":"calls","object":"Anna","kind":"person"}]`
	}
	if claimsOnly {
		return `{"claims":` + list + `}`
	}
	return `{"reasoning":"new","action":"add","target":0,"event_from":null,"grain":null,"claims":` + list + `}`
}

func runClaims(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	c := claimsCmd()
	var out, errOut bytes.Buffer
	c.SetOut(&out)
	c.SetErr(&errOut)
	c.SetArgs(args)
	err := c.Execute()
	return out.String(), errOut.String(), err
}

// --decider ollama and openai measure the model's claims on a fake server,
// in the decision and in the claims-only call.
func TestClaimsModel(t *testing.T) {
	data := claimsFixture(t)
	want := []string{
		"works_at         1          1        1       1.00    1.00",
		"friend         0          1        0       0.00    1.00",
		"0 of 3 calls failed, 0 answers without a claims list, 1 claims dropped as invalid",
		"claims: precision 0.667, recall 1.000 (2 matched of 3 extracted, 2 labelled); 0 of 1 facts with no claim got none",
	}
	for _, only := range []bool{false, true} {
		args := []string{"--data", data, "--model", "fake-m"}
		how := "in the decision"
		if only {
			args, how = append(args, "--claims-only"), "claims-only call"
		}
		t.Run("ollama/"+how, func(t *testing.T) {
			srv := ollamatest.New(t)
			srv.Chat = func(r ollamatest.ChatRequest) string {
				if r.ClaimsOnly() != only {
					return "wrong kind of request"
				}
				return fakeClaims(r.Messages[len(r.Messages)-1].Content, only)
			}
			t.Setenv("OLLAMA_HOST", srv.URL)
			out, stderr, err := runClaims(t, append(args, "--decider", "ollama")...)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range append(want, "claim extraction (ollama fake-m at "+srv.URL+", "+how+")") {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			if !strings.Contains(stderr, "bench: 3/3 facts asked") || len(srv.ChatRequests()) != 3 {
				t.Errorf("stderr %q after %d requests", stderr, len(srv.ChatRequests()))
			}
		})
		t.Run("openai/"+how, func(t *testing.T) {
			srv := openaitest.New(t)
			srv.Chat = func(r openaitest.ChatRequest) openaitest.Reply {
				if r.ClaimsOnly() != only {
					return openaitest.Reply{Content: "wrong kind of request"}
				}
				return openaitest.Reply{Content: fakeClaims(r.Messages[len(r.Messages)-1].Content, only)}
			}
			t.Setenv("OPENAI_BASE_URL", srv.BaseURL())
			t.Setenv("OPENAI_API_KEY", "")
			out, _, err := runClaims(t, append(args, "--decider", "openai")...)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

// A server that fails every call measures nothing: the run says so and
// fails; bad flags are refused before any call.
func TestClaimsModelFailures(t *testing.T) {
	data := claimsFixture(t)
	srv := ollamatest.New(t)
	srv.SetFault(ollamatest.Error500)
	t.Setenv("OLLAMA_HOST", srv.URL)
	out, _, err := runClaims(t, "--data", data, "--decider", "ollama", "--model", "m")
	if err == nil || !strings.Contains(err.Error(), "every call failed") || !strings.Contains(err.Error(), "HTTP 500") ||
		!strings.Contains(out, "3 of 3 calls failed") {
		t.Errorf("error %v, output:\n%s", err, out)
	}
	t.Setenv("MEMCTL_MODEL", "")
	for _, args := range [][]string{
		{"--decider", "ollama"},
		{"--decider", "add", "--model", "m"},
		{"--claims-only"},
		{"--limit", "-1"},
	} {
		calls := srv.Calls()
		if _, _, err := runClaims(t, append([]string{"--data", data}, args...)...); err == nil || srv.Calls() != calls {
			t.Errorf("%v: error %v after %d calls", args, err, srv.Calls()-calls)
		}
	}
}
