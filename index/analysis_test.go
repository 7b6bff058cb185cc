package index

import (
	"testing"
	"testing/fstest"
)

// TestAnalysisNamesTheLexicons checks that a change to a lexicon an
// analyzer reads changes its name, and a change to one it does not read
// (the words of asking, queries only) leaves it.
func TestAnalysisNamesTheLexicons(t *testing.T) {
	files := func(edit string) fstest.MapFS {
		fsys := fstest.MapFS{}
		for _, kind := range []string{"stop", "prefixes", "topics", "frames", "synonyms", "question"} {
			for _, lang := range lexiconLangs {
				fsys[lexiconFile(kind, lang)] = &fstest.MapFile{Data: []byte("# " + kind + "\n")}
			}
		}
		if edit != "" {
			fsys[edit] = &fstest.MapFile{Data: []byte("changed\n")}
		}
		return fsys
	}
	base := analysisOf(Topics, files(""))
	if got := analysisOf(Topics, files("lexicons/synonyms.ru.txt")); got == base {
		t.Errorf("topics: a changed synonyms.ru.txt leaves %s", got)
	}
	if got := analysisOf(Topics, files("lexicons/question.en.txt")); got != base {
		t.Errorf("topics: a changed question.en.txt changed %s to %s", base, got)
	}
	if got := analysisOf(Stems, files("lexicons/topics.en.txt")); got != analysisOf(Stems, files("")) {
		t.Errorf("stems reads no topics, but its name moved to %s", got)
	}
	if a, b := Analysis(Stems), Analysis(Topics); a == b || Analysis(Topics) != b {
		t.Errorf("Analysis: stems %s, topics %s: want distinct and stable", a, b)
	}
}
