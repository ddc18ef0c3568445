package secrets

import "sync"

// The same texts leave recall again and again: a session's messages each
// time the detail pane renders, the evidence of a query asked twice, the
// titles of a list. Redaction is remembered per text, in two generations:
// a text found in the old one moves to the new one, and when the new one
// is full the old one is dropped. Memory stays under 2 × cacheBytes (the
// texts themselves are shared with the caller, not copied).
const (
	cacheBytes    = 32 << 20
	cacheMinText  = 32             // shorter texts cost less to scan than to remember
	cacheMaxText  = cacheBytes / 2 // a bigger text would push out all the others
	entryOverhead = 96             // map entry and result header, roughly
)

type cache struct {
	mu       sync.Mutex
	cur, old map[string]*result
	size     int
}

var texts = &cache{cur: map[string]*result{}}

func (c *cache) get(s string) (*result, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if r, ok := c.cur[s]; ok {
		return r, true
	}
	if r, ok := c.old[s]; ok {
		c.putLocked(s, r)
		return r, true
	}
	return nil, false
}

func (c *cache) put(s string, r *result) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.putLocked(s, r)
}

func (c *cache) putLocked(s string, r *result) {
	if c.size > cacheBytes {
		c.old, c.cur, c.size = c.cur, make(map[string]*result, len(c.cur)), 0
	}
	c.cur[s] = r
	c.size += len(s) + entryOverhead
	if r.text != s {
		c.size += len(r.text)
	}
}

// DropCache forgets every remembered redaction: the next text is scanned
// afresh (benchmarks measure the first answer's cost with it).
func DropCache() {
	texts.mu.Lock()
	defer texts.mu.Unlock()
	texts.cur, texts.old, texts.size = map[string]*result{}, nil, 0
}

// cached is redact with the cache in front.
func cached(s string) *result {
	if len(s) < cacheMinText || len(s) > cacheMaxText {
		r := redact(s)
		return &r
	}
	if r, ok := texts.get(s); ok {
		return r
	}
	r := redact(s)
	texts.put(s, &r)
	return &r
}
