package index

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
)

// analysisVersion changes when the code changes what an analyzer makes of
// a text (its tokens, stems, roots), as the lexicons' digest does when
// their words change.
const analysisVersion = "1"

// lexiconKinds are the lexicons each mode's analyzer reads to make the
// terms of a text (question.* shapes only queries, never stored terms).
func lexiconKinds(mode Mode) []string {
	switch mode {
	case Keywords4:
		return nil
	case Stems:
		return []string{"stop", "prefixes"}
	}
	return []string{"stop", "prefixes", "topics", "frames", "synonyms"}
}

// Analysis names what an analyzer of mode makes of texts: the mode, the
// analysis code's version and a digest of the built-in lexicons it reads.
// Terms an index holds under another name are not what this build makes
// of the same texts: an index kept by another version must be built again.
func Analysis(mode Mode) string { return analysisOf(mode, lexiconFiles) }

func analysisOf(mode Mode, fsys fs.FS) string {
	h := sha256.New()
	for _, kind := range lexiconKinds(mode) {
		for _, lang := range lexiconLangs {
			name := lexiconFile(kind, lang)
			b, err := fs.ReadFile(fsys, name)
			if err != nil {
				continue // a language without the kind (prefixes.en)
			}
			h.Write([]byte(name))
			h.Write([]byte{0})
			h.Write(b)
			h.Write([]byte{0})
		}
	}
	return string(mode) + "/" + analysisVersion + "/" + hex.EncodeToString(h.Sum(nil)[:8])
}
