//go:build !unix

package importer

import "os"

// openNoBlock is os.Open where there are no named pipes to block on.
func openNoBlock(path string) (*os.File, error) { return os.Open(path) }
