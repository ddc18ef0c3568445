package query

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/recall-dev/recall/store/engine/analysis"
)

// MaxRunes caps the query as Hermes does (MAX_FTS5_QUERY_CHARS).
const MaxRunes = 2048

// TokKind is the kind of one query token after repair.
type TokKind uint8

const (
	TokTerm TokKind = iota // a term or phrase
	TokAnd
	TokOr
	TokNot
	TokLParen
	TokRParen
	TokNear // NEAR group: terms in kids, distance in dist
	TokCol  // column filter: name in text
)

// Tok is one token of a parsed query.
type Tok struct {
	Kind   TokKind
	Text   string // term/phrase text (unquoted) or column name
	Prefix bool   // term*
	Caret  bool   // ^term: must start the column
	Quoted bool   // came from "..." (kept as a phrase)
	Typed  bool   // prefix added because the word is still being typed (not a typed "*")
	Kids   []Tok  // NEAR members
	Dist   int    // NEAR distance, 0 = default
}

// Parsed is a user query repaired into a valid FTS5 expression.
type Parsed struct {
	Toks []Tok
	// Notice says, in one line, what the sanitiser dropped from a hostile
	// query (too deep, too many terms); "" for every ordinary query.
	Notice string
}

// Bounds on what one query may ask of FTS5. A search box must answer any
// text in well under a second: FTS5's parser overflows its stack at ~70
// nested groups ("fts5: parser stack overflow"), and every term is a
// doclist to read and intersect, so 1,000 frequent terms took seconds.
// Nobody types more than a few levels or a few dozen words; the rest is
// dropped and engine.Result.Notice says so.
var (
	MaxDepth     = 8  // nested ( ) groups; deeper ones are flattened
	MaxTerms     = 12 // terms, counting each word of a phrase and of a NEAR group
	MaxNearTerms = 6  // terms of one NEAR group: FTS5 checks positions of every pair of them
	MaxTermRunes = 64 // characters of one term; a longer one is cut and matched as a prefix
)

// Parse turns what a user typed (possibly half-way) into the nearest
// valid FTS5 query. It ports Hermes's sanitiser (spec §6.1): balanced quotes
// kept as phrases, a lone quote dropped, FTS5 punctuation neutralised,
// leading/trailing/dangling operators dropped, compound terms (chat-send,
// P2.2, my-app.config.ts) quoted; and it keeps what Hermes had to strip:
// parentheses, NEAR(...), ^ and column filters pass through when balanced
// and valid. Word classes are Unicode-aware (Go's \w is ASCII-only).
// columns are the FTS column names a "name:" filter may use. When typing is
// set and the input does not end in a space, the last bare term becomes a
// prefix query, so results appear while a word is still being typed.
// Groups deeper than MaxDepth are flattened and terms past
// MaxTerms dropped, with a notice.
func Parse(raw string, columns []string, typing bool) Parsed {
	var notes []string
	if n := utf8.RuneCountInString(raw); n > MaxRunes {
		raw = string([]rune(raw)[:MaxRunes])
		notes = append(notes, fmt.Sprintf("only its first %d characters were read", MaxRunes))
	}
	raw = strings.ToValidUTF8(raw, " ")
	// SQLite ends an FTS5 string literal at a NUL byte; no tokenizer indexes one.
	raw = strings.ReplaceAll(raw, "\x00", " ")
	toks := repair(lex(raw, columns))
	if flat, n := flattenDeep(toks); n > 0 {
		toks = repair(flat)
		notes = append(notes, fmt.Sprintf("%d groups nested deeper than %d were flattened", n, MaxDepth))
	}
	toks = dedupe(toks)
	if n := capTermLength(toks); n > 0 {
		notes = append(notes, fmt.Sprintf("%d words longer than %d characters were searched by their start", n, MaxTermRunes))
	}
	if n := capNear(toks); n > 0 {
		notes = append(notes, fmt.Sprintf("NEAR groups were cut to %d terms (%d dropped)", MaxNearTerms, n))
	}
	if cut, n := capTerms(toks); n > 0 {
		toks = repair(cut)
		notes = append(notes, fmt.Sprintf("only the first %d terms were searched (%d dropped)", MaxTerms, n))
	}
	if typing && len(toks) > 0 && !endsInSpace(raw) {
		last := &toks[len(toks)-1]
		if last.Kind == TokTerm && !last.Quoted && !last.Prefix {
			last.Prefix, last.Typed = true, true
		}
	}
	q := Parsed{Toks: toks}
	if len(notes) > 0 {
		q.Notice = "query too large: " + strings.Join(notes, "; ")
	}
	return q
}

// flattenDeep drops the parentheses of groups nested deeper than
// MaxDepth (toks are balanced: repair ran), returning how many groups
// it flattened. The terms stay; only the grouping of the deepest ones is lost.
func flattenDeep(toks []Tok) ([]Tok, int) {
	depth, flattened := 0, 0
	var dropped []bool // per open group: were its parentheses dropped?
	out := toks[:0:0]
	for _, t := range toks {
		switch t.Kind {
		case TokLParen:
			depth++
			drop := depth > MaxDepth
			dropped = append(dropped, drop)
			if drop {
				flattened++
				continue
			}
		case TokRParen:
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
func dedupe(toks []Tok) []Tok {
	ands, ors := false, false
	for i, t := range toks {
		switch t.Kind {
		case TokTerm:
			ands = ands || (i > 0 && toks[i-1].Kind == TokTerm) // FTS5 reads an AND between them
		case TokAnd:
			ands = true
		case TokOr:
			ors = true
		default:
			return toks // groups, NEAR, NOT, columns: a repeat may mean something
		}
	}
	if ands && ors {
		return toks // a b OR a is not a b OR
	}
	seen := map[string]bool{}
	var out []Tok
	for _, t := range toks {
		if t.Kind != TokTerm {
			out = append(out, t)
			continue
		}
		key := fmt.Sprintf("%s\x00%v%v%v", strings.ToLower(t.Text), t.Prefix, t.Quoted, t.Caret)
		if seen[key] {
			if n := len(out); n > 0 && out[n-1].Kind != TokTerm {
				out = out[:n-1] // its operator goes with it
			}
			continue
		}
		seen[key] = true
		out = append(out, t)
	}
	return out
}

// capTermLength cuts words longer than MaxTermRunes to their first
// MaxTermRunes characters, as prefix queries (on the trigram index, a
// substring), and returns how many it cut: a 2,000-character word is 2,000
// trigram doclists to intersect.
func capTermLength(toks []Tok) int {
	n := 0
	cut := func(t *Tok) {
		// A phrase is cut at its first over-long word, which ends it as a prefix.
		ws := strings.Fields(t.Text)
		for i, w := range ws {
			if rs := []rune(w); len(rs) > MaxTermRunes {
				t.Text, t.Prefix = strings.Join(append(ws[:i:i], string(rs[:MaxTermRunes])), " "), true
				n++
				return
			}
		}
	}
	for i := range toks {
		switch toks[i].Kind {
		case TokTerm:
			cut(&toks[i])
		case TokNear:
			for k := range toks[i].Kids {
				cut(&toks[i].Kids[k])
			}
		}
	}
	return n
}

// Weight is how many doclists an evaluation of q reads: its terms, each
// word of a phrase counted.
func (q Parsed) Weight() int {
	n := 0
	for _, t := range q.Terms() {
		n += termWeight(t)
	}
	return n
}

// capNear keeps the first MaxNearTerms terms of each NEAR group and
// returns how many it dropped.
func capNear(toks []Tok) int {
	n := 0
	for i := range toks {
		if t := &toks[i]; t.Kind == TokNear && len(t.Kids) > MaxNearTerms {
			n += len(t.Kids) - MaxNearTerms
			t.Kids = t.Kids[:MaxNearTerms]
		}
	}
	return n
}

// termWeight is what a leaf costs against MaxTerms: FTS5 reads one
// doclist per word of a phrase.
func termWeight(t Tok) int {
	return max(1, len(analysis.WordRuns(t.Text)))
}

// capTerms keeps the query up to its MaxTerms-th term (a phrase or
// NEAR group that would cross the bound is cut inside) and reports how many
// terms it dropped. repair then drops the operators left dangling.
func capTerms(toks []Tok) ([]Tok, int) {
	budget, dropped := MaxTerms, 0
	cut := -1
	var out []Tok
	for i, t := range toks {
		if cut >= 0 {
			if t.Kind == TokTerm || t.Kind == TokNear {
				for _, k := range append([]Tok{t}, t.Kids...) {
					if k.Kind == TokTerm {
						dropped += termWeight(k)
					}
				}
			}
			continue
		}
		switch t.Kind {
		case TokTerm:
			w := termWeight(t)
			if w > budget {
				dropped += w - budget
				if budget > 0 {
					t.Text = strings.Join(analysis.WordRuns(t.Text)[:budget], " ")
					out = append(out, t)
				}
				budget, cut = 0, i
				continue
			}
			budget -= w
		case TokNear:
			var kids []Tok
			for _, k := range t.Kids {
				if w := termWeight(k); w <= budget {
					kids, budget = append(kids, k), budget-w
				} else {
					dropped += w
					budget = 0
				}
			}
			if len(kids) < len(t.Kids) {
				cut = i
				switch len(kids) {
				case 0:
				case 1:
					out = append(out, kids[0])
				default:
					t.Kids = kids
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

func lex(s string, columns []string) []Tok {
	var out []Tok
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
					out = append(out, Tok{Kind: TokTerm, Text: text, Quoted: true, Prefix: prefix})
				}
			} else {
				i++ // a lone quote (still being typed): dropped, as Hermes does
			}
		case r == '(':
			out = append(out, Tok{Kind: TokLParen})
			i++
		case r == ')':
			out = append(out, Tok{Kind: TokRParen})
			i++
		case r == '^':
			if i+1 < n && (isBareRune(rs[i+1]) || rs[i+1] == '"') {
				j := len(out)
				i++
				sub := lex(string(rs[i:nextSpace(rs, i)]), columns)
				i = nextSpace(rs, i)
				for k := range sub {
					if k == 0 && sub[k].Kind == TokTerm {
						sub[k].Caret = true
					}
				}
				out = append(out[:j], sub...)
			} else {
				i++
			}
		case r == '-' && (i == 0 || unicode.IsSpace(rs[i-1])) && i+1 < n && (isBareRune(rs[i+1]) || rs[i+1] == '"' || rs[i+1] == '('):
			// "-word" (and -"a phrase", -(a OR b)) excludes, as in web search and fzf: a NOT before it.
			out = append(out, Tok{Kind: TokNot})
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
				out = append(out, Tok{Kind: TokAnd})
			case !compound && word == "OR":
				out = append(out, Tok{Kind: TokOr})
			case !compound && word == "NOT":
				out = append(out, Tok{Kind: TokNot})
			case !compound && word == "NEAR" && i < n && rs[i] == '(':
				near, next := lexNear(rs, i+1, columns)
				out = append(out, near...)
				i = next
			case !compound && i < n && rs[i] == ':' && hasName(columns, word):
				out = append(out, Tok{Kind: TokCol, Text: strings.ToLower(word)})
				i++
			default:
				out = append(out, Tok{Kind: TokTerm, Text: word, Prefix: prefix, Quoted: compound})
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
func lexNear(rs []rune, i int, columns []string) ([]Tok, int) {
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
	var terms []Tok
	for _, t := range lex(inner, nil) {
		if t.Kind == TokTerm {
			t.Caret = false
			terms = append(terms, t)
		}
	}
	switch len(terms) {
	case 0:
		return nil, j
	case 1:
		return terms, j
	}
	return []Tok{{Kind: TokNear, Kids: terms, Dist: dist}}, j
}

func hasName(names []string, w string) bool {
	for _, n := range names {
		if strings.EqualFold(n, w) {
			return true
		}
	}
	return false
}

// OperandStart / operandEnd classify tokens for operator placement.
func OperandStart(k TokKind) bool {
	return k == TokTerm || k == TokLParen || k == TokNear || k == TokCol
}
func OperandEnd(k TokKind) bool { return k == TokTerm || k == TokRParen || k == TokNear }
func isOp(k TokKind) bool       { return k == TokAnd || k == TokOr || k == TokNot }

// repair drops what would make FTS5 reject the query: operators without an
// operand on both sides (the last of a run of operators wins), empty or
// unbalanced parentheses, column filters with nothing after them.
func repair(toks []Tok) []Tok {
	for changed := true; changed; {
		changed = false
		var out []Tok
		depth := 0
		for i, t := range toks {
			switch {
			case t.Kind == TokRParen:
				if depth == 0 || (len(out) > 0 && !OperandEnd(out[len(out)-1].Kind)) {
					if depth > 0 && len(out) > 0 && out[len(out)-1].Kind == TokLParen {
						out = out[:len(out)-1] // "()" -> nothing
						depth--
					}
					changed = true
					continue
				}
				depth--
			case t.Kind == TokLParen:
				depth++
			case isOp(t.Kind):
				prevOK := len(out) > 0 && OperandEnd(out[len(out)-1].Kind)
				nextOK := i+1 < len(toks) && OperandStart(toks[i+1].Kind)
				if !prevOK || !nextOK {
					changed = true
					continue
				}
			case t.Kind == TokCol:
				if i+1 >= len(toks) || !(toks[i+1].Kind == TokTerm || toks[i+1].Kind == TokLParen || toks[i+1].Kind == TokNear) {
					changed = true
					continue
				}
			}
			out = append(out, t)
		}
		for ; depth > 0; depth-- {
			// close what is still open, dropping a dangling "(" at the end
			if len(out) > 0 && out[len(out)-1].Kind == TokLParen {
				out = out[:len(out)-1]
				changed = true
				continue
			}
			out = append(out, Tok{Kind: TokRParen})
		}
		toks = out
	}
	return toks
}

// Empty reports a query with nothing to search for.
func (q Parsed) Empty() bool {
	for _, t := range q.Toks {
		if t.Kind == TokTerm || t.Kind == TokNear {
			return false
		}
	}
	return true
}

// Terms are the positive and negative leaf texts, for routing, LIKE scans and highlighting.
func (q Parsed) Terms() (all []Tok) {
	for _, t := range q.Toks {
		switch t.Kind {
		case TokTerm:
			all = append(all, t)
		case TokNear:
			all = append(all, t.Kids...)
		}
	}
	return all
}

// PositiveTerms are the leaves a match contains: every leaf but those
// under a NOT (NOT x, -x, NOT (a OR b), NOT content: x). They are what
// highlighting, snippets, ranking and recall's transcript windows look for.
func (q Parsed) PositiveTerms() (out []Tok) {
	negDepth := -1 // paren depth of the NOT group being skipped, -1 when none
	depth := 0
	for i, t := range q.Toks {
		switch t.Kind {
		case TokLParen:
			if negDepth < 0 && negated(q.Toks, i) {
				negDepth = depth
			}
			depth++
			continue
		case TokRParen:
			depth--
			if depth == negDepth {
				negDepth = -1
			}
			continue
		}
		if negDepth >= 0 || negated(q.Toks, i) {
			continue
		}
		switch t.Kind {
		case TokTerm:
			out = append(out, t)
		case TokNear:
			out = append(out, t.Kids...)
		}
	}
	return out
}

// negated reports whether the operand at toks[i] follows a NOT (a column
// filter between them belongs to the operand).
func negated(toks []Tok, i int) bool {
	for i--; i >= 0 && toks[i].Kind == TokCol; i-- {
	}
	return i >= 0 && toks[i].Kind == TokNot
}

// Conjunctive reports a plain AND of terms (no OR, NOT, groups, columns).
func (q Parsed) Conjunctive() bool {
	for _, t := range q.Toks {
		if t.Kind != TokTerm && t.Kind != TokAnd {
			return false
		}
	}
	return true
}

// Render writes the query as FTS5 syntax; term renders each leaf.
func (q Parsed) Render(term func(t Tok) string) string {
	var b strings.Builder
	prevGroup := false // the previous leaf rendered as a parenthesised group
	for i, t := range q.Toks {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		leaf := ""
		if t.Kind == TokTerm {
			leaf = term(t)
		}
		// FTS5 reads juxtaposed phrases as AND, but not a group beside an
		// operand ("(a OR b) c" is a syntax error), and a leaf may render as
		// a group (the CJK plan): spell the AND out wherever a group is involved.
		if i > 0 && OperandEnd(q.Toks[i-1].Kind) && OperandStart(t.Kind) &&
			(q.Toks[i-1].Kind != TokTerm || t.Kind != TokTerm || prevGroup || strings.HasPrefix(leaf, "(")) {
			b.WriteString("AND ")
		}
		prevGroup = strings.HasPrefix(leaf, "(")
		switch t.Kind {
		case TokTerm:
			b.WriteString(leaf)
		case TokAnd:
			b.WriteString("AND")
		case TokOr:
			b.WriteString("OR")
		case TokNot:
			b.WriteString("NOT")
		case TokLParen:
			b.WriteString("(")
		case TokRParen:
			b.WriteString(")")
		case TokCol:
			b.WriteString(t.Text + " :")
		case TokNear:
			b.WriteString("NEAR(")
			for i, k := range t.Kids {
				if i > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(term(k))
			}
			if t.Dist > 0 {
				b.WriteString(", " + strconv.Itoa(t.Dist))
			}
			b.WriteString(")")
		}
	}
	return b.String()
}

// FTSTerm renders a leaf for a unicode61 or trigram table: always a quoted
// string, so no character can be read as syntax.
func FTSTerm(t Tok) string {
	s := QuoteFTS(t.Text)
	if t.Prefix {
		s += "*"
	}
	if t.Caret {
		s = "^" + s
	}
	return s
}

// QuoteFTS makes s one FTS5 string (a term or phrase), escaping quotes.
func QuoteFTS(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
