package query

import (
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"

	"github.com/recall-dev/recall/store/engine/analysis"
)

// Plain queries.
//
// What people and agents type is rarely FTS5: a few words ("docker postgres
// network") or a whole question ("When did Caroline go to the LGBTQ support
// group?"). Read as FTS5 that is an AND of every word, question words
// included, inside one message: most such queries find nothing although
// every content word is in the history. A query without explicit syntax is
// therefore read as a plain query: its content words (stopwords, question
// words and punctuation dropped), each standing for its English
// inflections (paint, paints, painted, painting), any of them enough to
// match; sessions are then ranked by how much of the query they cover
// (store/engine/pipeline). A query that uses syntax ("a phrase", AND, OR, NOT,
// NEAR, -word, col:, word*, ^word, parentheses) keeps its exact FTS5 meaning.

// maxPlainWords is the most content words a plain query keeps: a long
// question has 10-20; each word is one lazily read doclist per form, so
// the bound is about cost, not about cutting a question short.
const maxPlainWords = 32

// Word is one content word of a plain query.
type Word struct {
	Text  string   // as typed
	Forms []string // lower-cased words that count as this one: itself and its inflections
	// Prefix: the word is still being typed, so any word starting with it counts too.
	Prefix bool
	// CJK: the word holds Chinese, Japanese or Korean text, which no
	// space separates from its neighbours: it counts wherever it occurs
	// in a message, as a substring, read from the CJK indexes (the
	// trigram one, recall's bigram one for 1-2 characters).
	CJK bool
}

// Plain is a query read as plain words.
type Plain struct {
	Words      []Word
	Date       DateRange // zero when the query names no date
	Suggestion string    // set when a word with no hits was replaced (typo.go)
	// Phrase is the query's words in order, lower-cased, stopwords kept
	// (2-12 words; "" otherwise): a row holding them so ranks higher.
	Phrase string
	// TyposTried: the words with no row were already looked up as typos
	// (by the ranking that found no row at all), so need not be again.
	TyposTried bool
}

// plainSyntax reports whether raw uses FTS5 syntax a person writes on
// purpose; the lexer's tokens tell operators, groups and column filters.
func plainSyntax(raw string, toks []Tok) bool {
	if strings.ContainsAny(raw, "\"*^()") {
		return true
	}
	for _, t := range toks {
		if t.Kind != TokTerm {
			return true // AND, OR, NOT (also -word), NEAR, col:
		}
	}
	return false
}

// ReadPlain reads raw as a plain query; ok is false when raw uses explicit
// syntax or has no word at all. A run of text holding CJK is one word (no
// space splits its words, and the CJK indexes match it as a substring):
// "数据库 deploy" means what "database deploy" does, either word enough
// to match. typing marks the last word as still being typed unless raw
// ends in a space.
func ReadPlain(raw string, columns []string, typing bool, now time.Time) (Plain, bool) {
	if utf8.RuneCountInString(raw) > MaxRunes {
		raw = string([]rune(raw)[:MaxRunes])
	}
	raw = strings.ReplaceAll(strings.ToValidUTF8(raw, " "), "\x00", " ")
	toks := lex(raw, columns)
	if len(toks) == 0 || plainSyntax(raw, toks) {
		return Plain{}, false
	}
	var words []string
	anyCJK := false
	for _, t := range toks {
		if analysis.HasCJK(t.Text) {
			anyCJK = true
			words = append(words, t.Text)
			continue
		}
		words = append(words, analysis.WordRuns(t.Text)...) // a compound (docker-compose) by its words
	}
	if len(words) == 0 {
		return Plain{}, false
	}
	typed := typing && !endsInSpace(raw) && analysis.IsWordRune(lastRune(raw))
	var pq Plain
	pq.Date, words = findDate(words, now)
	if len(words) >= 2 && len(words) <= 12 && !anyCJK { // the in-order bonus reads unicode61 tokens
		pq.Phrase = strings.ToLower(strings.Join(words, " "))
	}
	content := contentWords(words)
	if len(content) == 0 {
		content = DedupeFold(words) // only stopwords ("the who"): search them as they are
	}
	if len(content) > maxPlainWords {
		content = content[:maxPlainWords]
	}
	for i, w := range content {
		pw := Word{Text: w, Forms: Inflections(w), CJK: analysis.HasCJK(w)}
		if typed && !pw.CJK && i == len(content)-1 && strings.EqualFold(w, words[len(words)-1]) {
			pw.Prefix = true
		}
		pq.Words = append(pq.Words, pw)
	}
	if len(pq.Words) == 0 {
		return Plain{}, false
	}
	return pq, true
}

func lastRune(s string) rune {
	r, _ := utf8.DecodeLastRuneInString(s)
	return r
}

// contentWords drops stopwords, question words and one-letter words
// (digits and CJK characters are kept) and repeats, keeping the order and
// case of the rest.
func contentWords(words []string) []string {
	var out []string
	for _, w := range words {
		lw := strings.ToLower(w)
		if stopwords[lw] {
			continue
		}
		if utf8.RuneCountInString(w) == 1 && !unicode.IsDigit(lastRune(w)) && !analysis.HasCJK(w) {
			continue
		}
		if !slices.ContainsFunc(out, func(o string) bool { return strings.EqualFold(o, w) }) {
			out = append(out, w)
		}
	}
	return out
}

func DedupeFold(words []string) []string {
	var out []string
	for _, w := range words {
		if !slices.ContainsFunc(out, func(o string) bool { return strings.EqualFold(o, w) }) {
			out = append(out, w)
		}
	}
	return out
}

// Inflections are the words that count as w: w itself and the common
// English Inflections of its stem that stem back to it (Snowball's English
// stemmer, Porter2). They are exact words, not a stem prefix: an FTS5
// prefix query materialises every matching term's doclist before it
// returns a row (20-30 ms per frequent prefix on 200k messages), while an
// OR of exact words is read lazily, newest first.
func Inflections(w string) []string {
	lw := strings.ToLower(w)
	forms := []string{lw}
	if utf8.RuneCountInString(lw) < 3 || !IsASCIIWord(lw) {
		return forms
	}
	stem := english.Stem(lw, true)
	if len(stem) < 3 {
		return forms
	}
	var cands []string
	bases := []string{stem}
	if strings.HasSuffix(stem, "i") { // happi: happy, happier, happiness
		bases = append(bases, stem[:len(stem)-1]+"y")
	}
	if strings.HasSuffix(stem, "e") { // the stemmer keeps some e's: use, usage
		bases = append(bases, stem[:len(stem)-1])
	}
	for _, b := range bases {
		for _, suf := range inflectionSuffixes {
			cands = append(cands, b+suf)
		}
		if n := len(b); n >= 3 && !strings.ContainsRune("aeiouwxy", rune(b[n-1])) && strings.ContainsRune("aeiou", rune(b[n-2])) {
			last := b[n-1:]
			cands = append(cands, b+last+"ed", b+last+"ing", b+last+"er", b+last+"ers") // stopped, running
		}
	}
	for _, c := range cands {
		if !slices.Contains(forms, c) && english.Stem(c, true) == stem {
			forms = append(forms, c)
		}
	}
	return forms
}

// inflectionSuffixes are tried on a stem; only those that stem back to it
// are kept, so "paint" gets paints, painted, painting, paintings but not "painter".
var inflectionSuffixes = []string{"", "s", "es", "e", "ed", "d", "ing", "ings", "er", "ers", "ies", "ied", "ier", "iest",
	"ly", "ation", "ations", "ion", "ions", "ment", "ments", "ness", "ity", "al", "ive", "ise", "ize", "ised", "ized"}

func IsASCIIWord(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z') {
			return false
		}
	}
	return true
}

// stopwords are NLTK's English stopwords plus the modal verbs and fillers
// a question carries ("would", "ever", "also"): words that say how a
// question is asked, not what it is about.
var stopwords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`i me my myself we our ours ourselves you your yours yourself yourselves
he him his himself she her hers herself it its itself they them their theirs themselves what which who
whom this that these those am is are was were be been being have has had having do does did doing a an
the and but if or because as until while of at by for with about against between into through during
before after above below to from up down in out on off over under again further then once here there
when where why how all any both each few more most other some such no nor not only own same so than too
very s t can will just don should now d ll m o re ve y ain aren couldn didn doesn hadn hasn haven isn ma
mightn mustn needn shan shouldn wasn weren won wouldn would could might may must shall whose ever also
kind sort many much likely able recently currently usually often`) {
		m[w] = true
	}
	return m
}()

// RelaxSyntax turns a query with FTS5 syntax into plain words: quotes,
// prefix stars, carets, parentheses and column names become spaces and
// AND/OR/NEAR plain words. ok is false when the query excludes something
// (NOT, -word): its words alone would find what it asked to leave out;
// and when it quotes an identifier ("GEMINI-MD-MARKER-heron",
// "docker-compose": one word joined by - . _ / @): that exact spelling was
// asked for, and any one of its parts ("md", "marker") is not it.
func RelaxSyntax(raw string, columns []string) (string, bool) {
	for _, t := range lex(raw, columns) {
		if t.Kind == TokNot {
			return "", false
		}
	}
	if slices.ContainsFunc(quotedParts(raw), identifier) {
		return "", false
	}
	out := strings.Map(func(r rune) rune {
		if strings.ContainsRune("\"*^():", r) {
			return ' '
		}
		return r
	}, raw)
	fields := strings.Fields(out)
	for i, w := range fields {
		if w == "AND" || w == "OR" || w == "NEAR" {
			fields[i] = strings.ToLower(w)
		}
	}
	return strings.Join(fields, " "), len(fields) > 0
}

// quotedParts are the texts between balanced double quotes in raw.
func quotedParts(raw string) []string {
	parts := strings.Split(raw, `"`)
	var out []string
	for i := 1; i+1 < len(parts); i += 2 {
		out = append(out, parts[i])
	}
	return out
}

// identifier reports whether s is one whitespace-free compound of two or
// more words (GEMINI-MD-MARKER-heron, v1.2, user@host).
func identifier(s string) bool {
	s = strings.TrimSpace(s)
	return s != "" && strings.IndexFunc(s, unicode.IsSpace) < 0 && strings.IndexFunc(s, isJoiner) > 0 && len(analysis.WordRuns(s)) >= 2
}

// HasCJK reports whether a word of the query holds CJK text.
func (pq Plain) HasCJK() bool {
	return slices.ContainsFunc(pq.Words, func(w Word) bool { return w.CJK })
}

// Expr is the FTS5 expression of one plain word: the OR of its forms.
func (w Word) Expr() string {
	parts := make([]string, 0, len(w.Forms)+1)
	for _, f := range w.Forms {
		parts = append(parts, QuoteFTS(f))
	}
	if w.Prefix {
		parts = append(parts, QuoteFTS(strings.ToLower(w.Text))+"*")
	}
	return strings.Join(parts, " OR ")
}

// Highlight is the parsed query highlighting and transcript windows use
// for a plain query: every form of every word.
func (pq Plain) Highlight() Parsed {
	var toks []Tok
	for _, w := range pq.Words {
		for i, f := range w.Forms {
			toks = append(toks, Tok{Kind: TokTerm, Text: f, Prefix: w.Prefix && i == 0})
		}
	}
	return Parsed{Toks: toks}
}
