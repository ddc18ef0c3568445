package store

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/recall-dev/recall/store/search/analysis"
)

// maxQueryRunes caps the query as Hermes does (MAX_FTS5_QUERY_CHARS).
const maxQueryRunes = 2048

// tokKind is the kind of one query token after repair.
type tokKind uint8

const (
	tTerm tokKind = iota // a term or phrase
	tAnd
	tOr
	tNot
	tLParen
	tRParen
	tNear // NEAR group: terms in kids, distance in dist
	tCol  // column filter: name in text
)

// qtok is one token of a parsed query.
type qtok struct {
	kind   tokKind
	text   string // term/phrase text (unquoted) or column name
	prefix bool   // term*
	caret  bool   // ^term: must start the column
	quoted bool   // came from "..." (kept as a phrase)
	typed  bool   // prefix added because the word is still being typed (not a typed "*")
	kids   []qtok // NEAR members
	dist   int    // NEAR distance, 0 = default
}

// parsedQuery is a user query repaired into a valid FTS5 expression.
type parsedQuery struct {
	toks []qtok
	// notice says, in one line, what the sanitiser dropped from a hostile
	// query (too deep, too many terms); "" for every ordinary query.
	notice string
}

// Bounds on what one query may ask of FTS5. A search box must answer any
// text in well under a second: FTS5's parser overflows its stack at ~70
// nested groups ("fts5: parser stack overflow"), and every term is a
// doclist to read and intersect, so 1,000 frequent terms took seconds.
// Nobody types more than a few levels or a few dozen words; the rest is
// dropped and SearchResult.Notice says so.
var (
	maxQueryDepth = 8  // nested ( ) groups; deeper ones are flattened
	maxQueryTerms = 12 // terms, counting each word of a phrase and of a NEAR group
	maxNearTerms  = 6  // terms of one NEAR group: FTS5 checks positions of every pair of them
	maxTermRunes  = 64 // characters of one term; a longer one is cut and matched as a prefix
)

// parseQuery turns what a user typed (possibly half-way) into the nearest
// valid FTS5 query. It ports Hermes's sanitiser (spec §6.1): balanced quotes
// kept as phrases, a lone quote dropped, FTS5 punctuation neutralised,
// leading/trailing/dangling operators dropped, compound terms (chat-send,
// P2.2, my-app.config.ts) quoted; and it keeps what Hermes had to strip:
// parentheses, NEAR(...), ^ and column filters pass through when balanced
// and valid. Word classes are Unicode-aware (Go's \w is ASCII-only).
// columns are the FTS column names a "name:" filter may use. When typing is
// set and the input does not end in a space, the last bare term becomes a
// prefix query, so results appear while a word is still being typed.
// Groups deeper than maxQueryDepth are flattened and terms past
// maxQueryTerms dropped, with a notice.
func parseQuery(raw string, columns []string, typing bool) parsedQuery {
	var notes []string
	if n := utf8.RuneCountInString(raw); n > maxQueryRunes {
		raw = string([]rune(raw)[:maxQueryRunes])
		notes = append(notes, fmt.Sprintf("only its first %d characters were read", maxQueryRunes))
	}
	raw = strings.ToValidUTF8(raw, " ")
	// SQLite ends an FTS5 string literal at a NUL byte; no tokenizer indexes one.
	raw = strings.ReplaceAll(raw, "\x00", " ")
	toks := repair(lex(raw, columns))
	if flat, n := flattenDeep(toks); n > 0 {
		toks = repair(flat)
		notes = append(notes, fmt.Sprintf("%d groups nested deeper than %d were flattened", n, maxQueryDepth))
	}
	toks = dedupe(toks)
	if n := capTermLength(toks); n > 0 {
		notes = append(notes, fmt.Sprintf("%d words longer than %d characters were searched by their start", n, maxTermRunes))
	}
	if n := capNear(toks); n > 0 {
		notes = append(notes, fmt.Sprintf("NEAR groups were cut to %d terms (%d dropped)", maxNearTerms, n))
	}
	if cut, n := capTerms(toks); n > 0 {
		toks = repair(cut)
		notes = append(notes, fmt.Sprintf("only the first %d terms were searched (%d dropped)", maxQueryTerms, n))
	}
	if typing && len(toks) > 0 && !endsInSpace(raw) {
		last := &toks[len(toks)-1]
		if last.kind == tTerm && !last.quoted && !last.prefix {
			last.prefix, last.typed = true, true
		}
	}
	q := parsedQuery{toks: toks}
	if len(notes) > 0 {
		q.notice = "query too large: " + strings.Join(notes, "; ")
	}
	return q
}

// flattenDeep drops the parentheses of groups nested deeper than
// maxQueryDepth (toks are balanced: repair ran), returning how many groups
// it flattened. The terms stay; only the grouping of the deepest ones is lost.
func flattenDeep(toks []qtok) ([]qtok, int) {
	depth, flattened := 0, 0
	var dropped []bool // per open group: were its parentheses dropped?
	out := toks[:0:0]
	for _, t := range toks {
		switch t.kind {
		case tLParen:
			depth++
			drop := depth > maxQueryDepth
			dropped = append(dropped, drop)
			if drop {
				flattened++
				continue
			}
		case tRParen:
			depth--
			drop := dropped[len(dropped)-1]
			dropped = dropped[:len(dropped)-1]
			if drop {
				continue
			}
		}
		out = append(out, t)
	}
	if flattened == 0 {
		return toks, 0
	}
	return out, flattened
}

// dedupe drops repeated terms from a query of one operator (a b a, or
// a OR b OR a), where a repeat changes nothing but what FTS5 reads: each
// leaf is a doclist read again (3,000 "0" terms were 3,000 reads of one).
func dedupe(toks []qtok) []qtok {
	ands, ors := false, false
	for i, t := range toks {
		switch t.kind {
		case tTerm:
			ands = ands || (i > 0 && toks[i-1].kind == tTerm) // FTS5 reads an AND between them
		case tAnd:
			ands = true
		case tOr:
			ors = true
		default:
			return toks // groups, NEAR, NOT, columns: a repeat may mean something
		}
	}
	if ands && ors {
		return toks // a b OR a is not a b OR
	}
	seen := map[string]bool{}
	var out []qtok
	for _, t := range toks {
		if t.kind != tTerm {
			out = append(out, t)
			continue
		}
		key := fmt.Sprintf("%s\x00%v%v%v", strings.ToLower(t.text), t.prefix, t.quoted, t.caret)
		if seen[key] {
			if n := len(out); n > 0 && out[n-1].kind != tTerm {
				out = out[:n-1] // its operator goes with it
			}
			continue
		}
		seen[key] = true
		out = append(out, t)
	}
	return out
}

// capTermLength cuts words longer than maxTermRunes to their first
// maxTermRunes characters, as prefix queries (on the trigram index, a
// substring), and returns how many it cut: a 2,000-character word is 2,000
// trigram doclists to intersect.
func capTermLength(toks []qtok) int {
	n := 0
	cut := func(t *qtok) {
		// A phrase is cut at its first over-long word, which ends it as a prefix.
		ws := strings.Fields(t.text)
		for i, w := range ws {
			if rs := []rune(w); len(rs) > maxTermRunes {
				t.text, t.prefix = strings.Join(append(ws[:i:i], string(rs[:maxTermRunes])), " "), true
				n++
				return
			}
		}
	}
	for i := range toks {
		switch toks[i].kind {
		case tTerm:
			cut(&toks[i])
		case tNear:
			for k := range toks[i].kids {
				cut(&toks[i].kids[k])
			}
		}
	}
	return n
}

// weight is how many doclists an evaluation of q reads: its terms, each
// word of a phrase counted.
func (q parsedQuery) weight() int {
	n := 0
	for _, t := range q.terms() {
		n += termWeight(t)
	}
	return n
}

// capNear keeps the first maxNearTerms terms of each NEAR group and
// returns how many it dropped.
func capNear(toks []qtok) int {
	n := 0
	for i := range toks {
		if t := &toks[i]; t.kind == tNear && len(t.kids) > maxNearTerms {
			n += len(t.kids) - maxNearTerms
			t.kids = t.kids[:maxNearTerms]
		}
	}
	return n
}

// termWeight is what a leaf costs against maxQueryTerms: FTS5 reads one
// doclist per word of a phrase.
func termWeight(t qtok) int {
	return max(1, len(analysis.WordRuns(t.text)))
}

// capTerms keeps the query up to its maxQueryTerms-th term (a phrase or
// NEAR group that would cross the bound is cut inside) and reports how many
// terms it dropped. repair then drops the operators left dangling.
func capTerms(toks []qtok) ([]qtok, int) {
	budget, dropped := maxQueryTerms, 0
	cut := -1
	var out []qtok
	for i, t := range toks {
		if cut >= 0 {
			if t.kind == tTerm || t.kind == tNear {
				for _, k := range append([]qtok{t}, t.kids...) {
					if k.kind == tTerm {
						dropped += termWeight(k)
					}
				}
			}
			continue
		}
		switch t.kind {
		case tTerm:
			w := termWeight(t)
			if w > budget {
				dropped += w - budget
				if budget > 0 {
					t.text = strings.Join(analysis.WordRuns(t.text)[:budget], " ")
					out = append(out, t)
				}
				budget, cut = 0, i
				continue
			}
			budget -= w
		case tNear:
			var kids []qtok
			for _, k := range t.kids {
				if w := termWeight(k); w <= budget {
					kids, budget = append(kids, k), budget-w
				} else {
					dropped += w
					budget = 0
				}
			}
			if len(kids) < len(t.kids) {
				cut = i
				switch len(kids) {
				case 0:
				case 1:
					out = append(out, kids[0])
				default:
					t.kids = kids
					out = append(out, t)
				}
				continue
			}
		}
		out = append(out, t)
		if budget == 0 && cut < 0 {
			cut = i
		}
	}
	if dropped == 0 {
		return toks, 0
	}
	return out, dropped
}

func endsInSpace(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(s)
	return unicode.IsSpace(r)
}

// isBareRune: FTS5 barewords are ASCII letters/digits/_ and any non-ASCII
// character; we also require letters/digits for non-ASCII so emoji and
// punctuation separate words, as unicode61 does.
func isBareRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Mn, r)
}

// isJoiner is a character that glues a compound term (chat-send, P2.2, a.b_c, c++).
func isJoiner(r rune) bool {
	return r == '-' || r == '.' || r == '_' || r == '+' || r == '#' || r == '/' || r == '@'
}

func lex(s string, columns []string) []qtok {
	var out []qtok
	rs := []rune(s)
	n := len(rs)
	for i := 0; i < n; {
		r := rs[i]
		switch {
		case unicode.IsSpace(r):
			i++
		case r == '"':
			j := i + 1
			for j < n && rs[j] != '"' {
				j++
			}
			if j < n {
				text := string(rs[i+1 : j])
				i = j + 1
				prefix := i < n && rs[i] == '*'
				if prefix {
					i++
				}
				if strings.TrimSpace(text) != "" {
					out = append(out, qtok{kind: tTerm, text: text, quoted: true, prefix: prefix})
				}
			} else {
				i++ // a lone quote (still being typed): dropped, as Hermes does
			}
		case r == '(':
			out = append(out, qtok{kind: tLParen})
			i++
		case r == ')':
			out = append(out, qtok{kind: tRParen})
			i++
		case r == '^':
			if i+1 < n && (isBareRune(rs[i+1]) || rs[i+1] == '"') {
				j := len(out)
				i++
				sub := lex(string(rs[i:nextSpace(rs, i)]), columns)
				i = nextSpace(rs, i)
				for k := range sub {
					if k == 0 && sub[k].kind == tTerm {
						sub[k].caret = true
					}
				}
				out = append(out[:j], sub...)
			} else {
				i++
			}
		case r == '-' && (i == 0 || unicode.IsSpace(rs[i-1])) && i+1 < n && (isBareRune(rs[i+1]) || rs[i+1] == '"' || rs[i+1] == '('):
			// "-word" (and -"a phrase", -(a OR b)) excludes, as in web search and fzf: a NOT before it.
			out = append(out, qtok{kind: tNot})
			i++
		case isBareRune(r):
			j := i
			for j < n && (isBareRune(rs[j]) || (isJoiner(rs[j]) && j+1 < n && (isBareRune(rs[j+1]) || isJoiner(rs[j+1])))) {
				j++
			}
			// trailing joiners such as the ++ of c++ belong to the term too
			for j < n && (rs[j] == '+' || rs[j] == '#') {
				j++
			}
			word := string(rs[i:j])
			compound := strings.IndexFunc(word, isJoiner) >= 0
			i = j
			prefix := i < n && rs[i] == '*'
			if prefix {
				for i < n && rs[i] == '*' {
					i++
				}
			}
			switch {
			case !compound && word == "AND":
				out = append(out, qtok{kind: tAnd})
			case !compound && word == "OR":
				out = append(out, qtok{kind: tOr})
			case !compound && word == "NOT":
				out = append(out, qtok{kind: tNot})
			case !compound && word == "NEAR" && i < n && rs[i] == '(':
				near, next := lexNear(rs, i+1, columns)
				out = append(out, near...)
				i = next
			case !compound && i < n && rs[i] == ':' && hasName(columns, word):
				out = append(out, qtok{kind: tCol, text: strings.ToLower(word)})
				i++
			default:
				out = append(out, qtok{kind: tTerm, text: word, prefix: prefix, quoted: compound})
			}
		default:
			i++ // FTS5 punctuation (+ { } : ^ * , etc.) outside a term: a separator
		}
	}
	return out
}

func nextSpace(rs []rune, i int) int {
	for i < len(rs) && !unicode.IsSpace(rs[i]) {
		i++
	}
	return i
}

// lexNear reads "a b c, 10)" after "NEAR(". A well-formed group becomes one
// tNear token; an unfinished one (still being typed) is closed where it ends.
func lexNear(rs []rune, i int, columns []string) ([]qtok, int) {
	j := i
	for j < len(rs) && rs[j] != ')' {
		j++
	}
	inner := string(rs[i:j])
	if j < len(rs) {
		j++
	}
	dist := 0
	if k := strings.LastIndexByte(inner, ','); k >= 0 {
		if d, err := strconv.Atoi(strings.TrimSpace(inner[k+1:])); err == nil && d >= 0 {
			dist = d
		}
		inner = inner[:k]
	}
	var terms []qtok
	for _, t := range lex(inner, nil) {
		if t.kind == tTerm {
			t.caret = false
			terms = append(terms, t)
		}
	}
	switch len(terms) {
	case 0:
		return nil, j
	case 1:
		return terms, j
	}
	return []qtok{{kind: tNear, kids: terms, dist: dist}}, j
}

func hasName(names []string, w string) bool {
	for _, n := range names {
		if strings.EqualFold(n, w) {
			return true
		}
	}
	return false
}

// operandStart / operandEnd classify tokens for operator placement.
func operandStart(k tokKind) bool { return k == tTerm || k == tLParen || k == tNear || k == tCol }
func operandEnd(k tokKind) bool   { return k == tTerm || k == tRParen || k == tNear }
func isOp(k tokKind) bool         { return k == tAnd || k == tOr || k == tNot }

// repair drops what would make FTS5 reject the query: operators without an
// operand on both sides (the last of a run of operators wins), empty or
// unbalanced parentheses, column filters with nothing after them.
func repair(toks []qtok) []qtok {
	for changed := true; changed; {
		changed = false
		var out []qtok
		depth := 0
		for i, t := range toks {
			switch {
			case t.kind == tRParen:
				if depth == 0 || (len(out) > 0 && !operandEnd(out[len(out)-1].kind)) {
					if depth > 0 && len(out) > 0 && out[len(out)-1].kind == tLParen {
						out = out[:len(out)-1] // "()" -> nothing
						depth--
					}
					changed = true
					continue
				}
				depth--
			case t.kind == tLParen:
				depth++
			case isOp(t.kind):
				prevOK := len(out) > 0 && operandEnd(out[len(out)-1].kind)
				nextOK := i+1 < len(toks) && operandStart(toks[i+1].kind)
				if !prevOK || !nextOK {
					changed = true
					continue
				}
			case t.kind == tCol:
				if i+1 >= len(toks) || !(toks[i+1].kind == tTerm || toks[i+1].kind == tLParen || toks[i+1].kind == tNear) {
					changed = true
					continue
				}
			}
			out = append(out, t)
		}
		for ; depth > 0; depth-- {
			// close what is still open, dropping a dangling "(" at the end
			if len(out) > 0 && out[len(out)-1].kind == tLParen {
				out = out[:len(out)-1]
				changed = true
				continue
			}
			out = append(out, qtok{kind: tRParen})
		}
		toks = out
	}
	return toks
}

// empty reports a query with nothing to search for.
func (q parsedQuery) empty() bool {
	for _, t := range q.toks {
		if t.kind == tTerm || t.kind == tNear {
			return false
		}
	}
	return true
}

// terms are the positive and negative leaf texts, for routing, LIKE scans and highlighting.
func (q parsedQuery) terms() (all []qtok) {
	for _, t := range q.toks {
		switch t.kind {
		case tTerm:
			all = append(all, t)
		case tNear:
			all = append(all, t.kids...)
		}
	}
	return all
}

// positiveTerms are the leaves a match contains: every leaf but those
// under a NOT (NOT x, -x, NOT (a OR b), NOT content: x). They are what
// highlighting, snippets, ranking and recall's transcript windows look for.
func (q parsedQuery) positiveTerms() (out []qtok) {
	negDepth := -1 // paren depth of the NOT group being skipped, -1 when none
	depth := 0
	for i, t := range q.toks {
		switch t.kind {
		case tLParen:
			if negDepth < 0 && negated(q.toks, i) {
				negDepth = depth
			}
			depth++
			continue
		case tRParen:
			depth--
			if depth == negDepth {
				negDepth = -1
			}
			continue
		}
		if negDepth >= 0 || negated(q.toks, i) {
			continue
		}
		switch t.kind {
		case tTerm:
			out = append(out, t)
		case tNear:
			out = append(out, t.kids...)
		}
	}
	return out
}

// negated reports whether the operand at toks[i] follows a NOT (a column
// filter between them belongs to the operand).
func negated(toks []qtok, i int) bool {
	for i--; i >= 0 && toks[i].kind == tCol; i-- {
	}
	return i >= 0 && toks[i].kind == tNot
}

// conjunctive reports a plain AND of terms (no OR, NOT, groups, columns).
func (q parsedQuery) conjunctive() bool {
	for _, t := range q.toks {
		if t.kind != tTerm && t.kind != tAnd {
			return false
		}
	}
	return true
}

// render writes the query as FTS5 syntax; term renders each leaf.
func (q parsedQuery) render(term func(t qtok) string) string {
	var b strings.Builder
	prevGroup := false // the previous leaf rendered as a parenthesised group
	for i, t := range q.toks {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		leaf := ""
		if t.kind == tTerm {
			leaf = term(t)
		}
		// FTS5 reads juxtaposed phrases as AND, but not a group beside an
		// operand ("(a OR b) c" is a syntax error), and a leaf may render as
		// a group (the CJK plan): spell the AND out wherever a group is involved.
		if i > 0 && operandEnd(q.toks[i-1].kind) && operandStart(t.kind) &&
			(q.toks[i-1].kind != tTerm || t.kind != tTerm || prevGroup || strings.HasPrefix(leaf, "(")) {
			b.WriteString("AND ")
		}
		prevGroup = strings.HasPrefix(leaf, "(")
		switch t.kind {
		case tTerm:
			b.WriteString(leaf)
		case tAnd:
			b.WriteString("AND")
		case tOr:
			b.WriteString("OR")
		case tNot:
			b.WriteString("NOT")
		case tLParen:
			b.WriteString("(")
		case tRParen:
			b.WriteString(")")
		case tCol:
			b.WriteString(t.text + " :")
		case tNear:
			b.WriteString("NEAR(")
			for i, k := range t.kids {
				if i > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(term(k))
			}
			if t.dist > 0 {
				b.WriteString(", " + strconv.Itoa(t.dist))
			}
			b.WriteString(")")
		}
	}
	return b.String()
}

// ftsTerm renders a leaf for a unicode61 or trigram table: always a quoted
// string, so no character can be read as syntax.
func ftsTerm(t qtok) string {
	s := quoteFTS(t.text)
	if t.prefix {
		s += "*"
	}
	if t.caret {
		s = "^" + s
	}
	return s
}

// cjkTermExpr turns one query term (a word run that contains CJK) into an
// FTS5 expression over recall_fts_cjk: each CJK piece becomes the phrase of
// its bigrams, or a prefix query for a single character; Latin pieces are
// plain terms; pieces are ANDed.
func cjkTermExpr(term string) string {
	var parts []string
	for _, p := range analysis.Pieces(term) {
		if !p.CJK {
			parts = append(parts, quoteFTS(strings.ToLower(p.Text)))
			continue
		}
		rs := []rune(p.Text)
		if len(rs) == 1 {
			parts = append(parts, quoteFTS(p.Text)+"*")
			continue
		}
		grams := make([]string, 0, len(rs)-1)
		for i := 0; i+1 < len(rs); i++ {
			grams = append(grams, string(rs[i:i+2]))
		}
		parts = append(parts, quoteFTS(strings.Join(grams, " ")))
	}
	return strings.Join(parts, " AND ")
}

// quoteFTS makes s one FTS5 string (a term or phrase), escaping quotes.
func quoteFTS(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
