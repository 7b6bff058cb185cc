// Package fsx holds the file-system calls the standard library lacks and
// more than one package of the module needs.
package fsx

// RenameNoReplace renames old to new in one step unless something is at
// new, where a plain rename would replace an empty directory or a file:
// then an *os.LinkError wrapping fs.ErrExist. Where the system or the file
// system has no such rename, an error wrapping errors.ErrUnsupported, and
// the caller chooses its fallback (a look before the rename, a hard link).
func RenameNoReplace(old, new string) error { return renameNoReplace(old, new) }
