package postings

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The FTS5 expressions recall renders (store/engine/query and plan), read
// back into a tree that full ranking evaluates over doclists: quoted or
// bare strings, a trailing *, a leading ^ (the phrase starts a column), a
// column filter (`name :` before a phrase or a group), NEAR groups, AND,
// OR, NOT, implicit AND and parentheses. Anything else is left to FTS5
// (parseFTSExpr returns ok=false).

// exprOp is a node's operator.
type exprOp int

const (
	opPhrase exprOp = iota
	opAnd
	opOr
	opNot  // kids[0] NOT kids[1]
	opNear // kids are phrases; a row matches with instances within near tokens
)

// exprNode is one node of a parsed expression.
type exprNode struct {
	op     exprOp
	kids   []*exprNode
	phrase int // opPhrase: index into exprTree.phrases
	near   int // opNear: the distance
}

// exprPhrase is one phrase as the index holds it.
type exprPhrase struct {
	tokens  []string // index terms, in order
	prefix  bool     // the last token is a prefix
	initial bool     // ^: the phrase starts its column
	cols    uint64   // the columns it may match in (a bit each); 0: any
	near    bool     // in a NEAR group: its instances' positions are needed
}

// positional reports whether the phrase needs its position lists to count.
func (p exprPhrase) positional() bool {
	return len(p.tokens) > 1 || p.initial || p.cols != 0 || p.near
}

// exprTree is a parsed expression and its phrases (bm25 scores each).
type exprTree struct {
	root    *exprNode
	phrases []exprPhrase
}

// parseFTSExpr reads expr; tokenize turns a string into the table's
// terms; columns are the table's column names (for column filters).
func parseFTSExpr(expr string, tokenize func(string) []string, columns []string) (exprTree, bool) {
	p := exprParser{toks: lexFTS(expr), tokenize: tokenize, columns: columns}
	if p.toks == nil {
		return exprTree{}, false
	}
	root := p.or()
	if root == nil || p.bad || p.i != len(p.toks) {
		return exprTree{}, false
	}
	return exprTree{root: root, phrases: p.phrases}, true
}

type lexKind int

const (
	lexString lexKind = iota
	lexAnd
	lexOr
	lexNot
	lexOpen
	lexClose
	lexColumn   // a column filter: text is the name
	lexNearOpen // NEAR(
	lexComma
)

type lexTok struct {
	kind    lexKind
	text    string
	prefix  bool
	initial bool
}

// lexFTS splits an expression; nil means it uses syntax full ranking leaves to FTS5.
func lexFTS(s string) []lexTok {
	var out []lexTok
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '(':
			out = append(out, lexTok{kind: lexOpen})
			i++
		case c == ',':
			out = append(out, lexTok{kind: lexComma})
			i++
		case c == ')':
			out = append(out, lexTok{kind: lexClose})
			i++
		case c == '^':
			// ^ binds to the phrase that follows at once.
			if i+1 >= len(s) || (s[i+1] != '"' && !isBareword(rune(s[i+1])) && s[i+1] < 0x80) {
				return nil
			}
			out = append(out, lexTok{kind: lexString, initial: true})
			i++
		case c == '"':
			var b strings.Builder
			j := i + 1
			for {
				if j >= len(s) {
					return nil
				}
				if s[j] == '"' {
					if j+1 < len(s) && s[j+1] == '"' {
						b.WriteByte('"')
						j += 2
						continue
					}
					break
				}
				b.WriteByte(s[j])
				j++
			}
			t := lexTok{kind: lexString, text: b.String()}
			t = takeCaret(&out, t)
			i = j + 1
			if i < len(s) && s[i] == '*' {
				t.prefix = true
				i++
			}
			out = append(out, t)
		case isBareword(rune(c)) || c >= 0x80:
			j := i
			for j < len(s) {
				r, n := utf8.DecodeRuneInString(s[j:])
				if !isBareword(r) {
					break
				}
				j += n
			}
			w := s[i:j]
			i = j
			switch w {
			case "AND":
				out = append(out, lexTok{kind: lexAnd})
				continue
			case "OR":
				out = append(out, lexTok{kind: lexOr})
				continue
			case "NOT":
				out = append(out, lexTok{kind: lexNot})
				continue
			case "NEAR":
				if k := skipSpaces(s, i); k < len(s) && s[k] == '(' {
					out = append(out, lexTok{kind: lexNearOpen})
					i = k + 1
					continue
				}
				return nil // a bare NEAR is a string to FTS5: leave it to FTS5
			}
			if k := skipSpaces(s, i); k < len(s) && s[k] == ':' {
				out = append(out, lexTok{kind: lexColumn, text: strings.ToLower(w)})
				i = k + 1
				continue
			}
			t := takeCaret(&out, lexTok{kind: lexString, text: w})
			if i < len(s) && s[i] == '*' {
				t.prefix = true
				i++
			}
			out = append(out, t)
		default:
			return nil // ^, column filters, +, NEAR's comma...
		}
	}
	return out
}

// takeCaret folds a pending ^ (the previous token) into t.
func takeCaret(out *[]lexTok, t lexTok) lexTok {
	if n := len(*out); n > 0 && (*out)[n-1].kind == lexString && (*out)[n-1].initial && (*out)[n-1].text == "" {
		*out = (*out)[:n-1]
		t.initial = true
	}
	return t
}

func skipSpaces(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// isBareword: FTS5's bareword characters (fts5ExprIsBareword).
func isBareword(r rune) bool {
	return r >= 0x80 || r == '_' || r == 0x1a || (r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
}

type exprParser struct {
	toks     []lexTok
	i        int
	bad      bool
	phrases  []exprPhrase
	tokenize func(string) []string
	columns  []string
}

func (p *exprParser) peek() (lexTok, bool) {
	if p.i < len(p.toks) {
		return p.toks[p.i], true
	}
	return lexTok{}, false
}

// FTS5's precedence, loosest first: OR, AND (spelled or implicit), NOT.
func (p *exprParser) or() *exprNode {
	n := p.and()
	for t, ok := p.peek(); ok && t.kind == lexOr; t, ok = p.peek() {
		p.i++
		n = join(opOr, n, p.and())
	}
	return n
}

func (p *exprParser) and() *exprNode {
	n := p.not()
	for {
		t, ok := p.peek()
		if !ok {
			return n
		}
		switch t.kind {
		case lexAnd:
			p.i++
		case lexString, lexOpen, lexColumn, lexNearOpen:
		default:
			return n
		}
		n = join(opAnd, n, p.not())
	}
}

func (p *exprParser) not() *exprNode {
	n := p.primary()
	for t, ok := p.peek(); ok && t.kind == lexNot; t, ok = p.peek() {
		p.i++
		n = &exprNode{op: opNot, kids: []*exprNode{n, p.primary()}}
		if n.kids[0] == nil || n.kids[1] == nil {
			p.bad = true
		}
	}
	return n
}

// next takes the next token; at the end the expression is incomplete.
func (p *exprParser) next() (lexTok, bool) {
	t, ok := p.peek()
	if !ok {
		p.bad = true
		return t, false
	}
	p.i++
	return t, true
}

func (p *exprParser) primary() *exprNode {
	t, ok := p.next()
	if !ok {
		return nil
	}
	switch t.kind {
	case lexColumn:
		// A column filter narrows every phrase of what follows it.
		col := slices.Index(p.columns, t.text)
		if col < 0 || col >= 64 {
			p.bad = true // FTS5 refuses a column it does not have
			return nil
		}
		first := len(p.phrases)
		n := p.primary()
		for i := first; i < len(p.phrases); i++ {
			if p.phrases[i].cols == 0 {
				p.phrases[i].cols = 1 << col
			} else {
				p.phrases[i].cols &= 1 << col
			}
		}
		return n
	case lexNearOpen:
		return p.nearGroup()
	case lexOpen:
		n := p.or()
		if c, ok := p.peek(); !ok || c.kind != lexClose {
			p.bad = true
			return nil
		}
		p.i++
		return n
	case lexString:
		return p.phrase(t, false)
	}
	p.bad = true
	return nil
}

// phrase adds t as a phrase and returns its node; nil for a string with
// no token (FTS5 has its own rules for an empty phrase).
func (p *exprParser) phrase(t lexTok, near bool) *exprNode {
	toks := p.tokenize(t.text)
	if len(toks) == 0 {
		p.bad = true
		return nil
	}
	p.phrases = append(p.phrases, exprPhrase{tokens: toks, prefix: t.prefix, initial: t.initial, near: near})
	return &exprNode{op: opPhrase, phrase: len(p.phrases) - 1}
}

// nearGroup reads NEAR( phrase phrase ... [, N] ), after its NEAR(.
func (p *exprParser) nearGroup() *exprNode {
	n := &exprNode{op: opNear, near: 10} // FTS5_DEFAULT_NEARDIST
	for {
		t, ok := p.next()
		if !ok {
			return nil
		}
		switch t.kind {
		case lexString:
			k := p.phrase(t, true)
			if k == nil {
				return nil
			}
			n.kids = append(n.kids, k)
		case lexComma:
			d, ok := p.peek()
			if !ok || d.kind != lexString || d.prefix || d.initial {
				p.bad = true
				return nil
			}
			dist, err := strconv.Atoi(d.text)
			if err != nil || dist < 0 {
				p.bad = true
				return nil
			}
			n.near = dist
			p.i++
			if c, ok := p.peek(); !ok || c.kind != lexClose {
				p.bad = true
				return nil
			}
			p.i++
			return p.nearDone(n)
		case lexClose:
			return p.nearDone(n)
		default:
			p.bad = true
			return nil
		}
	}
}

// nearDone closes a NEAR group: one phrase alone is just that phrase.
func (p *exprParser) nearDone(n *exprNode) *exprNode {
	switch len(n.kids) {
	case 0:
		p.bad = true
		return nil
	case 1:
		p.phrases[n.kids[0].phrase].near = false
		return n.kids[0]
	}
	return n
}

func join(op exprOp, a, b *exprNode) *exprNode {
	if a == nil || b == nil {
		return nil
	}
	if a.op == op && op != opNot {
		a.kids = append(a.kids, b)
		return a
	}
	return &exprNode{op: op, kids: []*exprNode{a, b}}
}
