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

func runExport(env *Env, c *Command, args []string) error {
	fs := newFlags(c, env)
	format := fs.String("format", "md", "md (markdown) or json; both keep the stored text byte for byte, except markdown printed to a terminal, which is sanitised")
	outPath := fs.String("o", "", "write to `FILE` (created private, 0600) instead of stdout; - is stdout")
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
	if *format != "md" && *format != "json" {
		return usageError("--format must be md or json, got %q", *format)
	}
	st, err := env.openForRead()
	if err != nil {
		return err
	}
	defer st.Close()
	sess, err := resolveSession(env, st, fs.Arg(0))
	if err != nil {
		return err
	}
	msgs, err := st.Messages(env.Ctx, sess.ID)
	if err != nil {
		return err
	}
	if !*showSecrets {
		r, err := secrets.New()
		if err != nil {
			return err
		}
		r.Walk(&sess)
		r.Walk(msgs)
		if r.Found > 0 {
			fmt.Fprintf(env.Stderr, "recall: %d secrets redacted (--show-secrets keeps them)\n", r.Found)
		}
	}
	var w io.Writer = env.Stdout
	toTerminal := env.StdoutIsTerminal
	var f *os.File
	if *outPath != "" && *outPath != "-" {
		// A transcript is private: the export is readable by its owner only.
		if f, err = os.OpenFile(*outPath, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600); err != nil {
			return fmt.Errorf("create export file: %w", err)
		}
		w, toTerminal = f, false
	}
	if *format == "json" {
		out := exportJSON{Session: toSessionJSON(sess), Messages: make([]messageJSON, len(msgs))}
		for i, m := range msgs {
			out.Messages[i] = toMessageJSON(m)
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		err = enc.Encode(out)
	} else if toTerminal {
		// A terminal would run escape sequences stored in the transcript;
		// a pipe or a file gets the exact bytes.
		var b strings.Builder
		if err = recall.ExportMarkdown(&b, sess, msgs); err == nil {
			_, err = io.WriteString(w, termtext.Sanitize(b.String()))
		}
	} else {
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
