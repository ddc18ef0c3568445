package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/recall-dev/recall/recall/llm"
	"github.com/recall-dev/recall/ui"
)

// loadKeys reads the key bindings from the config file's "keys" object
// (action name → keys, README "Key bindings"): nil when the file or the
// object is absent, an error naming the file and what was wrong otherwise.
func loadKeys(getenv func(string) string) (*ui.KeyMap, error) {
	p := llm.ConfigPath(getenv)
	if p == "" {
		return nil, nil
	}
	data, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", p, err)
	}
	var fc struct {
		Keys map[string][]string `json:"keys"`
	}
	if err := json.Unmarshal(data, &fc); err != nil {
		return nil, fmt.Errorf("read %s: %w", p, err)
	}
	if fc.Keys == nil {
		return nil, nil
	}
	km, err := ui.ConfigureKeys(fc.Keys)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return &km, nil
}
