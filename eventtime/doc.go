// Package eventtime reads the time a fact became (or becomes) true from the
// words of an English or Russian chat message: "three weeks ago", "from
// Monday", "last spring", "в начале мая", "с 2019 года", "позавчера". Given
// the text and the moment it was said, Parse returns the first day of the
// period the words refer to, its grain (day, week, month, season, year), the
// matched span and the language, and, when the words name one, where the
// period ends ("from 13 to 15 July", "for two weeks", "until Friday", "до
// конца месяца").
//
// It owns the date grammar of both languages (number words and their case
// forms, weekday, month and season names, relative and deictic
// expressions, start/middle/end of periods) and these resolution
// conventions: weeks start on Monday; "on Monday" and "next Monday" mean
// the coming one; seasons start on 1 March, 1 June, 1 September and
// 1 December; "last spring" is the most recent spring that is over; "early
// May" and "end of May" give May with month grain.
//
// The parser is a single left-to-right pass over a bounded number of tokens
// with a bounded look-around at each, so its time is linear in the input;
// it never panics and refuses dates outside the years 1900 to 2199 (InRange).
//
// The occasions that recur yearly ("birthday", "день рождения") and the
// words of a recurring day ("Mondays", "по субботам") are data, in the
// embedded recurring.txt: a date told of them gives no start (Result.Recurring).
//
// eventtime is a leaf: it must not import bbolt, bleve, the Ollama client or
// any other package of this module but internal/wordlist, the strict line
// reader of the module's built-in word lists.
package eventtime
