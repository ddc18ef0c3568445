//go:build !unix

package store

// noSpaceLeft is not known on this system; an I/O error stays ErrIO.
func noSpaceLeft(path string) bool { return false }
