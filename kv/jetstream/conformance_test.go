package jetstream

import (
	"testing"

	"github.com/palimpsest-mem/memory/kv"
	"github.com/palimpsest-mem/memory/kv/kvtest"
)

// The cluster passes the Backend conformance suite the bbolt file passes
// (package kv's TestPerUserBackend): one 3-node cluster, each case on
// streams of its own, the erase checked in every node's files.
func TestConformance(t *testing.T) {
	c := startCluster(t)
	kvtest.Run(t, kvtest.Harness{
		Open: func(t *testing.T) kv.Backend { return c.newBackend(t) },
		Files: func(t *testing.T) []string {
			dirs := make([]string, c.Nodes())
			for i := range dirs {
				dirs[i] = c.NodeDir(i)
			}
			return dirs
		},
	})
}
