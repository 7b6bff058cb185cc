package claims_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/palimpsest-mem/memory/claims"
)

// u is the user's subject.
const u = ""

type want struct {
	subject  string
	relation claims.Relation
	object   string
}

func (w want) String() string { return fmt.Sprintf("(%q %s %q)", w.subject, w.relation, w.object) }

func wants(cs []claims.Claim) []want {
	var out []want
	for _, c := range cs {
		out = append(out, want{c.Subject, c.Relation, c.Object})
	}
	return out
}

// checkExtract asserts that Extract finds exactly the claims of each text,
// in order, as written.
func checkExtract(t *testing.T, cases map[string][]want) {
	t.Helper()
	for text, w := range cases {
		got := claims.Extract(text)
		if !slices.Equal(wants(got), w) {
			t.Errorf("Extract(%q)\n got %v\nwant %v", text, wants(got), w)
		}
		for _, c := range got {
			if err := c.Validate(); err != nil {
				t.Errorf("Extract(%q): %v", text, err)
			}
		}
	}
}

func TestExtractEnglish(t *testing.T) {
	checkExtract(t, map[string][]want{
		"I work at Contoso.":                                 {{u, claims.WorksAt, "Contoso"}},
		"I've been working for Fabrikam since 2019":          {{u, claims.WorksAt, "Fabrikam"}},
		"I'm a software engineer at Contoso":                 {{u, claims.JobTitle, "software engineer"}, {u, claims.WorksAt, "Contoso"}},
		"I work as a nurse.":                                 {{u, claims.JobTitle, "nurse"}},
		"I live in Lisbon.":                                  {{u, claims.LivesIn, "Lisbon"}},
		"I just moved to New York":                           {{u, claims.LivesIn, "New York"}},
		"I live in Kazan, Russia.":                           {{u, claims.LivesIn, "Kazan"}},
		"I study at the University of Tartu.":                {{u, claims.StudiesAt, "University of Tartu"}},
		"I'm married to Sarah.":                              {{u, claims.Partner, "Sarah"}},
		"My son Jake is 7.":                                  {{u, claims.Child, "Jake"}},
		"My mom Linda is visiting.":                          {{u, claims.Parent, "Linda"}},
		"My sister lives in Kazan.":                          {{"sister", claims.LivesIn, "Kazan"}},
		"My sister Anna lives in Kazan.":                     {{u, claims.Sibling, "Anna"}, {"sister", claims.LivesIn, "Kazan"}},
		"my friend Olga is coming over":                      {{u, claims.Friend, "Olga"}},
		"I have a dog named Rex.":                            {{u, claims.HasPet, "Rex"}},
		"My cat is called \"Mr Whiskers\".":                  {{u, claims.HasPet, "Mr Whiskers"}},
		"I got a puppy!":                                     {{u, claims.HasPet, "puppy"}},
		"I own a bakery.":                                    {{u, claims.Owns, "bakery"}},
		"I drive an old Volvo":                               {{u, claims.Drives, "Volvo"}},
		"I speak English, French and German.":                {{u, claims.Speaks, "English"}, {u, claims.Speaks, "French"}, {u, claims.Speaks, "German"}},
		"I'm allergic to peanuts and shellfish":              {{u, claims.AllergicTo, "peanuts"}, {u, claims.AllergicTo, "shellfish"}},
		"I take metformin every morning.":                    {{u, claims.Takes, "metformin"}},
		"I'm vegetarian.":                                    {{u, claims.Diet, "vegetarian"}},
		"I'm a member of the Chess Club.":                    {{u, claims.MemberOf, "Chess Club"}},
		"I play the piano.":                                  {{u, claims.Plays, "piano"}},
		"I love hiking and play the guitar":                  {{u, claims.Likes, "hiking"}, {u, claims.Plays, "guitar"}},
		"I love coffee but hate tea.":                        {{u, claims.Likes, "coffee"}, {u, claims.Dislikes, "tea"}},
		"I don't like horror movies.":                        {{u, claims.Dislikes, "horror movies"}},
		"I work at Contoso and live in Seattle.":             {{u, claims.WorksAt, "Contoso"}, {u, claims.LivesIn, "Seattle"}},
		"Moved to Porto.":                                    {{u, claims.LivesIn, "Porto"}},
		"My new job at Spotify starts Monday.":               {{u, claims.WorksAt, "Spotify"}},
		"My brother Dan lives in Denver and works at Boeing": {{u, claims.Sibling, "Dan"}, {"brother", claims.LivesIn, "Denver"}, {"brother", claims.WorksAt, "Boeing"}},
		"I play the cello in an orchestra":                   {{u, claims.Plays, "cello"}, {u, claims.MemberOf, "orchestra"}},
		// No claim: negated, ended, or not a fact about anyone.
		"I quit my job at Contoso.":        nil,
		"I don't work at Contoso anymore.": nil,
		"I no longer live in Paris.":       nil,
		"I'm not allergic to anything.":    nil,
		"The meeting moved to Thursday.":   nil,
		"":                                 nil,
	})
}

func TestExtractRussian(t *testing.T) {
	checkExtract(t, map[string][]want{
		"Я работаю в Яндексе.":                    {{u, claims.WorksAt, "Яндекс"}},
		"работаю на заводе «Северсталь»":          {{u, claims.WorksAt, "Северсталь"}},
		"Работаю программистом в Касперском":      {{u, claims.JobTitle, "программист"}, {u, claims.WorksAt, "Касперский"}},
		"Живу в Казани.":                          {{u, claims.LivesIn, "Казань"}},
		"Я сейчас живу в Москве":                  {{u, claims.LivesIn, "Москва"}},
		"Переехала в Новосибирск.":                {{u, claims.LivesIn, "Новосибирск"}},
		"Моя сестра живёт в Казани.":              {{"сестра", claims.LivesIn, "Казань"}},
		"Мой брат переехал в Екатеринбург":        {{"брат", claims.LivesIn, "Екатеринбург"}},
		"Учусь в МГУ.":                            {{u, claims.StudiesAt, "МГУ"}},
		"Я замужем за Андреем.":                   {{u, claims.Partner, "Андрей"}},
		"Мою дочь зовут Соня.":                    {{u, claims.Child, "Соня"}},
		"Моя мама Нина на пенсии.":                {{u, claims.Parent, "Нина"}},
		"Мою сестру зовут Лена.":                  {{u, claims.Sibling, "Лена"}},
		"Мой лучший друг Паша":                    {{u, claims.Friend, "Паша"}},
		"Мою собаку зовут Жучка.":                 {{u, claims.HasPet, "Жучка"}},
		"У меня есть кот Барсик.":                 {{u, claims.HasPet, "Барсик"}},
		"Вожу Тойоту.":                            {{u, claims.Drives, "Тойота"}},
		"Говорю по-английски и по-немецки.":       {{u, claims.Speaks, "английский"}, {u, claims.Speaks, "немецкий"}},
		"У меня аллергия на орехи.":               {{u, claims.AllergicTo, "орехи"}},
		"Принимаю метформин по утрам.":            {{u, claims.Takes, "метформин"}},
		"Я вегетарианка.":                         {{u, claims.Diet, "вегетарианка"}},
		"Хожу в шахматный клуб.":                  {{u, claims.MemberOf, "шахматный клуб"}},
		"Играю на гитаре.":                        {{u, claims.Plays, "гитара"}},
		"Обожаю итальянскую кухню.":               {{u, claims.Likes, "итальянская кухня"}},
		"Люблю кофе, но не люблю чай.":            {{u, claims.Likes, "кофе"}, {u, claims.Dislikes, "чай"}},
		"Живу в Лондоне и работаю в Revolut":      {{u, claims.LivesIn, "Лондон"}, {u, claims.WorksAt, "Revolut"}},
		"Моя подруга Маша переехала в Ригу.":      {{u, claims.Friend, "Маша"}, {"подруга", claims.LivesIn, "Рига"}},
		"Мне нравится группа «Кино».":             {{u, claims.Likes, "Кино"}},
		"Я работаю в Озоне и живу в Подмосковье.": {{u, claims.WorksAt, "Озон"}, {u, claims.LivesIn, "Подмосковье"}},
		"Играю на барабанах.":                     {{u, claims.Plays, "барабаны"}},
		// No claim.
		"Я больше не живу в Москве.":     nil,
		"Я не работаю в Яндексе.":        nil,
		"Встреча перенесена на четверг.": nil,
	})
}

// A common noun with a capital letter or a number names one thing, where
// the patterns want a name: "company A", "school 57".
func TestExtractDesignations(t *testing.T) {
	checkExtract(t, map[string][]want{
		"I work at company A.":                {{u, claims.WorksAt, "company A"}},
		"I work at company B.":                {{u, claims.WorksAt, "company B"}},
		"I study at school 57.":               {{u, claims.StudiesAt, "school 57"}},
		"My brother and I work at company C.": {{u, claims.WorksAt, "company C"}},
		// Only the kinds a noun is listed for: a company is no place.
		"I moved to company B back in June.": nil,
	})
}

// A Russian object is put back in the nominative as a whole: an adjective
// before its noun agrees with it, a word after a masculine adjective is
// read as masculine, an indeclinable word stays, and a word in the
// instrumental after a hushing consonant loses only its ending.
func TestExtractNominative(t *testing.T) {
	checkExtract(t, map[string][]want{
		"Мы живём в Великом Новгороде.":     {{u, claims.LivesIn, "Великий Новгород"}},
		"Живу в Старом Осколе":              {{u, claims.LivesIn, "Старый Оскол"}},
		"Работаю главным бухгалтером.":      {{u, claims.JobTitle, "главный бухгалтер"}},
		"Муж работает сторожем.":            {{"Муж", claims.JobTitle, "сторож"}},
		"Езжу на подержанном «Пассате».":    {{u, claims.Drives, "Пассат"}},
		"Езжу на своём стареньком «Форде».": {{u, claims.Drives, "Форд"}},
		"Езжу на старой «Ниве».":            {{u, claims.Drives, "Нива"}},
		"Сын играет на укулеле.":            {{"Сын", claims.Plays, "укулеле"}},
		"Вчера завели котёнка.":             {{u, claims.HasPet, "котенок"}},
		"Недавно стал вегетарианцем.":       {{u, claims.Diet, "вегетарианец"}},
	})
}

// A Russian verb without a subject of its own belongs to the subject its
// sentence begins with, words between them or not, or to the one named by
// "у" and the genitive; a first-person verb or pronoun is the user's.
func TestExtractClauseSubject(t *testing.T) {
	checkExtract(t, map[string][]want{
		"Брат в прошлом месяце переехал в Омск.":            {{"Брат", claims.LivesIn, "Омск"}},
		"Моя сестра этим летом поступила в МГУ.":            {{"сестра", claims.StudiesAt, "МГУ"}},
		"Дедушка продал гараж и весной переехал в Тверь.":   {{"Дедушка", claims.LivesIn, "Тверь"}},
		"У дочки аллергия на мёд.":                          {{"дочка", claims.AllergicTo, "мёд"}},
		"У брата с детства аллергия на пенициллин.":         {{"брат", claims.AllergicTo, "пенициллин"}},
		"Брат остался в Омске, а я переехала в Томск.":      {{u, claims.LivesIn, "Томск"}},
		"Мама на пенсии, а в прошлом году переехала в Сочи": {{"Мама", claims.LivesIn, "Сочи"}},
		"Этой осенью переехали в Тверь.":                    {{u, claims.LivesIn, "Тверь"}},
		"Сестра в Омске, а я работаю в Сбербанке.":          {{u, claims.WorksAt, "Сбербанк"}},
	})
}

// An object is the thing itself: a stage of study ("во втором классе") is
// passed over for the school after it, adjectives of age and condition are
// dropped, a job title must end in a noun that names a
// job, and "a native X speaker" speaks X.
func TestExtractObjectShape(t *testing.T) {
	checkExtract(t, map[string][]want{
		"Сын учится во втором классе в гимназии №3.": {{"Сын", claims.StudiesAt, "гимназия №3"}},
		"Учусь на втором курсе в МИФИ.":              {{u, claims.StudiesAt, "МИФИ"}},
		"I own an old farmhouse near Whitby.":        {{u, claims.Owns, "farmhouse"}},
		"I bought a secondhand van last year.":       {{u, claims.Owns, "van"}},
		"I'm a fluent Spanish speaker.":              {{u, claims.Speaks, "Spanish"}},
		"My uncle is a native Gaelic speaker.":       {{"uncle", claims.Speaks, "Gaelic"}},
		"I'm a paediatric nurse.":                    {{u, claims.JobTitle, "paediatric nurse"}},
		"I'm a self-taught electrician.":             {{u, claims.JobTitle, "self-taught electrician"}},
		"My aunt is a retired surgeon.":              {{"aunt", claims.JobTitle, "retired surgeon"}},
		"Работаю удалённо.":                          nil,
		"I'm a morning person.":                      nil,
		"I'm a heavy smoker.":                        nil,
		"I'm a mother of three.":                     nil,
	})
}

// Up to two adverbs may stand between a pattern's words (in English any
// word in -ly), a Russian subject may stand further back in its sentence
// than just before its verb, and relatives are named by the whole kin
// vocabulary.
func TestExtractBetweenSubjectAndVerb(t *testing.T) {
	checkExtract(t, map[string][]want{
		"I genuinely adore opera.":                {{u, claims.Likes, "opera"}},
		"We moved back to Glasgow in May.":        {{u, claims.LivesIn, "Glasgow"}},
		"I recently finally moved to Leeds.":      {{u, claims.LivesIn, "Leeds"}},
		"My grandmother still only speaks Welsh.": {{"grandmother", claims.Speaks, "Welsh"}},
		"My cousins only speak Tagalog at home.":  {{"cousins", claims.Speaks, "Tagalog"}},
		"My stepmum drives a Honda Civic.":        {{"stepmum", claims.Drives, "Honda Civic"}},
		"My in-laws live in Perth.":               {{"in-laws", claims.LivesIn, "Perth"}},
		"My father-in-law lives in Cardiff.":      {{"father-in-law", claims.LivesIn, "Cardiff"}},
		"My niece studies at Durham University.":  {{"niece", claims.StudiesAt, "Durham University"}},
		"Дедушка уже сорок лет работает на «Ростсельмаше».":    {{"Дедушка", claims.WorksAt, "Ростсельмаш"}},
		"Свекровь у меня живёт в Туле.":                        {{"Свекровь", claims.LivesIn, "Тула"}},
		"Тесть живёт под Самарой.":                             {{"Тесть", claims.LivesIn, "Самара"}},
		"Племянница учится в Казани.":                          {{"Племянница", claims.StudiesAt, "Казань"}},
		"Работает в Сбербанке.":                                nil,
		"Прошлым летом работает в Сбербанке, говорят, Максим.": nil,
	})
}

// Common phrasings beyond the first patterns, in both languages.
func TestExtractPhrasings(t *testing.T) {
	checkExtract(t, map[string][]want{
		"Been at Accenture for three years.":     {{u, claims.WorksAt, "Accenture"}},
		"I've been at Siemens for a decade.":     {{u, claims.WorksAt, "Siemens"}},
		"Got hired as a data engineer recently.": {{u, claims.JobTitle, "data engineer"}},
		"I teach chemistry at Oakwood High.":     {{u, claims.WorksAt, "Oakwood High"}},
		"I went keto in January.":                {{u, claims.Diet, "keto"}},
		"My parents both love jazz.":             {{"parents", claims.Likes, "jazz"}},
		"Сестра перешла на веганскую диету.":     {{"Сестра", claims.Diet, "веганская диета"}},
		"Сижу на низкоуглеводной диете.":         {{u, claims.Diet, "низкоуглеводная диета"}},
		"Я аспирантка СПбГУ.":                    {{u, claims.StudiesAt, "СПбГУ"}},
		"Живём под Калугой.":                     {{u, claims.LivesIn, "Калуга"}},
		"Работаю в Газпроме инженером.":          {{u, claims.WorksAt, "Газпром"}, {u, claims.JobTitle, "инженер"}},
		"Недавно перебрались в Псков.":           {{u, claims.LivesIn, "Псков"}},
	})
}

// Appositions: a name set off by commas after a relative, a relative set
// off after a name, and a name after the kind of thing it names ("a
// Danish startup, Vivid").
func TestExtractAppositions(t *testing.T) {
	checkExtract(t, map[string][]want{
		"My cousin, Tariq, lives in Dundee.":          {{"cousin", claims.LivesIn, "Dundee"}},
		"My girlfriend, Nadia, is a midwife.":         {{u, claims.Partner, "Nadia"}, {"girlfriend", claims.JobTitle, "midwife"}},
		"Старшая сестра, Алина, живёт в Перми.":       {{u, claims.Sibling, "Алина"}, {"сестра", claims.LivesIn, "Пермь"}},
		"Игорь, мой сосед, уже год живёт в Твери.":    {{"Игорь", claims.LivesIn, "Тверь"}},
		"I work for a Danish startup, Vivid.":         {{u, claims.WorksAt, "Vivid"}},
		"I work at a small agency called Brightside.": {{u, claims.WorksAt, "Brightside"}},
		"I work for a German bank in Frankfurt.":      nil,
		"I like Italian food.":                        {{u, claims.Likes, "Italian food"}},
	})
}

// Only the adjectives before a Russian object's head noun are read as
// adjectives; the genitive after it stays ("клуб любителей кино"), and
// "член" takes the genitive.
func TestExtractNominativeHead(t *testing.T) {
	checkExtract(t, map[string][]want{
		"Состою в клубе любителей кино.": {{u, claims.MemberOf, "клуб любителей кино"}},
		"Работаю в агентстве «Пульс».":   {{u, claims.WorksAt, "Пульс"}},
		"Состою в обществе охотников.":   {{u, claims.MemberOf, "общество охотников"}},
		"Я член Союза художников.":       {{u, claims.MemberOf, "Союз художников"}},
		"Я член профсоюза.":              {{u, claims.MemberOf, "профсоюз"}},
	})
}

// A medication must look like one (medications.txt), which lets "I'm on
// X" state one.
func TestExtractMedication(t *testing.T) {
	checkExtract(t, map[string][]want{
		"I take the bus to work.":                  nil,
		"Пью кофе по утрам.":                       nil,
		"I'm on holiday next week.":                nil,
		"I'm on the night shift.":                  nil,
		"I'm on citalopram, 20mg.":                 {{u, claims.Takes, "citalopram"}},
		"Mum has been on levothyroxine for years.": {{"Mum", claims.Takes, "levothyroxine"}},
		"My brother is on lithium.":                {{"brother", claims.Takes, "lithium"}},
		"I take vitamin B12 daily.":                {{u, claims.Takes, "vitamin B12"}},
	})
}

// Russian sentences without a verb: "Я юрист", "брат — электрик", "жена у
// меня стоматолог".
func TestExtractVerbless(t *testing.T) {
	checkExtract(t, map[string][]want{
		"Я юрист.": {{u, claims.JobTitle, "юрист"}},
		"Я дома.":  nil,
		"Я рад, что всё получилось.": nil,
		"Мой брат Олег — электрик.":  {{u, claims.Sibling, "Олег"}, {"брат", claims.JobTitle, "электрик"}},
		"Жена у меня стоматолог.":    {{"Жена", claims.JobTitle, "стоматолог"}},
		"Сестра — вегетарианка.":     nil,
	})
}

// Relatives and pets named in lists and with "our", step-relatives, and
// a few more family phrasings in both languages.
func TestExtractFamily(t *testing.T) {
	checkExtract(t, map[string][]want{
		"I have three sons, Ollie, Ben and Sam.":        {{u, claims.Child, "Ollie"}, {u, claims.Child, "Ben"}, {u, claims.Child, "Sam"}},
		"Our daughter Freya is nine.":                   {{u, claims.Child, "Freya"}},
		"My stepmum Carol is a dentist.":                {{u, claims.Parent, "Carol"}, {"stepmum", claims.JobTitle, "dentist"}},
		"We've got two ferrets.":                        {{u, claims.HasPet, "ferrets"}},
		"У нас трое детей: Петя, Оля и Ваня.":           {{u, claims.Child, "Петя"}, {u, claims.Child, "Оля"}, {u, claims.Child, "Ваня"}},
		"У меня две собаки, Лайма и Герда.":             {{u, claims.HasPet, "Лайма"}, {u, claims.HasPet, "Герда"}},
		"Подруга недавно вышла замуж за Сергея.":        {{"Подруга", claims.Partner, "Сергей"}},
		"Брат женился на Марине.":                       {{"Брат", claims.Partner, "Марина"}},
		"Мы с Олей женаты пять лет.":                    {{u, claims.Partner, "Оля"}},
		"С Тимуром мы дружим с детства.":                {{u, claims.Friend, "Тимур"}},
		"По вечерам играем в бадминтон.":                {{u, claims.Plays, "бадминтон"}},
		"Мы с Тимуром дружим с детства.":                {{u, claims.Friend, "Тимур"}},
		"My brother-in-law is an accountant for Aviva.": {{"brother-in-law", claims.JobTitle, "accountant"}, {"brother-in-law", claims.WorksAt, "Aviva"}},
		"I'm a radiographer with the Royal Infirmary.":  {{u, claims.JobTitle, "radiographer"}, {u, claims.WorksAt, "Royal Infirmary"}},
	})
}

// More of the verbs, lists and asides people use.
func TestExtractMorePhrasings(t *testing.T) {
	checkExtract(t, map[string][]want{
		"Дочка обожает рисование.":                  {{"Дочка", claims.Likes, "рисование"}},
		"Отец водит старую «Волгу».":                {{"Отец", claims.Drives, "Волга"}},
		"Брат не ест свинину.":                      {{"Брат", claims.Diet, "свинина"}},
		"Дед говорит только по-татарски.":           {{"Дед", claims.Speaks, "татарский"}},
		"Говорю по-польски и немного по-чешски.":    {{u, claims.Speaks, "польский"}, {u, claims.Speaks, "чешский"}},
		"Играю на скрипке и немного на флейте.":     {{u, claims.Plays, "скрипка"}, {u, claims.Plays, "флейта"}},
		"I've been living in Bristol since 2015.":   {{u, claims.LivesIn, "Bristol"}},
		"My aunt lives with her partner in Galway.": {{"aunt", claims.LivesIn, "Galway"}},
		"I have an allergy to wasps.":               {{u, claims.AllergicTo, "wasps"}},
		"I have allergies to pollen and dust.":      {{u, claims.AllergicTo, "pollen"}, {u, claims.AllergicTo, "dust"}},
		"My husband works weekends as a paramedic.": {{"husband", claims.JobTitle, "paramedic"}},
	})
}

// Whose a relative is, and whose a clause is: "её муж" is not the user's
// husband, a clause after "что" has a subject of its own, and "у" with a
// name gives that name in the nominative. When unsure, no claim.
func TestExtractWhose(t *testing.T) {
	checkExtract(t, map[string][]want{
		"Коллега говорит, что её муж работает в Озоне.": nil,
		"Her husband works at Siemens.": nil,
		"Дочь рассказала, что учительница переехала в Омск.": nil,
		"У Пети аллергия на орехи.":                          {{"Петя", claims.AllergicTo, "орехи"}},
		"У Андрея аллергия на пыль.":                         {{"Андрей", claims.AllergicTo, "пыль"}},
		"У меня аллергия на пыль.":                           {{u, claims.AllergicTo, "пыль"}},
		"Сын в прошлом году, говорят, переехал в Тверь.":     {{"Сын", claims.LivesIn, "Тверь"}},
	})
}

// A Russian job title's head may come before a genitive.
func TestExtractJobHead(t *testing.T) {
	checkExtract(t, map[string][]want{
		"Я водитель троллейбуса.": {{u, claims.JobTitle, "водитель троллейбуса"}},
		"Папа — учитель истории.": {{"Папа", claims.JobTitle, "учитель истории"}},
		"I'm a GP in Hull.":       {{u, claims.JobTitle, "GP"}},
	})
}

// A name before the relative it is set off with: "Tom, my husband, ..."
// names the user's husband.
func TestExtractNameFirstApposition(t *testing.T) {
	checkExtract(t, map[string][]want{
		"Tom, my husband, is a chef.":             {{u, claims.Partner, "Tom"}},
		"Лена, моя жена, обожает театр.":          {{u, claims.Partner, "Лена"}, {"Лена", claims.Likes, "театр"}},
		"Костя, мой младший брат, живёт в Твери.": {{u, claims.Sibling, "Костя"}, {"Костя", claims.LivesIn, "Тверь"}},
		"Yesterday, my husband, Tom, cooked.":     {{u, claims.Partner, "Tom"}},
		"Honestly, my wife, she is great.":        nil,
	})
}

// A capital at the start of a sentence makes no name of a word of address
// or an indefinite adverb.
func TestExtractNotNames(t *testing.T) {
	checkExtract(t, map[string][]want{
		"Sorry, my husband, he is late.": nil,
		"Когда-то жил в Омске.":          {{u, claims.LivesIn, "Омск"}},
		"Привет, живу в Омске.":          {{u, claims.LivesIn, "Омск"}},
	})
}

// A Russian object after "на"/"в" of a place or a thing must be in the
// prepositional ("на работу" is where one goes, not a vehicle), and a few
// more English phrasings.
func TestExtractCaseForm(t *testing.T) {
	checkExtract(t, map[string][]want{
		"Езжу на дачу по выходным.":             nil,
		"Езжу на машине.":                       {{u, claims.Drives, "машина"}},
		"Езжу на метро.":                        {{u, claims.Drives, "метро"}},
		"Играю на пианино.":                     {{u, claims.Plays, "пианино"}},
		"I've worked at Unilever for a decade.": {{u, claims.WorksAt, "Unilever"}},
		"We live just outside Exeter.":          {{u, claims.LivesIn, "Exeter"}},
		"I can speak a bit of Dutch.":           {{u, claims.Speaks, "Dutch"}},
		"My dogs are called Bonnie and Clyde.":  {{u, claims.HasPet, "Bonnie"}, {u, claims.HasPet, "Clyde"}},
	})
}

// Words ending as job titles do that name none: a supporter, a pupil, a
// lover of something.
func TestExtractNotJobs(t *testing.T) {
	checkExtract(t, map[string][]want{
		"Я сторонник раздельного сбора мусора.": nil,
		"Я любитель чая.":                       nil,
		"Сын — первоклассник.":                  nil,
		"I'm an early riser.":                   nil,
		"Я фанат «Зенита».":                     {{u, claims.Likes, "Зенит"}},
	})
}

// Two relatives joined by "and": "my mum and my aunt", "мама и папа";
// "my husband and I" is read at "I".
func TestExtractTwoSubjects(t *testing.T) {
	checkExtract(t, map[string][]want{
		"My husband and I live in Norwich.":       {{u, claims.LivesIn, "Norwich"}},
		"My mum and my aunt both speak Urdu.":     {{"mum", claims.Speaks, "Urdu"}, {"aunt", claims.Speaks, "Urdu"}},
		"My son and my nephew play rugby.":        {{"son", claims.Plays, "rugby"}, {"nephew", claims.Plays, "rugby"}},
		"Мама и папа живут в Твери.":              {{"Мама", claims.LivesIn, "Тверь"}, {"папа", claims.LivesIn, "Тверь"}},
		"My sister and her husband live in Hull.": nil,
	})
}

// A pattern taken up again after "and" from a later word of its own.
func TestExtractResumed(t *testing.T) {
	checkExtract(t, map[string][]want{
		"I have a brother called Rob and a sister called Jen.": {{u, claims.Sibling, "Rob"}, {u, claims.Sibling, "Jen"}},
		"I have a dog named Rusty and a cat named Mo.":         {{u, claims.HasPet, "Rusty"}, {u, claims.HasPet, "Mo"}},
	})
}

// A place narrowed after a comma with the same preposition is the place
// lived in; "купили" is bought too.
func TestExtractNarrowedPlace(t *testing.T) {
	checkExtract(t, map[string][]want{
		"Живу в Татарстане, в Казани.":   {{u, claims.LivesIn, "Казань"}},
		"Живу в Люберцах.":               {{u, claims.LivesIn, "Люберцы"}},
		"Живу в Мытищах.":                {{u, claims.LivesIn, "Мытищи"}},
		"I live in Kent, in Canterbury.": {{u, claims.LivesIn, "Canterbury"}},
		"I live in Kazan, Russia.":       {{u, claims.LivesIn, "Kazan"}},
		"Летом купили дачу под Тверью.":  {{u, claims.Owns, "дача"}},
	})
}

// A partner named with "is" or a dash, in English and Russian, and no
// partner in a word of nationality or faith, which English capitalises.
func TestExtractPartnerIs(t *testing.T) {
	checkExtract(t, map[string][]want{
		"My partner is Tom.":                      {{u, claims.Partner, "Tom"}},
		"My wife is Olga.":                        {{u, claims.Partner, "Olga"}},
		"My fiancée is Priya.":                    {{u, claims.Partner, "Priya"}},
		"My boyfriend's name is Sam.":             {{u, claims.Partner, "Sam"}},
		"My husband — Tom — cooks.":               {{u, claims.Partner, "Tom"}},
		"My husband is German.":                   nil,
		"My girlfriend is Russian and loves tea.": nil,
		"My partner is a lawyer.":                 {{"partner", claims.JobTitle, "lawyer"}},
		"Моя жена — Ольга.":                       {{u, claims.Partner, "Ольга"}},
		"Мой партнёр — Тимур.":                    {{u, claims.Partner, "Тимур"}},
		"Мой жених Артём.":                        {{u, claims.Partner, "Артём"}},
		"Моего партнёра зовут Тимур.":             {{u, claims.Partner, "Тимур"}},
		"Мою невесту зовут Аня.":                  {{u, claims.Partner, "Аня"}},
	})
}

// An ending after a match in its clause says that what it states is over:
// no claim, unless the ending is taken back or belongs to another match.
func TestExtractEnded(t *testing.T) {
	checkExtract(t, map[string][]want{
		"My cat Luna died last week.":                        {},
		"My cat Luna, who was 15, died in May.":              {},
		"Sadly my dog Rex passed away.":                      {},
		"My boyfriend Tom and I broke up.":                   {},
		"My cat Luna almost died last week.":                 {{u, claims.HasPet, "Luna"}},
		"My cat Luna did not die.":                           {{u, claims.HasPet, "Luna"}},
		"My cat Luna is fine and my dog Rex died.":           {{u, claims.HasPet, "Luna"}},
		"My dog Rex died, and now we have a cat named Luna.": {{u, claims.HasPet, "Luna"}},
		"Моя кошка Луна умерла.":                             {},
		"Наш пёс Рекс погиб под машиной.":                    {},
		"Моя кошка Луна чуть не умерла.":                     {{u, claims.HasPet, "Луна"}},
		"Мой муж Игорь и я развелись.":                       {},
	})
}
