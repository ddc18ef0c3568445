package mcpserver

import (
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// inFlight counts the requests handed to the SDK and not yet answered.
type inFlight struct {
	mu     sync.Mutex
	cond   *sync.Cond
	limit  int
	ids    map[jsonrpc.ID]int // a client may reuse an id; each use is answered
	n      int
	closed bool
}

func newInFlight(limit int) *inFlight {
	f := &inFlight{limit: limit, ids: map[jsonrpc.ID]int{}}
	f.cond = sync.NewCond(&f.mu)
	return f
}

// add waits for a free place, then counts id in flight.
func (f *inFlight) add(id jsonrpc.ID) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for f.n >= f.limit && !f.closed {
		f.cond.Wait()
	}
	f.ids[id]++
	f.n++
}

// done counts id answered; an id not in flight (an error reply of the
// guard's own) changes nothing.
func (f *inFlight) done(id jsonrpc.ID) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.ids[id] == 0 {
		return
	}
	if f.ids[id]--; f.ids[id] == 0 {
		delete(f.ids, id)
	}
	f.n--
	f.cond.Broadcast()
}

// drain waits until every request in flight is answered (or the
// connection is closed).
func (f *inFlight) drain() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for f.n > 0 && !f.closed {
		f.cond.Wait()
	}
}

// close releases every waiter: the connection is gone.
func (f *inFlight) close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed = true
	f.cond.Broadcast()
}
