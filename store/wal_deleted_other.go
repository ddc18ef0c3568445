//go:build !unix

package store

import (
	"os"
)

// dirWritable tries to create a file in the folder.
func dirWritable(dir string) bool {
	f, err := os.CreateTemp(dir, ".recall-probe-*")
	if err != nil {
		return false
	}
	f.Close()
	os.Remove(f.Name())
	return true
}
