package importer

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// SplitPaths sorts the paths a source was given into files and directories,
// in order. A path that does not exist is skipped: the agent may simply not
// be installed on this machine.
func SplitPaths(paths []string) (files, dirs []string, err error) {
	for _, p := range paths {
		fi, err := os.Stat(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, nil, fmt.Errorf("stat %s: %w", p, err)
		}
		if fi.IsDir() {
			dirs = append(dirs, p)
		} else {
			files = append(files, p)
		}
	}
	return files, dirs, nil
}

// IsDir reports whether p is an existing directory.
func IsDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
