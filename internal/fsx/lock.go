package fsx

import "os"

// LockFile takes an exclusive flock on f (the lock bbolt takes on a store
// file, too), waiting for it if wait is set; without wait it reports
// whether it got the lock. Where there is no flock, waiting succeeds at
// once and a try reports the lock held by someone else.
func LockFile(f *os.File, wait bool) (bool, error) { return lockFile(f, wait) }
