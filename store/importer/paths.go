package importer

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
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

// WalkFiles calls visit for every file under root. A folder named in skip
// (below root) is not entered, and an unreadable folder is passed over so
// that one bad permission never hides the rest of a history.
func WalkFiles(root string, skip map[string]bool, visit func(path, name string)) error {
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil
		case d.IsDir() && skip[d.Name()] && path != root:
			return filepath.SkipDir
		case !d.IsDir():
			visit(path, d.Name())
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("walk %s: %w", root, err)
	}
	return nil
}

// HomeDir is the agent's folder: $envVar when set, else ~/name; "" when
// neither is known.
func HomeDir(envVar, name string) string {
	if d := os.Getenv(envVar); d != "" {
		return d
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, name)
}

// FindFiles is the discovery every walking source shares: the files named in
// paths are returned as they are, and each named directory is walked at the
// folders roots picks for it (the directory itself when roots is nil;
// folders that do not exist are passed over), calling visit for every file.
func FindFiles(paths []string, roots func(dir string) []string, skip map[string]bool, visit func(path, name string)) (named []string, err error) {
	named, dirs, err := SplitPaths(paths)
	if err != nil {
		return nil, err
	}
	for _, dir := range dirs {
		walk := []string{dir}
		if roots != nil {
			walk = roots(dir)
		}
		for _, r := range walk {
			if !IsDir(r) {
				continue
			}
			if err := WalkFiles(r, skip, visit); err != nil {
				return nil, err
			}
		}
	}
	return named, nil
}

// Subfolder returns a roots function for FindFiles: a directory's folder
// named sub when it has one (an agent's config root), else the directory.
func Subfolder(sub string) func(dir string) []string {
	return func(dir string) []string {
		if p := filepath.Join(dir, sub); IsDir(p) {
			return []string{p}
		}
		return []string{dir}
	}
}

// DataHome is a folder under the XDG data directory: $XDG_DATA_HOME/<parts>,
// else ~/.local/share/<parts>; "" when neither is known.
func DataHome(parts ...string) string {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(append([]string{d}, parts...)...)
	}
	return HomeDir("", filepath.Join(append([]string{".local", "share"}, parts...)...))
}

// PathIf is a source's one default path d, or none when d is "" (no home
// directory known).
func PathIf(d string) []string {
	if d != "" {
		return []string{d}
	}
	return nil
}

// IsFile reports whether p is (or a symlink leads to) a regular file.
func IsFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// FindMatching is FindFiles keeping the walked files whose name match
// accepts: the named files first, then the walked ones.
func FindMatching(paths []string, roots func(dir string) []string, skip map[string]bool, match func(name string) bool) ([]string, error) {
	var walked []string
	named, err := FindFiles(paths, roots, skip, func(path, name string) {
		if match(name) {
			walked = append(walked, path)
		}
	})
	return append(named, walked...), err
}

// Absolute returns files with each path made absolute (as it resolves from
// the current folder); a path that cannot be is kept as it is.
func Absolute(files []string) []string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = f
		if a, err := filepath.Abs(f); err == nil && f != "-" {
			out[i] = a
		}
	}
	return out
}
