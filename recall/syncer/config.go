// Package syncer moves sessions between machines: `recall sync HOST…`
// pulls from each host what it has that this database lacks (or, --push,
// the other way) through the system's OpenSSH client, as batches
// (store/batch) that the receiver checks whole before applying.
//
// The transport is a command: $RECALL_SSH (default "ssh"), run as
// `ssh HOST recall …`, so ~/.ssh/config, agents, known_hosts and ProxyJump
// all apply and nothing home-made listens on the network. The remote side
// is recall itself: `recall export --batch` writes what the puller lacks
// after its watermark, `recall sync --state-for ID` says what the remote
// holds of a pusher, `recall import batch -` applies a pushed batch.
package syncer

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/recall-dev/recall/recall/llm"
)

// Config is what config.json says about sync:
//
//	{"sync": {"hosts": ["devbox", "laptop"], "remote_command": "~/go/bin/recall"}}
type Config struct {
	// Hosts are synced by `recall sync` without arguments (and its timer).
	Hosts []string
	// RemoteCommand runs recall on a host ("recall": the host's PATH for a
	// non-interactive ssh command).
	RemoteCommand string
	// RedactAtImport: every text is redacted before it leaves this machine
	// (config.json's "redact_at_import", which the caller reads with the
	// rest of recall's redaction settings).
	RedactAtImport bool
}

type fileConfig struct {
	Sync struct {
		Hosts         []string `json:"hosts"`
		RemoteCommand string   `json:"remote_command"`
	} `json:"sync"`
}

// LoadConfig reads config.json (llm.ConfigPath); a missing file is the
// default configuration.
func LoadConfig(getenv func(string) string) (Config, error) {
	c := Config{RemoteCommand: "recall"}
	p := llm.ConfigPath(getenv)
	if p == "" {
		return c, nil
	}
	data, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return c, fmt.Errorf("read %s: %w", p, err)
	}
	var fc fileConfig
	if err := json.Unmarshal(data, &fc); err != nil {
		return c, fmt.Errorf("read %s: %w", p, err)
	}
	for _, h := range fc.Sync.Hosts {
		if h = strings.TrimSpace(h); h != "" {
			c.Hosts = append(c.Hosts, h)
		}
	}
	if r := strings.TrimSpace(fc.Sync.RemoteCommand); r != "" {
		c.RemoteCommand = r
	}
	return c, nil
}

// SSHCommand is the transport: $RECALL_SSH split into words (a program and
// its options, e.g. "ssh -F ~/.ssh/work_config"), default "ssh".
func SSHCommand(getenv func(string) string) []string {
	if f := strings.Fields(getenv("RECALL_SSH")); len(f) > 0 {
		return f
	}
	return []string{"ssh"}
}
