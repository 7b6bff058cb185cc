package main

import (
	"context"
	"net"
	"net/http"
	"testing"
	"time"
)

// A request still running when the grace after Ctrl-C ends is cut, and
// the stop is the clean one that was asked for, not a failure of the
// command.
func TestServeHTTPStopsPastItsGrace(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	defer close(release)
	started := make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(started)
		<-release // a handler that does not end with its context
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serveHTTP(ctx, ln, h, defaultServeLimits()) }()
	go func() { _, _ = http.Get("http://" + ln.Addr().String() + "/") }()
	<-started
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serveHTTP past its grace: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("serveHTTP did not return")
	}
}
