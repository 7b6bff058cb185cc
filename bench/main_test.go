package main

import (
	"os"
	"testing"
)

// The test binary stands in for the bench binary when a test re-executes
// it: as the crash test's writer, or as perf's fresh process for an Open
// or an Import.
func TestMain(m *testing.M) {
	crashChildFromEnv()
	if perfChildFromEnv() {
		return
	}
	os.Exit(m.Run())
}
