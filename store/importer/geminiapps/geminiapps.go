// Package geminiapps imports the Gemini Apps history of a Google Takeout
// export: "My Activity" › "Gemini Apps" (Takeout/My Activity/Gemini Apps/
// MyActivity.json, or MyActivity.html when the export was made in HTML),
// from the Takeout zip or the unpacked file.
//
// Takeout lists every prompt as an activity of its own, newest first:
// {"header": "Gemini Apps", "title": "Prompted <the prompt>", "time",
// "safeHtmlItem": [{"html": <the answer>}], "details": [{"name": <the
// conversation's URL>}], "imageFile", "attachedFiles", …}. Activities that
// name their conversation (gemini.google.com/app/<id>) are gathered into
// one session per conversation; the others are a session each. Activities
// that are not a prompt (Created a canvas, Gave feedback, Used an
// extension, …) are counted as skipped.
package geminiapps

import (
	"archive/zip"
	"context"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/export"
)

// SourceName is the session source of imported Gemini Apps conversations.
const SourceName = "gemini-apps"

func init() { importer.Register(&Source{}, "gemini-takeout", "bard") }

// Source imports Gemini Apps activity from Google Takeout.
type Source struct{}

// Name is "gemini-apps".
func (*Source) Name() string { return SourceName }

// DefaultPaths is empty: an export lies wherever it was downloaded.
func (*Source) DefaultPaths() []string { return nil }

// PathHint is what `recall import gemini-apps` needs.
func (*Source) PathHint() string {
	return "the Google Takeout zip, or its My Activity/Gemini Apps/MyActivity.json (or .html)"
}

// activityFile reports a name Takeout gives the activity file.
func activityFile(name string) bool {
	switch strings.ToLower(name) {
	case "myactivity.json", "my activity.json", "myactivity.html", "my activity.html":
		return true
	}
	return false
}

// geminiFolder reports whether a path lies in Takeout's Gemini Apps folder
// (named Bard before the rename).
func geminiFolder(p string) bool {
	l := strings.ToLower(filepath.ToSlash(p))
	return strings.Contains(l, "gemini") || strings.Contains(l, "bard")
}

// Discover returns the named files, and in a named folder (an unpacked
// Takeout) the activity files of its Gemini Apps folder.
func (*Source) Discover(paths []string) ([]string, error) {
	var walked []string
	named, err := importer.FindFiles(paths, nil, nil, func(p, name string) {
		if activityFile(name) && geminiFolder(filepath.Dir(p)) {
			walked = append(walked, p)
		}
	})
	return append(named, walked...), err
}

// Import reads one export: the zip's Gemini Apps activity file, or the
// file itself. Another product's My Activity file (Search, YouTube) is
// passed over.
func (*Source) Import(ctx context.Context, st *store.Store, file string) (importer.Report, error) {
	if activityFile(filepath.Base(file)) && !geminiFolder(filepath.Dir(file)) && !mentionsGemini(file) {
		return importer.Report{Skipped: 1}, nil
	}
	return export.ImportAssembled(ctx, st, SourceName, file, func(t *importer.Tally) ([]export.Conversation, error) {
		rc, html, err := open(file)
		if err != nil {
			return nil, err
		}
		defer rc.Close()
		var acts []activity
		if html {
			acts, err = readHTML(rc, t)
		} else {
			acts, err = readJSON(rc, t)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		return conversations(acts, t), nil
	})
}

// mentionsGemini reports whether the first bytes of a My Activity file name
// Gemini Apps.
func mentionsGemini(file string) bool {
	f, err := os.Open(file)
	if err != nil {
		return false
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	n, _ := io.ReadFull(f, buf)
	return strings.Contains(string(buf[:n]), "Gemini Apps")
}

// open returns the activity file's content: the file itself, or in a zip
// the activity file under its Gemini Apps folder; html says which form.
func open(file string) (io.ReadCloser, bool, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, false, err
	}
	var magic [4]byte
	n, _ := io.ReadFull(f, magic[:])
	if n < 4 || string(magic[:]) != "PK\x03\x04" {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			f.Close()
			return nil, false, err
		}
		return f, isHTML(f), nil
	}
	f.Close()
	zr, err := zip.OpenReader(file)
	if err != nil {
		return nil, false, fmt.Errorf("open zip %s: %w", file, err)
	}
	for _, zf := range zr.File {
		if activityFile(path.Base(zf.Name)) && geminiFolder(path.Dir(zf.Name)) {
			rc, err := zf.Open()
			if err != nil {
				zr.Close()
				return nil, false, err
			}
			return struct {
				io.Reader
				io.Closer
			}{rc, closers{rc, zr}}, strings.HasSuffix(strings.ToLower(zf.Name), ".html"), nil
		}
	}
	zr.Close()
	return nil, false, fmt.Errorf("%s holds no My Activity/Gemini Apps/MyActivity.json: is it a Google Takeout zip with Gemini Apps activity?", file)
}

type closers []io.Closer

func (cs closers) Close() error {
	var first error
	for _, c := range cs {
		if err := c.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// isHTML tells an HTML activity file from a JSON one by its first
// non-space byte, leaving f where it was.
func isHTML(f *os.File) bool {
	buf := make([]byte, 512)
	n, _ := f.ReadAt(buf, 0)
	s := strings.TrimLeft(string(buf[:n]), " \t\r\n\ufeff")
	return strings.HasPrefix(s, "<")
}
