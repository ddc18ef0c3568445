//go:build !unix

package cli

// processAlive cannot tell here, so nothing is taken for dead.
func processAlive(pid int) bool { return true }
