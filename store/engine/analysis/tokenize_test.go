package analysis

import (
	"strings"
	"testing"
)

// TestTokenizers: FTS5's unicode61 (diacritics removed, case folded,
// separators) and trigram tokenizers, as full ranking reads the index with
// them (checked against FTS5 itself by the store's full ranking tests).
func TestTokenizers(t *testing.T) {
	if got := strings.Join(Unicode61Tokens("Café RÉSUMÉ naïve-x_y 部署"), " "); got != "cafe resume naive x y 部署" {
		t.Errorf("Unicode61Tokens = %q", got)
	}
	if got := strings.Join(TrigramTokens("内存泄漏"), " "); got != "内存泄 存泄漏" {
		t.Errorf("TrigramTokens = %q", got)
	}
}
