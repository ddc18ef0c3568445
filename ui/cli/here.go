package cli

import (
	"os"
	"path/filepath"
)

// projectDir is the repository recall runs in: the nearest directory from
// the working directory up that holds .git, else the working directory.
// Sessions whose cwd is it or under it are "this repo" (--here, F7).
func projectDir() string {
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	for dir := wd; ; {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return wd
		}
		dir = parent
	}
}

// hereDir is the scope --here asks for: projectDir when here, else "".
func hereDir(here bool) string {
	if !here {
		return ""
	}
	return projectDir()
}
