package index

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
)

// DocKey names one document: a fact of a user. A fact's id is unique only
// within its user's facts (a store may number each user's facts on its
// own), so the index never names a document by its id alone.
type DocKey struct {
	User string
	ID   uint64
}

// Key returns the key of the document.
func (d Doc) Key() DocKey { return DocKey{User: d.User, ID: d.ID} }

// docIDFormat names how documents' keys are written as bleve document
// ids (docID); a kept index written with another is built again (Format).
const docIDFormat = "keys2"

// Format names what a kept index's documents are to this build: the
// analysis that made their terms (Analysis) and how their keys are
// written. An index marked with another name must be built again.
func Format(mode Mode) string { return Analysis(mode) + "/" + docIDFormat }

// docID is a key as a bleve document id: the id in decimal, a slash, the
// user in hex. Unambiguous for any user (a user may hold any byte,
// slashes too); the id first, so that ids of a user sort as they did when
// the id was all of it ('/' sorts before every digit), and every
// document of an id is under the prefix "id/" (keysOf).
func docID(k DocKey) string {
	var b strings.Builder
	b.Grow(20 + 1 + 2*len(k.User))
	b.WriteString(strconv.FormatUint(k.ID, 10))
	b.WriteByte('/')
	b.WriteString(hex.EncodeToString([]byte(k.User)))
	return b.String()
}

// parseDocID reads a bleve document id back as a key. Only what docID
// writes is accepted: anything else in an index is damage.
func parseDocID(s string) (DocKey, error) {
	id, user, ok := strings.Cut(s, "/")
	n, err := strconv.ParseUint(id, 10, 64)
	if !ok || err != nil {
		return DocKey{}, fmt.Errorf("index: bad document id %q", s)
	}
	u, err := hex.DecodeString(user)
	k := DocKey{User: string(u), ID: n}
	if err != nil || docID(k) != s { // no leading zeros, no upper-case hex
		return DocKey{}, fmt.Errorf("index: bad document id %q", s)
	}
	return k, nil
}
