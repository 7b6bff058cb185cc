module github.com/palimpsest-mem/memory

go 1.26.8

require go.etcd.io/bbolt v1.4.3

require golang.org/x/sys v0.46.0 // indirect
