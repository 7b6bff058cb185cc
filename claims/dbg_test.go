package claims

import (
	"fmt"
	"testing"
)

func TestDbg(t *testing.T) {
	for _, s := range []string{
		"I like Tom a lot.",
		"I love Paris in the spring.",
		"I love London weather.",
		"I speak English pretty well.",
		"I work at Google remotely.",
		"I work for Amazon warehouse as a picker.",
		"I live in Berlin city centre.",
		"I love New York pizza.",
		"I really like Sarah, my neighbour.",
		"My brother, who lives in Leeds, is a nurse.",
		"My friend, Tom, and I went to Paris.",
		"My dad, Bob, is retired.",
		"I have two cats, and a dog.",
		"I have a son, Tim, who is five.",
		"Я работаю и живу в Москве.",
		"Я в Москве живу.",
		"Я тут подумал, что переехал бы в Сочи.",
		"Мама — на пенсии.",
		"Брат — в армии.",
		"Брат у меня в армии.",
		"Я против переезда.",
		"Я за рулём.",
		"Я один.",
		"Я водитель автобуса.",
		"Живу в Москве и немного в Питере.",
		"Говорю по-английски и на работе по-немецки.",
		"Люблю кофе и очень чай.",
		"Играю на гитаре и на нервах.",
		"My mum only likes Chinese tea.",
		"I've got a cold.",
		"I've got a dog and two kids.",
		"We have got three horses.",
		"My sister lives near me.",
		"My sister lives outside London.",
		"I'm a Londoner.",
		"I'm a Manchester United fan.",
		"I'm a GP.",
		"I'm a CEO at a startup.",
		"I'm a mum of two.",
		"I'm a single dad.",
		"I'm a manager at Tesco.",
		"I'm a morning runner.",
	} {
		fmt.Printf("%s\t%v\n", s, Extract(s))
	}
}
