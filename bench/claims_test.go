package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
