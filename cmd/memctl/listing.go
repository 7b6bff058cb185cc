package main

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// printList prints a listing the one way every list command does: with
// --json the value asJSON builds, else the line none when there are no
// items (n of them), else the table rows writes, its columns aligned.
func (a *app) printList(n int, asJSON func() any, none string, rows func(tw io.Writer) error) error {
	if a.json {
		return a.printJSON(asJSON())
	}
	if n == 0 {
		_, err := fmt.Fprintln(a.stdout, none)
		return err
	}
	tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	if err := rows(tw); err != nil {
		return err
	}
	return tw.Flush()
}

// jsonList is the JSON objects of items: [] rather than null when empty.
func jsonList[T, J any](items []T, object func(T) J) []J {
	out := make([]J, 0, len(items))
	for _, it := range items {
		out = append(out, object(it))
	}
	return out
}
