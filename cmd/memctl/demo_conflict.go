package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/palimpsest-mem/memory"
)

// contradiction shows the store asking whenever two current facts claim
// two values of a relation that holds one, however they came to be, and
// a conflict ending by itself when it no longer holds: a merge makes the
// two values one, a retraction takes a fact of it away, and a resolve of
// it is then refused.
func (d *demo) contradiction() error {
	ctx, s := d.ctx, d.s
	d.printf("\n13. Two things at once: the store asks, and stops asking when the question is moot\n")
	var told []memory.Fact
	for i, text := range []string{"I live in Munich.", "Я живу в Мюнхене."} {
		d.on(date(2026, 10, 20+i), fmt.Sprintf("The user says: %q", text))
		f, err := s.Add(ctx, d.note(text))
		if err != nil {
			return err
		}
		d.printf("    Add → %s\n", show(f))
		told = append(told, f)
	}
	derived, err := d.openConflict(told[1].ID, told[0].ID)
	if err != nil {
		return err
	}
	d.printf("    conflict %d, derived: %s\n", derived.ID, derived.Reason)
	p, err := s.Prompt(ctx, "", nil)
	if err != nil {
		return err
	}
	for _, f := range told {
		line := promptLineOf(p, f.Text)
		if !strings.Contains(line, "(unconfirmed: contradicts") {
			return fmt.Errorf("demo: the prompt's line of #%d carries no note: %q", f.ID, line)
		}
		d.printf("    Prompt: %s\n", line)
	}

	d.on(date(2026, 10, 22), `The user says: "Мюнхен is Munich."`)
	if _, err := s.MergeEntities(ctx, "", "Мюнхен", "Munich", "the user: one city"); err != nil {
		return err
	}
	c, err := d.conflictNow(derived.ID)
	if err != nil {
		return err
	}
	d.printf("    MergeEntities(Мюнхен into Munich) → conflict %d is moot: %s\n", c.ID, c.Moot)

	d.on(date(2026, 10, 23), `The user says: "I live in Berlin." — a slip of the tongue`)
	berlin, err := s.Add(ctx, d.note("I live in Berlin."))
	if err != nil {
		return err
	}
	d.printf("    Add → %s\n", show(berlin))
	slip, err := d.openConflict(berlin.ID, told[1].ID)
	if err != nil {
		return err
	}
	d.printf("    conflict %d, derived: %s\n", slip.ID, slip.Reason)
	if _, err := s.Invalidate(ctx, "", berlin.ID, memory.Change{Reason: "a slip of the tongue"}); err != nil {
		return err
	}
	if c, err = d.conflictNow(slip.ID); err != nil {
		return err
	}
	d.printf("    Invalidate #%d → conflict %d is moot in the same commit: %s\n", berlin.ID, c.ID, c.Moot)
	_, err = s.ResolveConflict(ctx, "", slip.ID, memory.KeepExisting)
	if !errors.Is(err, memory.ErrMoot) {
		return fmt.Errorf("demo: resolving moot conflict %d gave %v, the story expects %v", slip.ID, err, memory.ErrMoot)
	}
	d.printf("    A button left on an old page → refused, nothing changed: %v\n", err)
	return nil
}

// openConflict is the open conflict between facts newer and older.
func (d *demo) openConflict(newer, older uint64) (memory.Conflict, error) {
	cs, err := d.s.Conflicts(d.ctx, "", nil)
	if err != nil {
		return memory.Conflict{}, err
	}
	for _, c := range cs {
		if c.New == newer && c.Existing == older {
			return c, nil
		}
	}
	return memory.Conflict{}, fmt.Errorf("demo: no open conflict of #%d with #%d, the story expects one", newer, older)
}

// conflictNow is conflict id as the store has it now, which the story
// expects moot.
func (d *demo) conflictNow(id uint64) (memory.Conflict, error) {
	cs, err := d.s.Conflicts(d.ctx, "", &memory.ConflictOptions{All: true})
	if err != nil {
		return memory.Conflict{}, err
	}
	for _, c := range cs {
		if c.ID == id && c.MootAt != nil {
			return c, nil
		}
	}
	return memory.Conflict{}, fmt.Errorf("demo: conflict %d is not moot, the story expects it to be", id)
}

// promptLineOf is the prompt's line of the fact told as text.
func promptLineOf(p, text string) string {
	for _, l := range strings.Split(p, "\n") {
		if strings.HasPrefix(l, "- "+text) {
			return l
		}
	}
	return ""
}
