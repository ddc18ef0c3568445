package llm_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/recall-dev/recall/recall/llm"
)

func TestLoad(t *testing.T) {
	tests := map[string]struct {
		env     map[string]string
		file    string // config.json content ("" = no file)
		want    *llm.Config
		wantErr string
	}{
		"nothing configured": {
			env: map[string]string{},
		},
		"an OpenAI key alone never configures a model": {
			env: map[string]string{"OPENAI_API_KEY": "sk-x"},
		},
		"recall variables": {
			env:  map[string]string{"RECALL_LLM_BASE_URL": "http://localhost:11434/v1", "RECALL_LLM_MODEL": "qwen", "RECALL_LLM_API_KEY": "k"},
			want: &llm.Config{BaseURL: "http://localhost:11434/v1", Model: "qwen", APIKey: "k"},
		},
		"OpenAI fallbacks": {
			env:  map[string]string{"RECALL_LLM_MODEL": "gpt-x", "OPENAI_BASE_URL": "http://proxy/v1", "OPENAI_API_KEY": "sk-o"},
			want: &llm.Config{BaseURL: "http://proxy/v1", Model: "gpt-x", APIKey: "sk-o"},
		},
		"model and key default to OpenAI's endpoint": {
			env:  map[string]string{"RECALL_LLM_MODEL": "gpt-x", "OPENAI_API_KEY": "sk-o"},
			want: &llm.Config{BaseURL: llm.DefaultOpenAIBaseURL, Model: "gpt-x", APIKey: "sk-o"},
		},
		"config file with api_key_env": {
			env:  map[string]string{"MY_KEY": "sk-file", "OPENAI_API_KEY": "sk-o"},
			file: `{"base_url":"https://openrouter.ai/api/v1","model":"m","api_key_env":"MY_KEY","max_concurrency":4,"timeout_seconds":5}`,
			want: &llm.Config{BaseURL: "https://openrouter.ai/api/v1", Model: "m", APIKey: "sk-file", MaxConcurrency: 4, FirstByteTimeout: 5 * time.Second, TotalTimeout: 5 * time.Second},
		},
		"environment beats the file": {
			env:  map[string]string{"RECALL_LLM_MODEL": "env-model"},
			file: `{"base_url":"http://file/v1","model":"file-model","api_key":"k"}`,
			want: &llm.Config{BaseURL: "http://file/v1", Model: "env-model", APIKey: "k"},
		},
		"base URL without a model": {
			env:     map[string]string{"RECALL_LLM_BASE_URL": "http://localhost:8080/v1"},
			wantErr: "no model",
		},
		"model without a base URL or key": {
			env:     map[string]string{"RECALL_LLM_MODEL": "llama"},
			wantErr: "no base URL",
		},
		"broken file": {
			env:     map[string]string{},
			file:    `{"model":`,
			wantErr: "config.json",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			env := map[string]string{"XDG_CONFIG_HOME": dir}
			for k, v := range tc.env {
				env[k] = v
			}
			if tc.file != "" {
				if err := os.MkdirAll(filepath.Join(dir, "recall"), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, "recall", "config.json"), []byte(tc.file), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			got, err := llm.Load(func(k string) string { return env[k] })
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			if (got == nil) != (tc.want == nil) || got != nil && *got != *tc.want {
				t.Fatalf("Load = %+v, want %+v", got, tc.want)
			}
		})
	}
}
