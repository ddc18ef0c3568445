package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxFrame bounds one inbound line, as the SDK's own stdio transport does.
const maxFrame = mcp.DefaultMaxLineLength

// MaxInFlight bounds the requests handed to the SDK and not yet answered:
// beyond it the server stops reading stdin until one is answered, so a
// client that pipelines 10,000 calls meets back-pressure instead of a
// server whose memory grows with its queue.
const MaxInFlight = 16

// Serve runs srv over newline-delimited JSON-RPC on in and out (the
// process's stdin and stdout) until the client disconnects (in ends) or
// ctx is done; both are a clean end, not an error. out carries protocol
// frames only. When in ends, every request read before is answered first.
//
// A malformed frame is dropped (with an error response when its id can be
// read, and a line on stderr), and the server goes on: the SDK's transport
// ends the whole connection on the first line it cannot decode, which
// would take the tool away from the agent for the rest of its session.
func Serve(ctx context.Context, srv *mcp.Server, in io.Reader, out io.Writer, log *slog.Logger) error {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	fl := newInFlight(MaxInFlight)
	w := &frameWriter{w: out, inFlight: fl}
	g := &frameGuard{r: bufio.NewReaderSize(in, 64<<10), closer: in, w: w, log: log, inFlight: fl}
	err := srv.Run(ctx, &mcp.IOTransport{Reader: g, Writer: w})
	if ctx.Err() != nil || err == nil || errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed) {
		return nil
	}
	return err
}

// frameWriter serialises whole frames: the SDK writes each message with one
// Write, and the guard's error replies must not land inside one.
type frameWriter struct {
	mu       sync.Mutex
	w        io.Writer
	inFlight *inFlight
}

// Write writes one frame; a response frees its request's place in flight
// once written.
func (f *frameWriter) Write(p []byte) (int, error) {
	f.mu.Lock()
	n, err := f.w.Write(p)
	f.mu.Unlock()
	if msg, derr := jsonrpc.DecodeMessage(bytes.TrimSpace(p)); derr == nil {
		if resp, ok := msg.(*jsonrpc.Response); ok {
			f.inFlight.done(resp.ID)
		}
	}
	return n, err
}

// Close implements io.Closer; stdout stays open for the process's exit.
func (f *frameWriter) Close() error { return nil }

// frameGuard passes the SDK only lines that decode as JSON-RPC messages and
// answers the rest itself.
type frameGuard struct {
	r        *bufio.Reader
	closer   io.Reader // closed with the guard if it is an io.Closer
	w        *frameWriter
	log      *slog.Logger
	pending  []byte // a checked line not yet read by the SDK
	inFlight *inFlight
}

// Read hands the SDK the next checked line. It blocks while MaxInFlight
// requests are unanswered, and at the end of in it waits for every
// request read to be answered before reporting the end: the SDK closes the
// connection at once, dropping answers still being worked on.
func (g *frameGuard) Read(p []byte) (int, error) {
	for len(g.pending) == 0 {
		line, err := g.readLine()
		if len(line) > 0 {
			g.pending = g.check(line)
		}
		if err != nil && len(g.pending) == 0 {
			g.inFlight.drain()
			return 0, err
		}
	}
	n := copy(p, g.pending)
	g.pending = g.pending[n:]
	return n, nil
}

// Close closes the underlying reader when it can be closed.
func (g *frameGuard) Close() error {
	g.inFlight.close()
	if c, ok := g.closer.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// readLine returns the next line without its newline; a line over
// maxFrame is consumed (keeping only what finds its id) and answered with
// an error instead.
func (g *frameGuard) readLine() ([]byte, error) {
	var line []byte
	for {
		chunk, err := g.r.ReadSlice('\n')
		if len(line)+len(chunk) > maxFrame {
			var ids idScanner
			ids.write(line)
			ids.write(chunk)
			line = line[:0]
			for errors.Is(err, bufio.ErrBufferFull) {
				chunk, err = g.r.ReadSlice('\n')
				ids.write(chunk)
			}
			g.log.Warn("dropped a frame longer than the limit", "limit", maxFrame)
			g.reply(ids.id, jsonrpc.CodeInvalidRequest, fmt.Sprintf("invalid request: the message is longer than %d bytes", maxFrame))
			if err != nil {
				return nil, err
			}
			continue
		}
		line = append(line, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimSpace(line), err
	}
}

// check returns the line (newline-terminated) if it is one JSON-RPC
// message, after waiting for a place in flight when it is a request;
// otherwise it replies with an error and returns nil. Batches are refused
// in every protocol version: the SDK's transport closes the connection on
// one from 2025-06-18 on, and before that loses answers around them.
func (g *frameGuard) check(line []byte) []byte {
	if !json.Valid(line) {
		// Too deep (encoding/json stops at 10,000 levels) or broken.
		g.log.Warn("dropped a frame that is not JSON", "frame", clip(line))
		g.reply(scanID(line), jsonrpc.CodeParseError, "parse error: the message is not valid JSON (or is nested more than 10000 levels deep)")
		return nil
	}
	if line[0] == '[' {
		var msgs []json.RawMessage
		if err := json.Unmarshal(line, &msgs); err != nil || len(msgs) == 0 {
			g.log.Warn("dropped an empty batch")
			return nil
		}
		g.log.Warn("dropped a JSON-RPC batch", "frame", clip(line))
		for _, m := range msgs {
			g.reply(idOf(m), jsonrpc.CodeInvalidRequest, "invalid request: JSON-RPC batches are not supported; send each message on its own line")
		}
		return nil
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		g.log.Warn("dropped a malformed JSON-RPC message", "error", err, "frame", clip(line))
		g.reply(idOf(line), jsonrpc.CodeInvalidRequest, "invalid request: "+err.Error())
		return nil
	}
	if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
		g.inFlight.add(req.ID)
	}
	return append(line, '\n')
}

// reply writes an error response to the request with id. A frame whose id
// cannot be read gets no reply, only a line on stderr: JSON-RPC 2.0 would
// answer it with "id": null, but the SDK's own client treats such a
// response as a broken stream and drops the connection, which is the very
// failure the guard exists to prevent.
func (g *frameGuard) reply(id jsonrpc.ID, code int64, msg string) {
	if !id.IsValid() {
		return
	}
	data, err := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: id, Error: &jsonrpc.Error{Code: code, Message: msg}})
	if err != nil {
		g.log.Error("encode error reply", "error", err)
		return
	}
	if _, err := g.w.Write(append(data, '\n')); err != nil {
		g.log.Error("write error reply", "error", err)
	}
}

// idOf is the request id of a message that did not decode, when it has a usable one.
func idOf(raw json.RawMessage) jsonrpc.ID {
	var probe struct {
		ID any `json:"id"`
	}
	if json.Unmarshal(raw, &probe) != nil {
		return jsonrpc.ID{}
	}
	id, err := jsonrpc.MakeID(probe.ID)
	if err != nil {
		return jsonrpc.ID{}
	}
	return id
}

func clip(b []byte) string {
	if len(b) > 200 {
		return string(b[:200]) + "…"
	}
	return string(b)
}
