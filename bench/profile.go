package main

import (
	"os"
	"runtime"
	"runtime/pprof"
)

// startProfile writes a CPU profile to path until the returned stop is called.
func startProfile(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

// loadAndProfile reads the texts facts are built from and, when path is
// set, starts a CPU profile; stop ends it (a no-op without a profile).
func loadAndProfile(texts, path string) (facts []string, stop func(), err error) {
	if facts, err = loadTexts(texts); err != nil {
		return nil, nil, err
	}
	stop = func() {}
	if path != "" {
		if stop, err = startProfile(path); err != nil {
			return nil, nil, err
		}
	}
	return facts, stop, nil
}

// startBlockProfile records where goroutines block and which mutexes they
// wait for, and writes both to path until stop: "block" first, then "mutex"
// to path + ".mutex".
func startBlockProfile(path string) (stop func(), err error) {
	runtime.SetBlockProfileRate(10_000) // a sample per 10 µs blocked
	runtime.SetMutexProfileFraction(10)
	return func() {
		for name, p := range map[string]string{"block": path, "mutex": path + ".mutex"} {
			if f, err := os.Create(p); err == nil {
				pprof.Lookup(name).WriteTo(f, 0)
				f.Close()
			}
		}
		runtime.SetBlockProfileRate(0)
		runtime.SetMutexProfileFraction(0)
	}, nil
}
