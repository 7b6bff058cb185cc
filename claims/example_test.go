package claims_test

import (
	"fmt"

	"github.com/palimpsest-mem/memory/claims"
)

func ExampleExtract() {
	for _, text := range []string{
		"My sister Anna lives in Kazan and works at Contoso.",
		"Я работаю в Яндексе и живу в Казани.",
		"I don't work at Contoso anymore.",
	} {
		fmt.Println(text)
		for _, c := range claims.Extract(text) {
			subject := c.Subject
			if subject == "" {
				subject = "(user)"
			}
			fmt.Printf("  %s %s %q (%s)\n", subject, c.Relation, c.Object, c.Kind)
		}
	}
	// Output:
	// My sister Anna lives in Kazan and works at Contoso.
	//   (user) sibling "Anna" (person)
	//   sister lives_in "Kazan" (place)
	//   sister works_at "Contoso" (company)
	// Я работаю в Яндексе и живу в Казани.
	//   (user) works_at "Яндекс" (company)
	//   (user) lives_in "Казань" (place)
	// I don't work at Contoso anymore.
}

func ExampleNormalize() {
	fmt.Println(claims.Normalize("  the «Chess   Club»."), claims.Normalize("Ёлкино"))
	// Output: chess club елкино
}
