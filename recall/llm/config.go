package llm

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Config says which OpenAI-compatible chat-completions endpoint to stream
// summaries from. Its String method never shows the API key.
type Config struct {
	BaseURL string // e.g. http://localhost:11434/v1 (Ollama), https://openrouter.ai/api/v1
	Model   string
	APIKey  string // sent as "Authorization: Bearer"; never logged or stored

	// FirstByteTimeout bounds connecting, sending and waiting for the first
	// streamed chunk (default 60 s: a local model reads a long prompt first).
	FirstByteTimeout time.Duration
	// IdleTimeout bounds the silence between two chunks once streaming (default 30 s).
	IdleTimeout time.Duration
	// TotalTimeout bounds one summary from the first request to the last
	// byte, retries included (default 180 s; the config file's
	// timeout_seconds sets it): a server that trickles a byte now and then
	// never trips IdleTimeout.
	TotalTimeout time.Duration
	// MaxRetries is how many times a 429 is retried after its Retry-After (default 2).
	MaxRetries int
	// MaxRetryWait caps one Retry-After wait (default 20 s).
	MaxRetryWait time.Duration
	// MaxTokens caps the summary (default 10000, Hermes's MAX_SUMMARY_TOKENS).
	MaxTokens int
	// Temperature of the summary (default 0.1, as Hermes).
	Temperature float64
	// MaxConcurrency is the config file's max_concurrency: summaries in
	// flight when the caller does not say (0 = the caller's default).
	MaxConcurrency int
}

// String describes the config without its API key.
func (c Config) String() string {
	key := "none"
	if c.APIKey != "" {
		key = "set"
	}
	return fmt.Sprintf("model %s at %s (api key %s)", c.Model, c.BaseURL, key)
}

// withDefaults fills the zero fields.
func (c Config) withDefaults() Config {
	if c.FirstByteTimeout <= 0 {
		c.FirstByteTimeout = 60 * time.Second
	}
	if c.IdleTimeout <= 0 {
		c.IdleTimeout = 30 * time.Second
	}
	if c.TotalTimeout <= 0 {
		c.TotalTimeout = 180 * time.Second
	}
	if c.MaxRetries < 0 {
		c.MaxRetries = 0
	} else if c.MaxRetries == 0 {
		c.MaxRetries = 2
	}
	if c.MaxRetryWait <= 0 {
		c.MaxRetryWait = 20 * time.Second
	}
	if c.MaxTokens <= 0 {
		c.MaxTokens = 10000
	}
	if c.Temperature == 0 {
		c.Temperature = 0.1
	}
	return c
}

// fileConfig is $XDG_CONFIG_HOME/recall/config.json, documented for users
// in the README ("The model configuration file"; readme_test keeps the two
// in step). Example:
//
//	{"base_url": "http://localhost:11434/v1", "model": "qwen2.5:7b"}
//	{"base_url": "https://openrouter.ai/api/v1", "model": "google/gemini-2.5-flash",
//	 "api_key_env": "OPENROUTER_API_KEY", "max_concurrency": 3}
//
// api_key_env names the environment variable holding the key (preferred:
// the file then holds no secret); api_key holds the key itself.
type fileConfig struct {
	BaseURL            string  `json:"base_url"`
	Model              string  `json:"model"`
	APIKeyEnv          string  `json:"api_key_env"`
	APIKey             string  `json:"api_key"`
	MaxConcurrency     int     `json:"max_concurrency"`
	TimeoutSeconds     float64 `json:"timeout_seconds"`      // FirstByteTimeout and TotalTimeout
	IdleTimeoutSeconds float64 `json:"idle_timeout_seconds"` // IdleTimeout
	MaxTokens          int     `json:"max_tokens"`
}

// ConfigPath returns the config file's path: $XDG_CONFIG_HOME/recall/config.json,
// else ~/.config/recall/config.json ("" when neither can be known).
func ConfigPath(getenv func(string) string) string {
	if x := getenv("XDG_CONFIG_HOME"); x != "" {
		return filepath.Join(x, "recall", "config.json")
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".config", "recall", "config.json")
	}
	return ""
}

// DefaultOpenAIBaseURL is used when only an API key and a model are given.
const DefaultOpenAIBaseURL = "https://api.openai.com/v1"

// Load reads the model configuration from the environment (getenv, usually
// os.Getenv) and the config file. Each setting is taken from the first of:
//
//	base URL: RECALL_LLM_BASE_URL, file base_url, OPENAI_BASE_URL,
//	          https://api.openai.com/v1 when an API key is set
//	model:    RECALL_LLM_MODEL, file model
//	API key:  RECALL_LLM_API_KEY, $<file api_key_env>, file api_key, OPENAI_API_KEY
//
// A model counts as configured only when a model name is set: an
// OPENAI_API_KEY alone never starts paid calls. Load returns (nil, nil) when
// no model is configured, and an error for a broken file or a half-done
// setup (a base URL without a model, a model without a base URL).
func Load(getenv func(string) string) (*Config, error) {
	var fc fileConfig
	if p := ConfigPath(getenv); p != "" {
		data, err := os.ReadFile(p)
		switch {
		case err == nil:
			if err := json.Unmarshal(data, &fc); err != nil {
				return nil, fmt.Errorf("read %s: %w", p, err)
			}
		case !errors.Is(err, os.ErrNotExist):
			return nil, fmt.Errorf("read llm config: %w", err)
		}
	}
	c := Config{
		BaseURL:          first(getenv("RECALL_LLM_BASE_URL"), fc.BaseURL, getenv("OPENAI_BASE_URL")),
		Model:            first(getenv("RECALL_LLM_MODEL"), fc.Model),
		MaxConcurrency:   fc.MaxConcurrency,
		FirstByteTimeout: time.Duration(fc.TimeoutSeconds * float64(time.Second)),
		TotalTimeout:     time.Duration(fc.TimeoutSeconds * float64(time.Second)),
		IdleTimeout:      time.Duration(fc.IdleTimeoutSeconds * float64(time.Second)),
		MaxTokens:        fc.MaxTokens,
	}
	keyFromEnvName := ""
	if fc.APIKeyEnv != "" {
		keyFromEnvName = getenv(fc.APIKeyEnv)
	}
	c.APIKey = first(getenv("RECALL_LLM_API_KEY"), keyFromEnvName, fc.APIKey, getenv("OPENAI_API_KEY"))
	switch {
	case c.Model == "" && (getenv("RECALL_LLM_BASE_URL") != "" || fc.BaseURL != ""):
		return nil, errors.New("llm base URL is set but no model: set RECALL_LLM_MODEL or \"model\" in the config file")
	case c.Model == "":
		return nil, nil
	case c.BaseURL == "" && c.APIKey != "":
		c.BaseURL = DefaultOpenAIBaseURL
	case c.BaseURL == "":
		return nil, fmt.Errorf("llm model %q is set but no base URL: set RECALL_LLM_BASE_URL", c.Model)
	}
	return &c, nil
}

func first(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}
