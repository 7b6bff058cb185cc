package kv_test

import (
	"path/filepath"
	"testing"

	"github.com/palimpsest-mem/memory/kv"
	"github.com/palimpsest-mem/memory/kv/kvtest"
)

// The store file passes the Backend conformance suite.
func TestPerUserBackend(t *testing.T) {
	var path string
	kvtest.Run(t, kvtest.Harness{
		Open: func(t *testing.T) kv.Backend {
			path = filepath.Join(t.TempDir(), "store.db")
			db, err := kv.Open(path, 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			return db.PerUser()
		},
		Files: func(t *testing.T) []string { return []string{path} },
	})
}
