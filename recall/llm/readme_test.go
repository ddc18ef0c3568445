package llm

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// The README documents the config file: its example is a valid file with
// every key, its table names every key, and Load reads the example.
func TestREADMEDocumentsTheConfigFile(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "#### The model configuration file")
	if !ok {
		t.Fatal("README has no section on the config file")
	}
	_, example, ok := strings.Cut(section, "```json\n")
	example, _, ok2 := strings.Cut(example, "```")
	if !ok || !ok2 {
		t.Fatal("the section has no json example")
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(example)))
	dec.DisallowUnknownFields()
	var fc fileConfig
	if err := dec.Decode(&fc); err != nil {
		t.Fatalf("the README's example is not a config file: %v", err)
	}
	var keys map[string]any
	_ = json.Unmarshal([]byte(example), &keys)
	typ := reflect.TypeOf(fc)
	for i := 0; i < typ.NumField(); i++ {
		key := strings.Split(typ.Field(i).Tag.Get("json"), ",")[0]
		if _, ok := keys[key]; !ok {
			t.Errorf("the README's example lacks %q", key)
		}
		if !strings.Contains(section, "| `"+key+"` |") {
			t.Errorf("the README's table lacks %q", key)
		}
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "recall"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "recall", "config.json"), []byte(example), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"XDG_CONFIG_HOME": dir, "OPENROUTER_API_KEY": "sk-or"}
	cfg, err := Load(func(k string) string { return env[k] })
	want := &Config{BaseURL: "https://openrouter.ai/api/v1", Model: "google/gemini-2.5-flash", APIKey: "sk-or", MaxConcurrency: 3,
		FirstByteTimeout: 60 * time.Second, TotalTimeout: 60 * time.Second, IdleTimeout: 30 * time.Second, MaxTokens: 10000}
	if err != nil || !reflect.DeepEqual(cfg, want) {
		t.Errorf("Load(README example) = %+v, %v; want %+v", cfg, err, want)
	}
}
