//go:build !linux

package index

func renameNoReplace(old, new string) error { return renameIfAbsent(old, new) }
