package warp

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

var update = flag.Bool("update", false, "rewrite testdata/importers/warp/seed.sql from fixture.json")

// fixture is fixture.json: agent_conversations rows with their agent_tasks,
// and ai_queries rows. A task is written as its protobuf fields, each key
// "<number>:<name as in task.proto>" (":double" after it for a double), so
// that the numbers can be checked against the .proto by eye; encode writes
// them the way prost does (fields in number order).
type fixture struct {
	Conversations []struct {
		ConversationID string          `json:"conversation_id"`
		LastModifiedAt string          `json:"last_modified_at"`
		Data           json.RawMessage `json:"conversation_data"`
		Summary        json.RawMessage `json:"summary"`
		Tasks          []struct {
			TaskID         string         `json:"task_id"`
			LastModifiedAt string         `json:"last_modified_at"`
			Task           map[string]any `json:"task"`
		} `json:"tasks"`
	} `json:"agent_conversations"`
	Queries []struct {
		ExchangeID     string `json:"exchange_id"`
		ConversationID string `json:"conversation_id"`
		StartTS        string `json:"start_ts"`
		Input          string `json:"input"`
		WorkingDir     string `json:"working_directory"`
		OutputStatus   string `json:"output_status"`
		ModelID        string `json:"model_id"`
	} `json:"ai_queries"`
}

// encode writes one message of fixture.json in the protobuf wire format.
func encode(t *testing.T, msg map[string]any) []byte {
	type kv struct {
		num    int
		double bool
		v      any
	}
	var fields []kv
	for k, v := range msg {
		parts := strings.Split(k, ":")
		n, err := strconv.Atoi(parts[0])
		if err != nil || len(parts) < 2 {
			t.Fatalf("fixture key %q is not <number>:<name>", k)
		}
		fields = append(fields, kv{n, len(parts) == 3 && parts[2] == "double", v})
	}
	sort.Slice(fields, func(i, j int) bool { return fields[i].num < fields[j].num })
	var b []byte
	var put func(n int, double bool, v any)
	put = func(n int, double bool, v any) {
		switch v := v.(type) {
		case string:
			b = binary.AppendUvarint(b, uint64(n)<<3|2)
			b = binary.AppendUvarint(b, uint64(len(v)))
			b = append(b, v...)
		case float64:
			if double {
				b = binary.AppendUvarint(b, uint64(n)<<3|1)
				b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
				return
			}
			b = binary.AppendUvarint(b, uint64(n)<<3)
			b = binary.AppendUvarint(b, uint64(int64(v))) // a negative int32 as ten bytes, as protobuf does
		case bool:
			b = binary.AppendUvarint(b, uint64(n)<<3)
			if v {
				b = append(b, 1)
			} else {
				b = append(b, 0)
			}
		case map[string]any:
			sub := encode(t, v)
			b = binary.AppendUvarint(b, uint64(n)<<3|2)
			b = binary.AppendUvarint(b, uint64(len(sub)))
			b = append(b, sub...)
		case []any:
			for _, item := range v {
				put(n, double, item)
			}
		default:
			t.Fatalf("field %d: %T", n, v)
		}
	}
	for _, f := range fields {
		put(f.num, f.double, f.v)
	}
	return b
}

// seedSQL is the INSERTs of fixture.json as Warp writes them
// (app/src/persistence/agent.rs upsert_agent_conversation: the
// conversation_data and summary JSON compact, each task
// Task::encode_to_vec; app/src/persistence/block_list.rs for ai_queries).
func seedSQL(t *testing.T) string {
	raw, err := os.ReadFile(filepath.Join(it.Fixtures(t, "warp"), "fixture.json"))
	if err != nil {
		t.Fatal(err)
	}
	var fx fixture
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&fx); err != nil {
		t.Fatal(err)
	}
	q := func(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
	compact := func(r json.RawMessage) string {
		if len(r) == 0 || string(r) == "null" {
			return "NULL"
		}
		var buf bytes.Buffer
		if err := json.Compact(&buf, r); err != nil {
			t.Fatal(err)
		}
		return q(buf.String())
	}
	var b strings.Builder
	b.WriteString("-- Generated from fixture.json by `go test ./store/importer/warp -run TestSeed -update`: the\n-- tasks in protobuf's wire format as hex blobs.\n")
	for _, c := range fx.Conversations {
		fmt.Fprintf(&b, "INSERT INTO agent_conversations (conversation_id, conversation_data, last_modified_at, summary) VALUES (%s, %s, %s, %s);\n",
			q(c.ConversationID), compact(c.Data), q(c.LastModifiedAt), compact(c.Summary))
		for _, task := range c.Tasks {
			fmt.Fprintf(&b, "INSERT INTO agent_tasks (conversation_id, task_id, task, last_modified_at) VALUES (%s, %s, X'%s', %s);\n",
				q(c.ConversationID), q(task.TaskID), hex.EncodeToString(encode(t, task.Task)), q(task.LastModifiedAt))
		}
	}
	for _, a := range fx.Queries {
		fmt.Fprintf(&b, "INSERT INTO ai_queries (exchange_id, conversation_id, start_ts, input, working_directory, output_status, model_id) VALUES (%s, %s, %s, %s, %s, %s, %s);\n",
			q(a.ExchangeID), q(a.ConversationID), q(a.StartTS), q(a.Input), q(a.WorkingDir), q(a.OutputStatus), q(a.ModelID))
	}
	return b.String()
}

// TestSeed: seed.sql is fixture.json as Warp stores it (rewrite it with
// -update after editing fixture.json).
func TestSeed(t *testing.T) {
	want := seedSQL(t)
	path := filepath.Join(it.Fixtures(t, "warp"), "seed.sql")
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != want {
		t.Fatalf("seed.sql is not fixture.json as Warp stores it (%v): run go test ./store/importer/warp -run TestSeed -update", err)
	}
}
