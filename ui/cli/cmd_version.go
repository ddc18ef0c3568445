package cli

import (
	"fmt"
	"regexp"
	"runtime"
	"runtime/debug"
	"time"
)

// pseudoVersion matches the end of a Go pseudo-version (v0.0.0-20261205221510-288eb41111d7,
// v1.2.4-0.2026..., v1.3.0-pre.0.2026...): the commit's UTC time and its 12-digit hash.
var pseudoVersion = regexp.MustCompile(`[-.](\d{14})-([0-9a-f]{12})(\+[0-9A-Za-z.-]+)?$`)

// pseudoTime writes a pseudo-version's yyyymmddhhmmss as RFC 3339, as vcs.time is.
func pseudoTime(stamp string) string {
	t, err := time.Parse("20060102150405", stamp)
	if err != nil {
		return stamp
	}
	return t.UTC().Format(time.RFC3339)
}

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
	case v.Revision == "" && pseudoVersion.MatchString(v.Version):
		// go install MODULE@latest builds from the module zip, which has no
		// .git: the pseudo-version itself names the commit and its time.
		m := pseudoVersion.FindStringSubmatch(v.Version)
		fmt.Fprintf(env.Stdout, "revision %s (%s, from the module version)\n", m[2], pseudoTime(m[1]))
	case v.Revision == "" && v.Version != "(devel)":
		fmt.Fprintf(env.Stdout, "revision: tag %s (built from the module, which carries no VCS information)\n", v.Version)
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
