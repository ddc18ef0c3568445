package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// readBuildInfo is debug.ReadBuildInfo; tests replace it to see both a build
// with VCS information and one without (-buildvcs=false).
var readBuildInfo = debug.ReadBuildInfo

// versionJSON is what `recall version --json` prints.
type versionJSON struct {
	Version      string `json:"version"`                 // module version: a tag, a pseudo-version, or "(devel)"
	Revision     string `json:"revision,omitempty"`      // VCS commit the binary was built from
	RevisionTime string `json:"revision_time,omitempty"` // that commit's time (RFC 3339)
	Modified     bool   `json:"modified"`                // built with uncommitted changes
	Go           string `json:"go"`
	Platform     string `json:"platform"`
}

// buildVersion reads the binary's version from its build information. A
// binary built without VCS stamping (go build -buildvcs=false, a tarball
// without .git) simply has no revision.
func buildVersion() versionJSON {
	v := versionJSON{Version: "(devel)", Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	bi, ok := readBuildInfo()
	if !ok {
		return v
	}
	if bi.Main.Version != "" {
		v.Version = bi.Main.Version
	}
	if bi.GoVersion != "" {
		v.Go = bi.GoVersion
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Revision = s.Value
		case "vcs.time":
			v.RevisionTime = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
	}
	return v
}

func runVersion(env *Env, c *Command, args []string) error {
	fs := newFlags(c, env)
	asJSON := fs.Bool("json", false, "print JSON")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("unexpected argument %q", fs.Arg(0))
	}
	v := buildVersion()
	if *asJSON {
		return printJSON(env.Stdout, v)
	}
	fmt.Fprintf(env.Stdout, "recall %s\n", v.Version)
	switch {
	case v.Revision == "":
		fmt.Fprintln(env.Stdout, "revision unknown (built without VCS information: -buildvcs=false or no .git)")
	default:
		rev := v.Revision
		if v.RevisionTime != "" {
			rev += " (" + v.RevisionTime + ")"
		}
		if v.Modified {
			rev += " with uncommitted changes"
		}
		fmt.Fprintf(env.Stdout, "revision %s\n", rev)
	}
	fmt.Fprintf(env.Stdout, "%s %s\n", v.Go, v.Platform)
	return nil
}
