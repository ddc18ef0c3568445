package importer

import "path/filepath"

// FilesIn is the discovery of a source that reads a file at a known place
// in an app's folder (its database): the files named in paths as they
// are, and in each named folder the first of rel (slash-separated paths
// below it) that is a file, or with all every one of them.
func FilesIn(paths []string, all bool, rel ...string) ([]string, error) {
	files, dirs, err := SplitPaths(paths)
	if err != nil {
		return nil, err
	}
	for _, d := range dirs {
		for _, r := range rel {
			if p := filepath.Join(d, filepath.FromSlash(r)); IsFile(p) {
				files = append(files, p)
				if !all {
					break
				}
			}
		}
	}
	return files, nil
}
