package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/recall-dev/recall/recall"
	"github.com/recall-dev/recall/recall/secrets"
	"github.com/recall-dev/recall/ui/termtext"
)

// exportJSON is --format json: the session and its messages in the shapes
// every other command prints.
type exportJSON struct {
	Session  sessionJSON   `json:"session"`
	Messages []messageJSON `json:"messages"`
}

// exportFormats are --format's values.
var exportFormats = []candidate{{"md", "markdown"}, {"json", "JSON"}, {"html", "one self-contained HTML page"}}

func runExport(env *Env, c *Command, args []string) error {
	fs := newFlags(c, env)
	format := fs.String("format", "md", "md (markdown), json, or html (one self-contained page); the stored text byte for byte, secrets redacted, except markdown printed to a terminal, which is sanitised")
	outPath := fs.String("o", "", "write to `FILE` (private: 0600, an existing file too) instead of stdout; - is stdout")
	showSecrets := fs.Bool("show-secrets", false, "keep API keys, tokens and passwords (by default each is replaced by [REDACTED:rule], as an export is for sharing)")
	var bo batchFlags
	bo.define(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if bo.batch {
		if fs.NArg() > 0 {
			return usageError("--batch exports the whole database (or --since TIME): it takes no SESSION_ID")
		}
		return exportBatch(env, bo, *outPath)
	}
	if fs.NArg() != 1 {
		return usageError("one SESSION_ID is required (a unique prefix will do), got %d", fs.NArg())
	}
	if *format != "md" && *format != "json" && *format != "html" {
		return usageError("--format must be md, json or html, got %q", *format)
	}
	st, err := env.openForRead()
	if err != nil {
		return err
	}
	defer st.Close()
	view := secrets.ReaderFor(st, *showSecrets)
	sess, err := resolveSession(env, view, fs.Arg(0))
	if err != nil {
		return err
	}
	msgs, err := view.Messages(env.Ctx, sess.ID)
	if err != nil {
		return err
	}
	if n := view.Replaced(); n > 0 {
		fmt.Fprintf(env.Stderr, "recall: %s redacted (--show-secrets keeps them)\n", plural(n, "secret", "secrets"))
	}
	var w io.Writer = env.Stdout
	toTerminal := env.StdoutIsTerminal
	var f *os.File
	if *outPath != "" && *outPath != "-" {
		if f, err = createPrivate(*outPath); err != nil {
			return err
		}
		w, toTerminal = f, false
	}
	switch {
	case *format == "json":
		out := exportJSON{Session: toSessionJSON(sess), Messages: make([]messageJSON, len(msgs))}
		for i, m := range msgs {
			out.Messages[i] = toMessageJSON(m)
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		err = enc.Encode(out)
	case *format == "html":
		err = recall.ExportHTML(w, sess, msgs)
	case toTerminal:
		// A terminal would run escape sequences stored in the transcript;
		// a pipe or a file gets the exact bytes.
		var b strings.Builder
		if err = recall.ExportMarkdown(&b, sess, msgs); err == nil {
			_, err = io.WriteString(w, termtext.Sanitize(b.String()))
		}
	default:
		err = recall.ExportMarkdown(w, sess, msgs)
	}
	if f != nil {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return fmt.Errorf("write export: %w", err)
	}
	return nil
}

// createPrivate opens path for writing, readable by its owner only: a
// transcript is private. A file that exists is emptied and made 0600 before
// a byte is written to it (its old mode may have let others read it); a
// device or a pipe (-o /dev/stdout) is written as it is.
func createPrivate(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, fmt.Errorf("create export file: %w", err)
	}
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm() != 0o600 {
		if err := f.Chmod(0o600); err != nil {
			f.Close()
			return nil, fmt.Errorf("make export file private (0600): %w", err)
		}
	}
	return f, nil
}
