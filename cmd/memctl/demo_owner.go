package main

import (
	"bytes"
	"fmt"
	"os"
	"strings"
)

// owned tells how a second terminal uses the store while a server holds
// it: the demo owns its store as memctl serve and memctl mcp do, and runs
// memctl list as another process would run it, through the owner's socket.
func (d *demo) owned() error {
	d.printf("\n15. One process owns the store; the other commands run inside it\n")
	var warn bytes.Buffer
	holder := &app{getenv: os.Getenv, stderr: &warn}
	_, stop := holder.own(d.ctx, d.s, "memctl demo")
	defer stop()
	if warn.Len() > 0 {
		d.printf("    (skipped: %s)\n", strings.TrimSpace(strings.TrimPrefix(warn.String(), "memctl: ")))
		return nil
	}
	memctl := func(args ...string) (string, error) {
		var out, errOut bytes.Buffer
		argv := append([]string{"--db", d.s.Path()}, args...)
		code := runApp(d.ctx, argv, strings.NewReader(""), &out, &errOut, nil)
		d.printf("    $ memctl %s\n", strings.Join(args, " "))
		if code != 0 {
			return strings.TrimSpace(errOut.String()), fmt.Errorf("exit %d", code)
		}
		return out.String(), nil
	}
	d.printf("    This process holds the file, as memctl serve or memctl mcp does; another\n    terminal's command goes through its socket and runs on its open store:\n")
	out, err := memctl("list")
	if err != nil {
		return fmt.Errorf("demo: memctl list beside the owner: %v: %s", err, out)
	}
	if !strings.Contains(out, "cello") {
		return fmt.Errorf("demo: memctl list beside the owner misses the cello:\n%s", out)
	}
	for _, line := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		d.printf("      %s\n", line)
	}
	// What cannot run inside it names who holds the store.
	out, err = memctl("serve")
	if err == nil || !strings.Contains(out, "held by memctl demo (pid ") {
		return fmt.Errorf("demo: a second serve beside the owner: %v: %s", err, out)
	}
	d.printf("      %s\n", out)
	return nil
}
