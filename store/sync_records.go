package store

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
)

// The records a sync batch carries (recall sync, recall export --batch):
// sessions by identity (machine, source, own id), never by the stored id of
// the database that wrote them; messages with the source's own key (or a
// key made of their text), so that a database applies each once; and
// tombstones of what `recall forget` deleted. The JSON field names are the
// batch format's (store/batch), kept stable across versions.

// SyncSession is one session of a batch, with its metadata.
type SyncSession struct {
	Machine     string  `json:"machine"` // the machine it came from (the writer's own id for its own sessions)
	Source      string  `json:"source"`
	ID          string  `json:"id"`               // the source's own id
	ParentID    string  `json:"parent,omitempty"` // the parent's own id (same machine and agent)
	Model       string  `json:"model,omitempty"`
	ModelConfig string  `json:"model_config,omitempty"`
	Title       string  `json:"title,omitempty"`
	StartedAt   float64 `json:"started"`
	EndedAt     float64 `json:"ended,omitempty"`
	EndReason   string  `json:"end_reason,omitempty"`
	Input       int64   `json:"input_tokens,omitempty"`
	Output      int64   `json:"output_tokens,omitempty"`
	CacheRead   int64   `json:"cache_read_tokens,omitempty"`
	CacheWrite  int64   `json:"cache_write_tokens,omitempty"`
	Reasoning   int64   `json:"reasoning_tokens,omitempty"`
	CostUSD     float64 `json:"cost_usd,omitempty"`
	ActualUSD   float64 `json:"actual_cost_usd,omitempty"`
	Cwd         string  `json:"cwd,omitempty"`
	GitBranch   string  `json:"git_branch,omitempty"`
	Archived    bool    `json:"archived,omitempty"`
}

// SyncMessage is one message of a batch; it belongs to the session before
// it in the batch.
type SyncMessage struct {
	Key          string  `json:"key"` // the source's key, or "#" and a hash of the text (syncKey)
	Role         string  `json:"role"`
	Content      string  `json:"content"`
	ToolCallID   string  `json:"tool_call_id,omitempty"`
	ToolCalls    string  `json:"tool_calls,omitempty"`
	ToolName     string  `json:"tool_name,omitempty"`
	Timestamp    float64 `json:"ts"`
	TokenCount   int     `json:"tokens,omitempty"`
	FinishReason string  `json:"finish,omitempty"`
	Reasoning    string  `json:"reasoning,omitempty"`
	Inactive     bool    `json:"inactive,omitempty"`
	Compacted    bool    `json:"compacted,omitempty"`
	DisplayKind  string  `json:"kind,omitempty"`
}

// Tombstone is what `recall forget` deleted, by identity: a whole session
// (Key "") or one message of it (its source key, or "#" and the hash of its
// role and text, as recall_forgotten keeps them). Source "" (a tombstone
// written before identities were kept) stands for every session of that
// own id from that machine.
type Tombstone struct {
	Machine string  `json:"machine"`
	Source  string  `json:"source"`
	ID      string  `json:"id"`
	Key     string  `json:"key,omitempty"`
	At      float64 `json:"at"`
}

// syncKey is the key a message without a source key travels under: a hash
// of what it says, the same on every machine.
func syncKey(m *Message) string {
	h := sha256.New()
	for _, s := range []string{m.Role, m.Content, m.ToolCallID, m.ToolCalls, m.ToolName, m.Reasoning,
		strconv.FormatInt(int64(toEpoch(m.Timestamp)*1000), 10)} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return "#" + hex.EncodeToString(h.Sum(nil)[:16])
}

func (m SyncMessage) message(sid string) Message {
	return Message{SessionID: sid, Role: m.Role, Content: m.Content, ToolCallID: m.ToolCallID, ToolCalls: m.ToolCalls,
		ToolName: m.ToolName, Timestamp: fromEpoch(m.Timestamp), TokenCount: m.TokenCount, FinishReason: m.FinishReason,
		Reasoning: m.Reasoning, Inactive: m.Inactive, Compacted: m.Compacted, DisplayKind: m.DisplayKind, SourceKey: m.Key}
}

func toSyncMessage(m Message, key string) SyncMessage {
	return SyncMessage{Key: key, Role: m.Role, Content: m.Content, ToolCallID: m.ToolCallID, ToolCalls: m.ToolCalls,
		ToolName: m.ToolName, Timestamp: toEpoch(m.Timestamp), TokenCount: m.TokenCount, FinishReason: m.FinishReason,
		Reasoning: m.Reasoning, Inactive: m.Inactive, Compacted: m.Compacted, DisplayKind: m.DisplayKind}
}

func (s SyncSession) session(machine string) Session {
	return Session{ID: s.ID, NativeID: s.ID, Source: s.Source, Machine: machine, ParentID: s.ParentID, Model: s.Model,
		ModelConfig: s.ModelConfig, Title: s.Title, StartedAt: fromEpoch(s.StartedAt), EndedAt: fromEpoch(s.EndedAt),
		EndReason: s.EndReason, InputTokens: s.Input, OutputTokens: s.Output, CacheReadTokens: s.CacheRead,
		CacheWriteTokens: s.CacheWrite, ReasoningTokens: s.Reasoning, EstimatedCostUSD: s.CostUSD, ActualCostUSD: s.ActualUSD,
		Cwd: s.Cwd, GitBranch: s.GitBranch, Archived: s.Archived}
}
