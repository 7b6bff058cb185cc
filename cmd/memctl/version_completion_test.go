package main

import (
	"runtime/debug"
	"strings"
	"testing"
)

// --version prints one line from the build information: what go install
// records (the module version) and, in a checkout, the commit, its time and
// whether the tree was modified, then the toolchain and platform.
func TestVersion(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		info *debug.BuildInfo
		ok   bool
		want string
	}{
		{"go install of a tag", &debug.BuildInfo{
			GoVersion: "go1.26.8",
			Main:      debug.Module{Path: "github.com/palimpsest-mem/memory", Version: "v1.2.3"},
			Settings:  []debug.BuildSetting{{Key: "GOOS", Value: "linux"}, {Key: "GOARCH", Value: "amd64"}},
		}, true, "v1.2.3 go1.26.8 linux/amd64"},
		{"a checkout with changes", &debug.BuildInfo{
			GoVersion: "go1.26.8",
			Main:      debug.Module{Path: "github.com/palimpsest-mem/memory", Version: "(devel)"},
			Settings: []debug.BuildSetting{
				{Key: "vcs", Value: "git"},
				{Key: "vcs.modified", Value: "true"},
				{Key: "vcs.time", Value: "2026-12-01T14:00:00Z"},
				{Key: "vcs.revision", Value: "ab526bd0c0ffee"},
				{Key: "GOARCH", Value: "arm64"},
				{Key: "GOOS", Value: "darwin"},
			},
		}, true, "(devel) (commit ab526bd0c0ffee, 2026-12-01T14:00:00Z, modified) go1.26.8 darwin/arm64"},
		{"a clean checkout, no platform recorded", &debug.BuildInfo{
			GoVersion: "go1.26.8",
			Settings: []debug.BuildSetting{
				{Key: "vcs.revision", Value: "ab526bd"},
				{Key: "vcs.modified", Value: "false"},
			},
		}, true, "(devel) (commit ab526bd) go1.26.8"},
		{"no build information", nil, false, "(unknown: no build information)"},
	} {
		if got := version(tc.info, tc.ok); got != tc.want {
			t.Errorf("%s: version = %q, want %q", tc.name, got, tc.want)
		}
	}

	// The flag itself, in this test binary: one line naming the toolchain.
	info, _ := debug.ReadBuildInfo()
	for _, flag := range []string{"--version", "-v"} {
		out := ok(t, flag)
		if !strings.HasPrefix(out, "memctl ") || strings.Count(out, "\n") != 1 || !strings.Contains(out, info.GoVersion) {
			t.Errorf("memctl %s = %q, want one line starting \"memctl \" and naming %s", flag, out, info.GoVersion)
		}
	}
}

// cobra's completion command is on for the three shells, and the hidden
// __complete it relies on completes command names from the real tree.
func TestCompletion(t *testing.T) {
	t.Parallel()
	for shell, marker := range map[string]string{
		"bash": "# bash completion V2 for memctl",
		"zsh":  "#compdef memctl",
		"fish": "complete -c memctl",
	} {
		if out := ok(t, "completion", shell); !strings.Contains(out, marker) {
			t.Errorf("memctl completion %s does not hold %q:\n%.300s", shell, marker, out)
		}
	}
	r := memctl(t, "", "__complete", "re")
	if r.code != 0 {
		t.Fatalf("memctl __complete re: exit %d, stderr %q", r.code, r.stderr)
	}
	out := r.stdout
	for _, name := range []string{"remember", "repair", "resolve", "restore"} {
		if !strings.Contains(out, name+"\t") {
			t.Errorf("memctl __complete re lacks %s:\n%s", name, out)
		}
	}
	if strings.Contains(out, "add\t") {
		t.Errorf("memctl __complete re offers add:\n%s", out)
	}
	fails(t, 2, "completion", "tcsh")
	fails(t, 2, "completion")
}
