package cli

import (
	"strings"

	"github.com/recall-dev/recall/store/importer"
)

// importSummary is the import command's line in `recall help`: the sources
// come from the importer registry, so a new source is listed without
// editing the help (cmd_import.go's blank import of store/importer/all
// registers them before this package's variables are set).
func importSummary() string {
	var names, needPath []string
	for _, s := range importer.Sources() {
		names = append(names, s.Name())
		if _, ok := s.(importer.PathRequired); ok {
			needPath = append(needPath, s.Name())
		}
	}
	out := "import agent histories (" + strings.Join(names, ", ") + "; 'all' = every one found here"
	if len(needPath) > 0 {
		out += "; " + strings.Join(needPath, ", ") + " need a PATH"
	}
	return out + ")"
}
