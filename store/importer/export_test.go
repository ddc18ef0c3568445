package importer

import "os"

// SetOpenFile replaces how importers open source files until the returned
// function restores it (a permission error cannot be made as root).
func SetOpenFile(open func(path string) (*os.File, error)) (restore func()) {
	old := openFile
	openFile = open
	return func() { openFile = old }
}
