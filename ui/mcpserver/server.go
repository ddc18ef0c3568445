// Package mcpserver is `recall mcp`: a Model Context Protocol server over
// stdio, built on the official Go SDK, that lets a coding agent (Claude
// Code, Codex CLI, Gemini CLI, Hermes, any MCP client) search the person's
// past agent sessions itself. It has one tool, session_search, with the
// contract of Hermes Agent's own tool; the answers come from
// recall/sessionsearch, the same code behind `recall search --json`.
package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/recall-dev/recall/recall/secrets"
	"github.com/recall-dev/recall/recall/sessionsearch"
)

// ToolName is the one tool's name, Hermes's.
const ToolName = "session_search"

// Options configures the server.
type Options struct {
	// MaxChars is the budget of a call that passes no max_chars (default
	// sessionsearch.DefaultMaxChars).
	MaxChars int
	// Logger receives the server's own log lines (never stdout); nil discards them.
	Logger *slog.Logger
}

// New returns an MCP server whose session_search tool answers from tool.
// Instructions is the server's instructions text. Claude Code and Codex
// (0.171) load MCP tools lazily through their tool search, so this text,
// not the tool's description, is what the model sees first: it says when
// to reach for recall, in the words a person uses for it.
const Instructions = "recall keeps every conversation the user had with their AI agents (Claude Code, Codex, Gemini CLI, " +
	"Hermes, ...) in one local database, searchable by words and phrases. Use its session_search tool (load it through " +
	"your tool search if it is deferred) whenever the user refers to earlier work or past sessions: \"how did we fix ...\", " +
	"\"last time\", \"what did we decide about ...\", \"that migration\", \"the error we had yesterday\", " +
	"or when a command, decision, file or error from a past session would help with the task at hand. " +
	"Call it before saying you do not remember or asking the user to repeat something they did before. " +
	"Pass a few distinctive keywords as query; no query lists the recent sessions; session_id reads one."

func New(tool *sessionsearch.Tool, o Options) *mcp.Server {
	if o.MaxChars <= 0 {
		o.MaxChars = sessionsearch.DefaultMaxChars
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "recall", Title: "recall: search past agent sessions", Version: version()},
		&mcp.ServerOptions{
			Instructions: Instructions,
			Logger:       o.Logger,
			// No logging capability: the server sends no log notifications.
			Capabilities: &mcp.ServerCapabilities{},
		})
	// Answers are redacted with gitleaks' rules, which take ~25 ms to
	// compile: do it now rather than in the first call.
	secrets.Preload()
	h := &handler{tool: tool, maxChars: o.MaxChars, log: o.Logger}
	srv.AddTool(&mcp.Tool{
		Name:        ToolName,
		Title:       "Search past agent sessions",
		Description: toolDescription(o.MaxChars),
		InputSchema: inputSchema(o.MaxChars),
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(false)},
	}, h.call)
	return srv
}

type handler struct {
	tool     *sessionsearch.Tool
	maxChars int
	log      *slog.Logger
}

// call answers one tools/call. Every problem is a tool result with isError
// and a message the model can act on; nothing here fails the protocol.
func (h *handler) call(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	began := time.Now()
	r, err := decodeArgs(req.Params.Arguments, h.maxChars)
	if err != nil {
		var ae *argError
		if !errors.As(err, &ae) {
			err = fmt.Errorf("bad arguments: %w", err)
		}
		return errorResult(err.Error()), nil
	}
	resp := h.tool.Call(ctx, r)
	if resp.Err != nil {
		h.log.Error("session_search failed", "error", resp.Err)
	}
	h.log.Debug("session_search", "mode", resp.Mode, "chars", len(resp.JSON), "elapsed", time.Since(began))
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(resp.JSON)}}, IsError: resp.IsError}, nil
}

func errorResult(msg string) *mcp.CallToolResult {
	resp := sessionsearch.FailureJSON(msg)
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(resp)}}, IsError: true}
}

// version is the module version the binary was built from ("(devel)" for a
// plain `go build`).
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}
