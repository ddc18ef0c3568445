package importer

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/recall-dev/recall/store"
)

// RetentionAger is implemented by sources whose agent deletes history files
// by age (Claude Code's cleanupPeriodDays, Gemini CLI's
// general.sessionRetention.maxAge): the age as set on this machine, false
// when the agent keeps everything.
type RetentionAger interface {
	RetentionAge() (time.Duration, bool)
}

// RetentionMargin is how long before the agent's own deadline a file not
// imported yet is reported: a week, time enough to run an import.
const RetentionMargin = 7 * 24 * time.Hour

// AtRisk is what an agent's retention will soon delete that recall has not
// imported.
type AtRisk struct {
	Source string        `json:"source"`
	Files  int           `json:"files"`
	Oldest time.Time     `json:"oldest"`
	MaxAge time.Duration `json:"-"`
	Days   int           `json:"retention_days"`
}

// String is the warning line.
func (a AtRisk) String() string {
	return fmt.Sprintf("%d %s files older than %d days are not imported yet (the oldest from %s) and the agent deletes them at %d days: run `recall import %s` (or `recall service install`)",
		a.Files, a.Source, a.Days-int(RetentionMargin/(24*time.Hour)), a.Oldest.Format("2006-01-02"), a.Days, a.Source)
}

// RetentionAtRisk lists src's files in its default locations that are
// older than its retention age less RetentionMargin and not imported as
// they are now (never, or changed since). False when src deletes nothing.
func RetentionAtRisk(ctx context.Context, st *store.Store, src Source, now time.Time) (AtRisk, bool, error) {
	ra, ok := src.(RetentionAger)
	if !ok {
		return AtRisk{}, false, nil
	}
	age, ok := ra.RetentionAge()
	if !ok {
		return AtRisk{}, false, nil
	}
	files, err := src.Discover(src.DefaultPaths())
	if err != nil {
		return AtRisk{}, false, err
	}
	known, err := st.ImportFiles(ctx)
	if err != nil {
		return AtRisk{}, false, err
	}
	rec := make(map[string]store.ImportFile, len(known))
	for _, f := range known {
		rec[f.Path] = f
	}
	r := AtRisk{Source: src.Name(), MaxAge: age, Days: int(age / (24 * time.Hour))}
	cutoff := now.Add(-(age - RetentionMargin))
	for _, f := range files {
		fi, err := os.Stat(f)
		if err != nil || !fi.ModTime().Before(cutoff) {
			continue
		}
		if p, ok := rec[f]; ok && p.Size == fi.Size() && SameModTime(p.ModTime, fi.ModTime()) {
			continue
		}
		r.Files++
		if r.Oldest.IsZero() || fi.ModTime().Before(r.Oldest) {
			r.Oldest = fi.ModTime()
		}
	}
	return r, r.Files > 0, nil
}
