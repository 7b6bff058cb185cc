package memory_test

import (
	"context"
	"fmt"
	"log"

	"github.com/palimpsest-mem/memory"
)

// A company told in two languages is two entities until the user says it
// is one: the merge joins their edges under the name merged into, and its
// undo parts them again, with both steps kept in the log.
func ExampleStore_MergeEntities() {
	ctx := context.Background()
	now := day("2026-03-10")
	s, done := exampleStore(&now)
	defer done()
	company := func(name string) []memory.Claim {
		return []memory.Claim{{Relation: memory.RelWorksAt, Object: name, Kind: "company"}}
	}
	if _, err := s.Add(ctx, memory.Note{Text: "I work at Yandex.", Claims: company("Yandex")}); err != nil {
		log.Fatal(err)
	}
	if _, err := s.Add(ctx, memory.Note{Text: "Я работаю в Яндексе.", Claims: []memory.Claim{{Relation: memory.RelWorksAt, Object: "Яндекс"}}}); err != nil {
		log.Fatal(err)
	}
	show := func() {
		edges, _ := s.Edges(ctx, "", nil)
		for _, e := range edges {
			fmt.Println(" ", e.Relation, e.Object, e.Support)
		}
	}
	fmt.Println("before:")
	show()

	now = day("2026-03-11")
	m, err := s.MergeEntities(ctx, "", "Яндекс", "Yandex", "the same company")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("merge %d: %s into %s\n", m.ID, m.From, m.Into)
	show()
	ents, _ := s.Entities(ctx, "")
	fmt.Println("entity:", ents[0].Name, ents[0].Kind, ents[0].Aliases, ents[0].Edges)

	now = day("2026-03-12")
	if _, err := s.UndoMerge(ctx, "", m.ID, "merged by mistake"); err != nil {
		log.Fatal(err)
	}
	fmt.Println("undone:")
	show()
	// Output:
	// before:
	//   works_at Yandex [1]
	//   works_at Яндекс [2]
	// merge 1: Яндекс into Yandex
	//   works_at Yandex [1 2]
	// entity: Yandex company [Яндекс] 1
	// undone:
	//   works_at Yandex [1]
	//   works_at Яндекс [2]
}
