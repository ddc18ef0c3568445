// Package windsurf finds Windsurf's Cascade conversations and says that
// they cannot be read: Windsurf (now also sold as Devin Desktop) keeps each
// conversation as an encrypted protobuf file,
// ~/.codeium/windsurf/cascade/<uuid>.pb, with no documented format or key,
// and serves them only to its own language server. The source exists so
// that `recall import all`, `recall import windsurf` and `recall watch`
// say so instead of passing Windsurf over in silence.
package windsurf

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
)

// SourceName is the name `recall import` knows Windsurf by.
const SourceName = "windsurf"

func init() { importer.Register(&Source{}, "cascade", "windsurf-cascade") }

// Source finds Windsurf's conversations. Its zero value is ready.
type Source struct{}

// Name is "windsurf".
func (*Source) Name() string { return SourceName }

// DefaultPaths are the cascade folders of Windsurf and Windsurf Next
// (~/.codeium/windsurf, ~/.codeium/windsurf-next: the language server's
// --codeium_dir, the same under the home folder on every OS).
func (*Source) DefaultPaths() []string {
	home, err := os.UserHomeDir()
	if err != nil {
		return nil
	}
	var out []string
	for _, product := range []string{"windsurf", "windsurf-next"} {
		out = append(out, filepath.Join(home, ".codeium", product, "cascade"))
	}
	return out
}

// Discover lists the conversation files (*.pb) under paths.
func (*Source) Discover(paths []string) ([]string, error) {
	return importer.FindMatching(paths, importer.Subfolder("cascade"), nil, func(name string) bool {
		return strings.HasSuffix(name, ".pb")
	})
}

// ErrEncrypted is what importing a Cascade conversation fails with.
var ErrEncrypted = errors.New("a Windsurf Cascade conversation is encrypted protobuf (no documented format or key): recall cannot read it")

// Import fails: there is nothing recall can read in the file.
func (*Source) Import(_ context.Context, _ *store.Store, file string) (importer.Report, error) {
	return importer.Report{}, ErrEncrypted
}

// Unreadable names what was found: how many conversations, in which
// folders.
func (*Source) Unreadable(files []string) string {
	dirs := map[string]bool{}
	for _, f := range files {
		dirs[filepath.Dir(f)] = true
	}
	var where []string
	for d := range dirs {
		where = append(where, d)
	}
	sort.Strings(where)
	n := "1 Cascade conversation"
	if len(files) != 1 {
		n = fmt.Sprintf("%d Cascade conversations", len(files))
	}
	if len(where) == 0 {
		return "no Cascade conversations found (Windsurf keeps them in ~/.codeium/windsurf/cascade, encrypted: recall could not read them anyway)"
	}
	return fmt.Sprintf("%s in %s, but Windsurf encrypts them (protobuf with no documented format or key): recall cannot read them, nothing imported", n, strings.Join(where, ", "))
}
