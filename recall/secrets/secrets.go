// Package secrets is the one door text goes through on its way out of
// recall: to a terminal, a file, the clipboard, an MCP client or a model.
// Transcripts hold the secrets agents printed (an `export
// OPENAI_API_KEY=...`, a .env read back, a database URL); every text that
// leaves is handed through Text (or the helpers built on it for store
// values, snippets and JSON), which replaces each secret with
// [REDACTED:rule]. Only a person may ask to see them (the TUI's V, the
// CLI's --show-secrets), never a model.
//
// The rules are gitleaks' own (github.com/zricethezav/gitleaks/v8, its
// default config: a maintained set of a few hundred provider rules with
// keyword prefilters and entropy checks), extended by a short documented
// list (additions.toml): passwords in URLs, and text scanned as it is read,
// its JSON escapes decoded (decode.go).
//
// Text is redacted whole, then cut: a snippet, a preview or a summary line
// cut from a text has the secrets of the whole text taken out (Within), so
// a key cut in half by a snippet's edge does not pass as harmless.
package secrets

// Mark is what a secret is replaced with: the rule that found it, so a
// reader knows what was there ("[REDACTED:github-pat]").
func Mark(rule string) string { return "[REDACTED:" + rule + "]" }

// Text returns s with every secret found replaced by its Mark.
func Text(s string) string { return cached(s).text }
