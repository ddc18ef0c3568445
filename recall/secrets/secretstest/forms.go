// Package secretstest holds fake credentials shaped like real ones (the
// prefixes, lengths and entropy gitleaks' rules check; none is live), and
// the places a transcript holds them, for the tests of every path text
// leaves recall by.
package secretstest

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Form is one kind of secret as an agent's transcript holds it.
type Form struct {
	Name   string // short name, for test names
	Secret string // the secret itself
	Line   string // the line that holds it, as an agent printed it
	// Tell is a piece of Secret that must not appear in any output either:
	// the random part, which a cut (a snippet's edge, a clipped summary
	// line) could leave without the prefix a rule looks for.
	Tell string
	// Body is what of Secret is the secret's own (a line each): not its
	// fixed prefix, a JWT's standard header or a PEM's BEGIN line, which
	// say what it is and may show.
	Body string
}

// chars returns n characters of alphabet, deterministic for seed.
func chars(seed uint32, n int, alphabet string) string {
	var b strings.Builder
	x := seed*2654435761 + 12345
	for range n {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b.WriteByte(alphabet[x%uint32(len(alphabet))])
	}
	return b.String()
}

const (
	alnum   = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	upper27 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	b64     = alnum + "+/"
	urlSafe = alnum + "_-"
)

// tell is the last 12 characters of s: random in every form below.
func tell(s string) string { return s[len(s)-12:] }

func form(name, secret, body string) Form {
	return Form{Name: name, Secret: secret, Tell: tell(secret), Body: body}
}

var pemBody = chars(9, 64, b64) + "\n" + chars(10, 64, b64) + "\n" + chars(11, 64, b64) + "\n" + chars(12, 40, b64)

// prefixed is a secret made of a fixed prefix and a random body.
func prefixed(name, prefix, body string) Form { return form(name, prefix+body, body) }

// Forms are the secrets of issue 30, each in the line an agent printed it.
var Forms = []Form{
	prefixed("aws-key", "AKIA", chars(1, 16, upper27)),
	prefixed("aws-secret", "", chars(2, 40, b64)),
	prefixed("ghp", "ghp_", chars(3, 36, alnum)),
	prefixed("github-pat", "github_pat_11", chars(4, 80, alnum+"_")),
	prefixed("sk-proj", "sk-proj-", chars(5, 74, urlSafe)+"T3BlbkFJ"+chars(6, 74, urlSafe)),
	prefixed("sk-ant", "sk-ant-api03-", chars(7, 93, urlSafe)+"AA"),
	prefixed("xoxb", "xoxb-2635942065-2343594206574-", chars(8, 24, alnum)),
	prefixed("sk_live", "sk_live_51", chars(13, 30, alnum)),
	form("jwt", "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6"+chars(14, 20, alnum)+"fQ."+chars(15, 43, urlSafe),
		chars(14, 20, alnum)+"\n"+chars(15, 43, urlSafe)),
	{Name: "pem", Secret: "-----BEGIN RSA PRIVATE KEY-----\n" + pemBody + "==\n-----END RSA PRIVATE KEY-----", Tell: chars(11, 24, b64), Body: pemBody},
	prefixed("url-password", "", chars(16, 18, alnum)),
	prefixed("dotenv", "", chars(17, 24, alnum)),
}

func init() {
	lines := map[string]string{
		"aws-key":      "aws configure set aws_access_key_id %s",
		"aws-secret":   "aws_secret_access_key = %s",
		"ghp":          "export GITHUB_TOKEN=%s",
		"github-pat":   "git remote set-url origin https://x-access-token@github.com/acme/app.git # token %s",
		"sk-proj":      "export OPENAI_API_KEY=%s",
		"sk-ant":       "ANTHROPIC_API_KEY=%s claude -p hello",
		"xoxb":         "SLACK_BOT_TOKEN=%s",
		"sk_live":      "stripe key %s for the live account",
		"jwt":          "curl -H 'Authorization: Bearer %s' https://api.internal/me",
		"pem":          "the deploy key:\n%s",
		"url-password": "DATABASE_URL=postgres://admin:%s@db.internal:5432/app",
		"dotenv":       "DB_PASSWORD=%s",
	}
	for i := range Forms {
		Forms[i].Line = fmt.Sprintf(lines[Forms[i].Name], Forms[i].Secret)
	}
}

// Leaks returns what of f out shows ("" when nothing): the secret, its
// telling part, or any piece of it 12 characters long (a cut may have
// left its head or its tail), as written or with JSON escapes undone.
func (f Form) Leaks(out string) string {
	for _, s := range []string{out, Unescape(out), Unescape(Unescape(out))} {
		for _, needle := range f.pieces() {
			if i := strings.Index(s, needle); i >= 0 {
				return s[max(0, i-40):min(len(s), i+len(needle)+40)]
			}
		}
	}
	return ""
}

// pieceLen is the length of the pieces of a secret Leaks looks for.
const pieceLen = 12

// pieces are the secret, its telling part, and the 12-character pieces
// of its body, every 4 characters.
func (f Form) pieces() []string {
	out := []string{f.Secret, f.Tell}
	for _, line := range strings.Split(f.Body, "\n") {
		for i := 0; i+pieceLen <= len(line); i += 4 {
			out = append(out, line[i:i+pieceLen])
		}
	}
	return out
}

// Unescape undoes one level of JSON string escapes wherever they are.
func Unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		switch c := s[i+1]; c {
		case 'u':
			var str string
			if i+6 <= len(s) && json.Unmarshal([]byte(`"`+s[i:i+6]+`"`), &str) == nil {
				b.WriteString(str)
				i += 5
				continue
			}
			b.WriteByte(s[i])
		case 'n':
			b.WriteByte('\n')
			i++
		case 't':
			b.WriteByte('\t')
			i++
		case '"', '\\', '/':
			b.WriteByte(c)
			i++
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}
