package kv

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// guard makes a memory fault on the mapped file a recoverable panic on this
// goroutine: a damaged page can make bbolt read past the end of the map,
// which would otherwise kill the process. Use as
// defer recoverCorrupt(&err, guard()).
func guard() bool { return debug.SetPanicOnFault(true) }

// recoverCorrupt turns a panic that damage to the file explains into
// ErrCorrupt at the package boundary, and restores the goroutine's fault
// setting that guard changed. Any other panic, a bug in a transaction's
// closure or in this package, goes on with its own value: a bug must not
// pass for corruption.
func recoverCorrupt(err *error, old bool) {
	debug.SetPanicOnFault(old)
	r := recover()
	if r == nil {
		return
	}
	if !corruptionPanic(r) {
		panic(r)
	}
	*err = fmt.Errorf("%w: %v", ErrCorrupt, r)
}

// nilPage bounds the addresses of a nil pointer's fields: the runtime
// reports a fault below it as a nil dereference.
const nilPage = 4096

// corruptionPanic reports whether a recovered panic comes from the file:
// a memory fault at a real address (with guard set, reading a mapped page
// the file no longer backs, whichever code reads it), or a panic raised
// inside bbolt, whose assertions fire on damaged pages. It must run in
// the deferred call, while the panicking frames are still on the stack.
func corruptionPanic(r any) bool {
	if e, ok := r.(runtime.Error); ok {
		// A general protection fault (an address past the canonical range,
		// as a wild page offset gives) reports address 0: the site decides.
		if a, ok := e.(interface{ Addr() uintptr }); ok && a.Addr() >= nilPage {
			return true
		}
	}
	site := panicSite()
	return strings.HasPrefix(site, "go.etcd.io/bbolt.") || strings.HasPrefix(site, "go.etcd.io/bbolt/")
}

// panicSite returns the function that panicked: the first frame below
// runtime.gopanic that is not the runtime's own (a nil map write panics
// in runtime.mapassign, a fault in runtime.sigpanic).
func panicSite() string {
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(1, pcs)])
	panicking := false
	for {
		f, more := frames.Next()
		switch {
		case f.Function == "runtime.gopanic":
			panicking = true
		case panicking && !strings.HasPrefix(f.Function, "runtime."):
			return f.Function
		}
		if !more {
			return ""
		}
	}
}
