package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"strings"

	"github.com/recall-dev/recall/recall"
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
	format := fs.String("format", "md", "md (sanitised markdown) or json (verbatim content)")
	outPath := fs.String("o", "", "write to FILE instead of stdout")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageError("one session ID is required (a unique prefix will do)")
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
	var w io.Writer = env.Stdout
	var f *os.File
	if *outPath != "" {
		if f, err = os.Create(*outPath); err != nil {
			return fmt.Errorf("create export file: %w", err)
		}
		w = f
	}
	if *format == "json" {
		out := exportJSON{Session: toSessionJSON(sess), Messages: make([]messageJSON, len(msgs))}
		for i, m := range msgs {
			out.Messages[i] = toMessageJSON(m)
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		err = enc.Encode(out)
	} else {
		if f == nil && env.StdoutIsTerminal {
			// A terminal would run escape sequences stored in the transcript;
			// a pipe or a file gets the exact bytes.
			var b strings.Builder
			if err = recall.ExportMarkdown(&b, sess, msgs); err == nil {
				_, err = io.WriteString(w, termtext.Sanitize(b.String()))
			}
		} else {
			err = recall.ExportMarkdown(w, sess, msgs)
		}
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
