package kv

import "time"

// ReleaseMappedEvery calls ReleaseMapped every period until stop is
// called, from a goroutine of its own: a read transaction's pass over the
// whole file then holds at most what it reads in a period. stop waits for
// the goroutine, and must be called before the transaction ends.
func (t *Tx) ReleaseMappedEvery(period time.Duration) (stop func()) {
	done, exited := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(exited)
		tick := time.NewTicker(period)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				t.ReleaseMapped()
			}
		}
	}()
	return func() {
		close(done)
		<-exited
	}
}
