package mcpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/recall-dev/recall/recall/sessionsearch"
	"github.com/recall-dev/recall/store"
)

// argError is an argument the tool cannot use; its message says what to pass.
type argError struct{ msg string }

func (e *argError) Error() string { return e.msg }

func argErrorf(format string, a ...any) error { return &argError{msg: fmt.Sprintf(format, a...)} }

// decodeArgs turns a tools/call's arguments into a Request, as leniently
// as Hermes's tool (numbers may come as strings, out-of-range limit and
// window are clamped, an unknown sort means relevance) but with an
// actionable error for what cannot be meant (window "wide", role "robot").
// Unknown keys are ignored: a model adding one should not lose its answer.
func decodeArgs(raw json.RawMessage, defaultMaxChars int) (sessionsearch.Request, error) {
	req := sessionsearch.Request{MaxChars: defaultMaxChars, Summary: sessionsearch.SummaryOffline}
	args := map[string]json.RawMessage{}
	if len(bytes.TrimSpace(raw)) > 0 && string(bytes.TrimSpace(raw)) != "null" {
		if err := json.Unmarshal(raw, &args); err != nil {
			return req, argErrorf("arguments must be a JSON object, like {\"query\": \"docker network\"}")
		}
	}
	var err error
	str := func(key string) string {
		if err != nil {
			return ""
		}
		var s string
		s, err = stringArg(args, key)
		return s
	}
	num := func(key, what string) (int64, bool) {
		if err != nil {
			return 0, false
		}
		var n int64
		var ok bool
		n, ok, err = intArg(args, key, what)
		return n, ok
	}

	req.Query = str("query")
	req.SessionID = strings.TrimSpace(str("session_id"))
	req.CurrentSessionID = strings.TrimSpace(str("current_session_id"))
	if n, ok := num("limit", "the number of sessions, 1 to 10"); ok {
		req.Limit = int(min(max(n, 1), sessionsearch.MaxLimit))
	}
	if n, ok := num("window", "the number of messages either side of around_message_id, 1 to 20"); ok {
		req.Window = int(min(max(n, 1), sessionsearch.MaxWindow))
	}
	if n, ok := num("max_chars", fmt.Sprintf("the answer budget in characters, %d to %d", sessionsearch.MinMaxChars, sessionsearch.MaxMaxChars)); ok {
		req.MaxChars = int(min(max(n, sessionsearch.MinMaxChars), sessionsearch.MaxMaxChars))
	}
	around, hasAround := num("around_message_id", "a message id from a result (match_message_id or messages[].id)")
	switch s := strings.ToLower(strings.TrimSpace(str("sort"))); s {
	case "newest":
		req.Sort = store.SortNewest
	case "oldest":
		req.Sort = store.SortOldest
	}
	if err != nil {
		return req, err
	}
	if hasAround {
		if around <= 0 {
			return req, argErrorf("around_message_id must be a message id (a positive integer from a result's match_message_id or messages[].id), not %d", around)
		}
		if req.SessionID == "" {
			return req, argErrorf("around_message_id needs session_id: pass the session_id of the result the message came from")
		}
		req.AroundMessageID = around
	}
	if req.Roles, err = rolesArg(args); err != nil {
		return req, err
	}
	summarize, err := boolArg(args, "summarize")
	if err != nil {
		return req, err
	}
	if summarize {
		req.Summary = sessionsearch.SummaryModel
	}
	return req, nil
}

// stringArg reads a string argument; a number is taken as its text (a
// model may send a numeric-looking id unquoted), null as absent.
func stringArg(args map[string]json.RawMessage, key string) (string, error) {
	raw, ok := args[key]
	if !ok || string(raw) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err == nil {
		return n.String(), nil
	}
	return "", argErrorf("%s must be a string, not %s", key, clipRaw(raw))
}

// intArg reads an integer argument given as a JSON number or a numeric string.
func intArg(args map[string]json.RawMessage, key, what string) (int64, bool, error) {
	raw, ok := args[key]
	if !ok || string(raw) == "null" {
		return 0, false, nil
	}
	bad := argErrorf("%s must be an integer: %s (got %s)", key, what, clipRaw(raw))
	var f float64
	if err := json.Unmarshal(raw, &f); err != nil {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return 0, false, bad
		}
		if f, err = strconv.ParseFloat(strings.TrimSpace(s), 64); err != nil && !errors.Is(err, strconv.ErrRange) {
			return 0, false, bad
		}
	}
	if f != math.Trunc(f) || math.IsNaN(f) {
		return 0, false, bad
	}
	// Every out-of-range integer is clamped by the caller, however far out
	// (1e300 and "1e400" as 50 is): only non-integers are an error.
	return int64(max(min(f, 1<<53), -(1 << 53))), true, nil
}

// boolArg reads a boolean given as true/false or "true"/"false".
func boolArg(args map[string]json.RawMessage, key string) (bool, error) {
	raw, ok := args[key]
	if !ok || string(raw) == "null" {
		return false, nil
	}
	var b bool
	if err := json.Unmarshal(raw, &b); err == nil {
		return b, nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if v, err := strconv.ParseBool(strings.TrimSpace(s)); err == nil {
			return v, nil
		}
	}
	return false, argErrorf("%s must be true or false, not %s", key, clipRaw(raw))
}

// rolesArg reads role_filter: "user,assistant" (Hermes's form) or a list.
func rolesArg(args map[string]json.RawMessage) ([]string, error) {
	raw, ok := args["role_filter"]
	if !ok || string(raw) == "null" {
		return nil, nil
	}
	var parts []string
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		parts = strings.Split(s, ",")
	} else if err := json.Unmarshal(raw, &parts); err != nil {
		return nil, argErrorf("role_filter must be a comma-separated string like \"user,assistant\", not %s", clipRaw(raw))
	}
	var roles []string
	for _, p := range parts {
		r := strings.ToLower(strings.TrimSpace(p))
		if r == "" || slices.Contains(roles, r) {
			continue
		}
		if !slices.Contains(sessionsearch.Roles, r) {
			return nil, argErrorf("role_filter: unknown role %q (roles: %s)", r, strings.Join(sessionsearch.Roles, ", "))
		}
		roles = append(roles, r)
	}
	return roles, nil
}

// clipRaw shows a bad argument value in an error message, briefly.
func clipRaw(raw json.RawMessage) string {
	s := string(raw)
	if len(s) > 60 {
		s = s[:60] + "…"
	}
	return s
}
