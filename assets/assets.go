// Package assets holds the files embedded in the recall binary: the demo
// history behind `recall demo` and the pinned Glamour style, so output never
// depends on the terminal's background detection or on files on disk.
package assets

import (
	"embed"
	"fmt"
	"io/fs"
	"strings"
)

//go:embed demo/*.jsonl styles/*.json
var files embed.FS

// DemoJSONL is the embedded demo history in recall's generic JSONL format
// (see store/importer/jsonl), all demo files concatenated in name order.
func DemoJSONL() []byte {
	names, err := fs.Glob(files, "demo/*.jsonl")
	if err != nil {
		panic(fmt.Sprintf("assets: list demo files: %v", err)) // the pattern is a constant
	}
	var out []byte
	for _, n := range names {
		b, err := files.ReadFile(n)
		if err != nil {
			panic(fmt.Sprintf("assets: read %s: %v", n, err)) // embedded at build time
		}
		out = append(out, b...)
		if len(b) > 0 && b[len(b)-1] != '\n' {
			out = append(out, '\n')
		}
	}
	return out
}

// Style returns the embedded Glamour style named name ("recall" or
// "recall.json").
func Style(name string) ([]byte, error) {
	name = strings.TrimSuffix(name, ".json")
	b, err := files.ReadFile("styles/" + name + ".json")
	if err != nil {
		return nil, fmt.Errorf("style %q is not embedded", name)
	}
	return b, nil
}
