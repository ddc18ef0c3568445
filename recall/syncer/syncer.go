package syncer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/recall-dev/recall/recall/secrets"
	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/batch"
)

// Syncer syncs one database with hosts.
type Syncer struct {
	st  *store.Store
	cfg Config
	ssh []string
	// TempDir holds the batches in transit ("" is the system's).
	TempDir string
}

// New returns a Syncer for st with cfg, reaching hosts by the transport
// ssh (SSHCommand).
func New(st *store.Store, cfg Config, ssh []string) *Syncer {
	if len(ssh) == 0 {
		ssh = []string{"ssh"}
	}
	if cfg.RemoteCommand == "" {
		cfg.RemoteCommand = "recall"
	}
	return &Syncer{st: st, cfg: cfg, ssh: ssh}
}

// Result is what syncing one host did.
type Result struct {
	Host    string            `json:"host"`
	Push    bool              `json:"push"`
	Machine store.Machine     `json:"machine"` // the host's
	Report  store.ApplyReport `json:"report"`  // what the receiver applied
	Bytes   int64             `json:"bytes"`   // batch size on the wire (compressed)
	Elapsed time.Duration     `json:"-"`
	Seconds float64           `json:"seconds"`
	Err     error             `json:"-"`
	Error   string            `json:"error,omitempty"`
}

func (r *Result) done(start time.Time, err error) Result {
	r.Elapsed = time.Since(start)
	r.Seconds = float64(r.Elapsed.Milliseconds()) / 1000
	if err != nil {
		var he *HostError
		if !errors.As(err, &he) {
			err = &HostError{Host: r.Host, Msg: err.Error()}
		}
		r.Err, r.Error = err, err.Error()
	}
	return *r
}

// temp makes a file for a batch in transit, and what removes it.
func (s *Syncer) temp() (*os.File, func(), error) {
	f, err := os.CreateTemp(s.TempDir, "recall-batch-*.zst")
	if err != nil {
		return nil, nil, err
	}
	return f, func() { f.Close(); os.Remove(f.Name()) }, nil
}

// Pull brings from host what it has that this database lacks.
func (s *Syncer) Pull(ctx context.Context, host string) Result {
	start := time.Now()
	r := Result{Host: host}
	err := s.pull(ctx, host, &r, true)
	return r.done(start, err)
}

func (s *Syncer) pull(ctx context.Context, host string, r *Result, retry bool) error {
	me, err := s.st.ThisMachine(ctx)
	if err != nil {
		return err
	}
	var have store.Watermark
	if m, ok, err := s.st.MachineByHost(ctx, host); err != nil {
		return err
	} else if ok {
		if have, err = s.st.PeerWatermark(ctx, m.ID); err != nil {
			return err
		}
	}
	f, done, err := s.temp()
	if err != nil {
		return err
	}
	defer done()
	args := []string{"export", "--batch", "--after-id", strconv.FormatInt(have.MessageID, 10),
		"--tombstones-after", strconv.FormatFloat(have.TombstoneAt, 'f', -1, 64), "--exclude-machine", me.ID,
		"--batch-format", strconv.Itoa(batch.Version), "-o", "-"}
	if err := s.remote(ctx, host, args, nil, f); err != nil {
		return err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	h, st, err := batch.Check(f)
	r.Bytes = st.Bytes
	if err != nil {
		return &HostError{Host: host, Msg: "its batch was rejected whole, nothing applied: " + err.Error()}
	}
	if h.Machine == me.ID {
		return &HostError{Host: host, Msg: "it is this very database (same machine id " + me.ID[:8] + "…): nothing to sync"}
	}
	// The host may be another database than the one last reached by that
	// name (reinstalled, or a new alias): ask again from what this one holds
	// of the database that answered.
	known, err := s.st.PeerWatermark(ctx, h.Machine)
	if err != nil {
		return err
	}
	if retry && (h.AfterID > known.MessageID || h.TombstonesAfter > known.TombstoneAt) {
		if err := s.noteHost(ctx, host, h); err != nil {
			return err
		}
		return s.pull(ctx, host, r, false)
	}
	r.Machine = store.Machine{ID: h.Machine, Name: h.MachineName, Host: host}
	if err := s.noteHost(ctx, host, h); err != nil {
		return err
	}
	_, rep, err := batch.ApplyFile(ctx, s.st, f.Name())
	r.Report = rep
	return err
}

// noteHost records that host reaches the machine that wrote h.
func (s *Syncer) noteHost(ctx context.Context, host string, h batch.Header) error {
	return s.st.Write(ctx, func(tx *store.Tx) error {
		return tx.NoteMachine(store.Machine{ID: h.Machine, Name: h.MachineName, Host: host})
	})
}

// State is what `recall sync --state-for ID` prints: the remote database's
// machine, the batch formats it reads, and what it holds of machine ID.
type State struct {
	Machine    store.Machine   `json:"machine"`
	Format     int             `json:"format"`
	MinFormat  int             `json:"min_format"`
	Schema     int             `json:"schema"`
	Watermark  store.Watermark `json:"watermark"`
	ReadsBatch bool            `json:"reads_batch"`
}

// StateFor is this database's State for a pusher of machine id.
func StateFor(ctx context.Context, st *store.Store, id string) (State, error) {
	me, err := st.ThisMachine(ctx)
	if err != nil {
		return State{}, err
	}
	w, err := st.PeerWatermark(ctx, id)
	if err != nil {
		return State{}, err
	}
	stats, err := st.Stats(ctx)
	if err != nil {
		return State{}, err
	}
	return State{Machine: me, Format: batch.Version, MinFormat: batch.MinVersion, Schema: stats.RecallVersion, Watermark: w, ReadsBatch: true}, nil
}

// Push sends host what this database has that host lacks.
func (s *Syncer) Push(ctx context.Context, host string) Result {
	start := time.Now()
	r := Result{Host: host, Push: true}
	err := s.push(ctx, host, &r)
	return r.done(start, err)
}

func (s *Syncer) push(ctx context.Context, host string, r *Result) error {
	me, err := s.st.ThisMachine(ctx)
	if err != nil {
		return err
	}
	out := &capped{max: 1 << 20}
	if err := s.remote(ctx, host, []string{"sync", "--state-for", me.ID}, nil, out); err != nil {
		return err
	}
	var state State
	if err := json.Unmarshal(out.b, &state); err != nil || !state.ReadsBatch {
		return &HostError{Host: host, Msg: "its recall did not say what it holds (" + oneLine(string(out.b)) + "): upgrade it there (go install github.com/recall-dev/recall@latest)"}
	}
	if batch.Version < state.MinFormat || batch.Version > state.Format {
		return &HostError{Host: host, Msg: fmt.Sprintf("its recall reads batch formats %d to %d (schema %d), this one writes %d: upgrade the older one",
			state.MinFormat, state.Format, state.Schema, batch.Version)}
	}
	if state.Machine.ID == me.ID {
		return &HostError{Host: host, Msg: "it is this very database (same machine id): nothing to sync"}
	}
	r.Machine = state.Machine
	r.Machine.Host = host
	if err := s.st.Write(ctx, func(tx *store.Tx) error { return tx.NoteMachine(r.Machine) }); err != nil {
		return err
	}
	f, done, err := s.temp()
	if err != nil {
		return err
	}
	defer done()
	if _, err := s.WriteBatch(ctx, f, ExportOptions{After: state.Watermark, Exclude: state.Machine.ID}); err != nil {
		return err
	}
	if r.Bytes, err = f.Seek(0, io.SeekCurrent); err != nil {
		return err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	out = &capped{max: 1 << 20}
	if err := s.remote(ctx, host, []string{"import", "batch", "--json", "-"}, f, out); err != nil {
		return err
	}
	var rep struct {
		Report store.ApplyReport `json:"report"`
	}
	if err := json.Unmarshal(out.b, &rep); err != nil {
		return &HostError{Host: host, Msg: "its recall applied the batch but said nothing readable: " + oneLine(string(out.b))}
	}
	r.Report = rep.Report
	return nil
}

// ExportOptions choose what WriteBatch writes.
type ExportOptions struct {
	After   store.Watermark
	Since   time.Time
	Exclude string
	Format  int // the batch format the receiver reads (0: this recall's)
}

// WriteBatch writes this database's batch to w: what a receiver holding
// o.After lacks (redacted first when redact_at_import is on here).
func (s *Syncer) WriteBatch(ctx context.Context, w io.Writer, o ExportOptions) (batch.Header, error) {
	if o.Format != 0 && (o.Format < batch.MinVersion || o.Format > batch.Version) {
		if o.Format < batch.MinVersion {
			return batch.Header{}, fmt.Errorf("the receiver reads batch format %d; this recall writes formats %d to %d: upgrade recall there", o.Format, batch.MinVersion, batch.Version)
		}
		o.Format = batch.Version // a newer reader reads this one too
	}
	bw, err := batch.NewWriter(w)
	if err != nil {
		return batch.Header{}, err
	}
	eo := store.ExportOptions{AfterID: o.After.MessageID, TombstonesAfter: o.After.TombstoneAt, Since: o.Since, Exclude: o.Exclude}
	bw.AfterID, bw.TombstonesAfter, bw.Since, bw.Exclude = o.After.MessageID, o.After.TombstoneAt, o.Since, o.Exclude
	if s.cfg.RedactAtImport {
		// recall/secrets' one redactor, as for what this machine stores.
		eo.Redact, bw.Redacted = secrets.AtRest{}, true
	}
	if _, err := s.st.ExportBatch(ctx, eo, bw); err != nil {
		return batch.Header{}, err
	}
	return bw.Header(), bw.Close()
}

// ApplyStream reads a batch from r (a file, or standard input), keeps it in
// a temporary file until it is read whole and checked, then applies it.
func (s *Syncer) ApplyStream(ctx context.Context, r io.Reader) (batch.Header, store.ApplyReport, error) {
	f, done, err := s.temp()
	if err != nil {
		return batch.Header{}, store.ApplyReport{}, err
	}
	defer done()
	if _, err := io.Copy(f, r); err != nil {
		return batch.Header{}, store.ApplyReport{}, fmt.Errorf("read the batch: %w", err)
	}
	return batch.ApplyFile(ctx, s.st, f.Name())
}

// capped keeps up to max bytes written to it.
type capped struct {
	b   []byte
	max int
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - len(c.b); room > 0 {
		c.b = append(c.b, p[:min(len(p), room)]...)
	}
	return len(p), nil
}
