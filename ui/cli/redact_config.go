package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/recall-dev/recall/recall/llm"
	"github.com/recall-dev/recall/recall/secrets"
	"github.com/recall-dev/recall/store"
)

// redactAtImport reads config.json's "redact_at_import" (README "Secrets"):
// false when the file or the key is absent, an error naming the file when
// it cannot be read.
func redactAtImport(getenv func(string) string) (bool, error) {
	p := llm.ConfigPath(getenv)
	if p == "" {
		return false, nil
	}
	data, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read %s: %w", p, err)
	}
	var fc struct {
		RedactAtImport *bool `json:"redact_at_import"`
	}
	if err := json.Unmarshal(data, &fc); err != nil {
		return false, fmt.Errorf("read %s: %w", p, err)
	}
	return fc.RedactAtImport != nil && *fc.RedactAtImport, nil
}

// applyRedactAtImport makes st redact what it stores when config.json says
// so. A broken file stops the import: storing secrets the person asked
// never to store is not a fallback.
func applyRedactAtImport(st *store.Store) error {
	on, err := redactAtImport(os.Getenv)
	if err != nil {
		return fmt.Errorf("%w (redact_at_import could not be read; nothing was imported)", err)
	}
	if on {
		st.SetRedactor(secrets.AtRest{})
	}
	return nil
}
