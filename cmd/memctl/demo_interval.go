package main

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/palimpsest-mem/memory"
)

// interval tells of a fact whose words give its end as well as its start:
// At answers inside the interval and not after it, and the prompt shows it
// upcoming, then current, then not at all, while the fact stays current:
// nobody invalidated it, its time in the world ended.
func (d *demo) interval() (memory.Fact, error) {
	ctx, s := d.ctx, d.s
	d.printf("\n11. An interval from the words: true for a while, then no longer, and nothing is invalidated\n")
	said := "I'll be in Rome from 13 to 15 October."
	d.on(date(2026, 10, 1), fmt.Sprintf("The user says: %q", said))
	out, err := s.Remember(ctx, d.note(said))
	if err != nil {
		return memory.Fact{}, err
	}
	f := out.Fact
	from, until := date(2026, 10, 13), date(2026, 10, 16)
	if !f.EventFrom.Equal(from) || !f.EventUntil.Equal(until) ||
		f.EventSource != memory.EventFromWords || f.EventUntilSource != memory.EventFromWords {
		return memory.Fact{}, fmt.Errorf("demo: the trip is stored from %s (%s) until %s (%s), the story expects %s until %s from the words",
			showTime(f.EventFrom), f.EventSource, showTime(f.EventUntil), f.EventUntilSource, showTime(from), showTime(until))
	}
	d.printf("    Remember → %s #%d, true from %s until %s (both from the words; the end is not included)\n",
		out.Decision.Action, f.ID, showTime(f.EventFrom), showTime(f.EventUntil))
	for _, q := range []struct {
		event time.Time
		true  bool
	}{{date(2026, 10, 14), true}, {date(2026, 10, 16), false}} {
		facts, err := s.At(ctx, "", q.event, time.Time{})
		if err != nil {
			return memory.Fact{}, err
		}
		in := slices.ContainsFunc(facts, func(g memory.Fact) bool { return g.ID == f.ID })
		d.printf("    At(event %s, known now): #%d %s\n", showTime(q.event), f.ID, map[bool]string{true: "is true", false: "is not true"}[in])
		if in != q.true {
			return memory.Fact{}, fmt.Errorf("demo: At(%s) has the trip: %v, the story expects %v", showTime(q.event), in, q.true)
		}
	}
	for _, step := range []struct {
		now  time.Time
		want string // the trip's line in the prompt; "" for none
	}{
		{date(2026, 10, 1), "(from 2026-10-13, through 2026-10-15)"},
		{date(2026, 10, 14), "(since 2026-10-13, through 2026-10-15)"},
		{date(2026, 10, 17), ""},
	} {
		d.now = step.now
		p, err := s.Prompt(ctx, "", nil)
		if err != nil {
			return memory.Fact{}, err
		}
		line := ""
		for _, l := range strings.Split(p, "\n") {
			if strings.Contains(l, "Rome") {
				line = strings.TrimSpace(l)
			}
		}
		if step.want == "" && line != "" || step.want != "" && !strings.Contains(line, step.want) {
			return memory.Fact{}, fmt.Errorf("demo: the prompt on %s shows the trip as %q, the story expects %q", showTime(step.now), line, step.want)
		}
		if line == "" {
			line = "(the trip is no longer in the prompt)"
		}
		d.printf("    Prompt on %s: %s\n", showTime(step.now), line)
	}
	g, err := s.Get(ctx, "", f.ID)
	if err != nil {
		return memory.Fact{}, err
	}
	if g.State() != memory.Current {
		return memory.Fact{}, fmt.Errorf("demo: after the trip #%d is %s, the story expects it current", f.ID, g.State())
	}
	d.printf("    #%d is still %s: its end is in event time, not an invalidation.\n", f.ID, g.State())
	return g, nil
}
