package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/recall-dev/recall/store/importer"
)

// wrongFormat is the error for an import that brought in nothing from the
// paths it was given because they hold another agent's format: for each
// such path, what it looks like and the command that reads it. nil when
// something was imported (or was already), or the paths do not say.
func wrongFormat(src importer.Source, paths []string, rep importer.Report) error {
	if rep.Messages > 0 || rep.Sessions > 0 || rep.Deferred > 0 {
		return nil // a file passed over was not read: its lines say why
	}
	// A file this importer already read counts as imported; one it was
	// wrongly given before is recorded unchanged too, so the format, not
	// the count, tells them apart: an unchanged folder, or an unchanged
	// file of this importer's own format, is no mistake.
	var hints []string
	for _, p := range paths {
		file, plural := p, ""
		if fi, err := os.Stat(p); err != nil {
			continue
		} else if fi.IsDir() {
			if rep.Unchanged > 0 {
				return nil
			}
			if file = firstDataFile(p); file == "" {
				continue
			}
			plural = " (the files in it)"
		}
		f := importer.Detect(file)
		if f.Source == src.Name() && rep.Unchanged > 0 {
			return nil
		}
		if f.Source == "" || f.Source == src.Name() {
			continue
		}
		hints = append(hints, fmt.Sprintf("%s%s: this looks like %s: use `recall import %s %s`", p, plural, f.What, f.Alias, shellWord(p)))
	}
	if len(hints) == 0 {
		return nil
	}
	return errors.New(strings.Join(hints, "; "))
}

// nothingImportable is the error for an import whose every record was
// malformed (the problem lines say why): not one was ordinary input that
// happened to hold nothing new.
func nothingImportable(src importer.Source, rep importer.Report) error {
	torn := 0
	for _, p := range rep.Problems {
		if p.Msg == importer.IncompleteLine {
			torn++
		}
	}
	if rep.Messages > 0 || rep.Sessions > 0 || rep.Unchanged > 0 || rep.Skipped > 0 || rep.Malformed-torn <= 0 {
		return nil
	}
	return fmt.Errorf("nothing could be imported: every record read was malformed (%d); is it %s?", rep.Malformed, importer.FormatOf(src.Name()).What)
}

// firstDataFile is the first file under dir (in walk order, within a few
// hundred entries) with a name an agent's history file has.
func firstDataFile(dir string) string {
	found, seen := "", 0
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if seen++; err != nil || found != "" || seen > 500 {
			return filepath.SkipAll
		}
		n := d.Name()
		if !d.IsDir() && (strings.HasSuffix(n, ".jsonl") || strings.HasSuffix(n, ".json") || strings.HasSuffix(n, ".zst") || strings.HasSuffix(n, ".db")) {
			found = path
			return filepath.SkipAll
		}
		return nil
	})
	return found
}

// shellWord quotes p for a shell when it needs quoting, so the suggested
// command can be pasted.
func shellWord(p string) string {
	if p != "" && strings.Trim(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./~+:@%,=") == "" {
		return p
	}
	return "'" + strings.ReplaceAll(p, "'", `'\''`) + "'"
}
