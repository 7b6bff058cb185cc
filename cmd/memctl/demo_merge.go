package main

import (
	"fmt"
	"slices"
	"time"

	"github.com/palimpsest-mem/memory"
)

// merge shows one entity told by two names: the graph keeps them apart
// until the user says they are one, and the merge is logged and undone
// like any other change, the graph as known before it unchanged.
func (d *demo) merge() error {
	ctx, s := d.ctx, d.s
	d.printf("\n10. Two names, one company? A merge of entities, and its undo\n")
	var told []memory.Fact
	for i, text := range []string{"I like Yandex.", "Мне нравится Яндекс."} {
		d.on(date(2026, 9, 24+i), fmt.Sprintf("The user says: %q", text))
		f, err := s.Add(ctx, d.note(text))
		if err != nil {
			return err
		}
		d.printf("    Add → %s\n", show(f))
		d.claims(f)
		told = append(told, f)
	}
	likes := func(what string, known time.Time, want ...string) ([]memory.Edge, error) {
		d.printf("    %s returns:\n", what)
		es, err := s.Edges(ctx, "", &memory.EdgeQuery{Relation: memory.RelLikes, Known: known})
		if err != nil {
			return nil, err
		}
		return es, d.expectEdges(what, es, want...)
	}
	if _, err := likes("Edges(likes)", time.Time{}, "Yandex", "Яндекс"); err != nil {
		return err
	}
	d.printf("    Two names, so two entities: the graph never guesses they are one.\n")

	d.on(date(2026, 9, 26), `The user says: "Яндекс is Yandex, the same company."`)
	m, err := s.MergeEntities(ctx, "", "Яндекс", "Yandex", "the user: the same company")
	if err != nil {
		return err
	}
	d.printf("    MergeEntities(Яндекс into Yandex) → merge %d (memctl graph merge Яндекс Yandex)\n", m.ID)
	es, err := likes("Edges(likes)", time.Time{}, "Yandex")
	if err != nil {
		return err
	}
	if ids := []uint64{told[0].ID, told[1].ID}; !slices.Equal(es[0].Support, ids) {
		return fmt.Errorf("demo: the merged edge has support %v, the story expects %v", es[0].Support, ids)
	}
	if _, err := likes("Edges(likes, known 2026-09-25)", date(2026, 9, 25), "Yandex", "Яндекс"); err != nil {
		return err
	}
	d.printf("    One edge now, both facts behind it; as known on 25 September, still two.\n")

	d.on(date(2026, 9, 27), `The user says: "Wait: I meant the music app, not the company. Keep them apart."`)
	if m, err = s.UndoMerge(ctx, "", m.ID, "the user meant the music app"); err != nil {
		return err
	}
	d.printf("    UndoMerge(%d) (memctl graph unmerge %d)\n", m.ID, m.ID)
	if _, err := likes("Edges(likes)", time.Time{}, "Yandex", "Яндекс"); err != nil {
		return err
	}
	ms, err := s.Merges(ctx, "")
	if err != nil {
		return err
	}
	if len(ms) != 1 || ms[0].UndoneAt == nil {
		return fmt.Errorf("demo: the merge log holds %d merges after the undo, the story expects the one, marked undone", len(ms))
	}
	d.printf("    The merge stays in the log, marked undone on %s (memctl graph merges).\n", showTime(*ms[0].UndoneAt))
	return nil
}
