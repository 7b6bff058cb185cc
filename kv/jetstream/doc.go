// Package jetstream is the NATS JetStream implementation of kv.Backend: a
// user's data lives in one R3 stream, one subject per key, every commit an
// atomic batch whose last message is the user's head, guarded by the
// sequence the writer's snapshot was at.
//
// It owns the layout of the streams (subjects, the format marker), the raw
// protocol nats.go lacks (atomic batch publish, leader and multi_last
// reads, see batch.go), dialling a cluster by URL (dial.go), an embedded
// cluster of nats-server nodes (cluster.go) that tests and `memctl
// cluster` run, and the erase's side on the nodes: raft snapshots forced
// and the nodes' files scanned (erase.go), in the nodes' process or
// through their agent (agent.go) for a Backend of another.
//
// It imports package kv, the NATS client and server, and internal/...
// only: never bbolt, never package memory (imports_test.go holds that),
// so the store is swapped without touching what sits above kv.Backend.
package jetstream
