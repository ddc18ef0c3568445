// Package pipeline runs a query through the engine's stages, in order
// (store/engine's doc lists them): Engine.Search takes what the user typed
// and a filter, and gives the hits.
//
//   - search.go: Search: parse (store/engine/query), then a plain query's
//     session ranking (plain.go), else the route (route.go) of the plan
//     (store/engine/plan), attempt by attempt, each answered from the
//     index (fullrank.go: postings, score, collect, fill, highlight) or by
//     FTS5 and SQL (search.go, like.go), topped up where an index has gaps.
//   - plain.go: a plain query's sessions over every match: postings of each
//     word, the value of each message and session (score), the sessions in
//     order (collect), their messages that pass the filters (fill), each
//     session's snippet (highlight).
//   - bounded.go, typo.go: the plain path's fallback for an index fts5idx
//     does not read, and the typo retry both use.
//
// An Engine holds what a database's searches share: its layout, the row
// caches full ranking reads (store/engine/rowcache) and each FTS table's
// declaration (postings.Indexes).
package pipeline

import (
	"context"

	"github.com/recall-dev/recall/store/engine"
	"github.com/recall-dev/recall/store/engine/postings"
	"github.com/recall-dev/recall/store/engine/rowcache"
)

// DB is what the engine needs of the database: a reader connection for the
// time fn runs (errors, a full database or a closed store, come back as the
// store reports them).
type DB interface {
	Read(ctx context.Context, fn func(c engine.Conn) error) error
}

// Engine is one open database's search engine.
type Engine struct {
	db     DB
	layout engine.Layout
	rows   *rowcache.Cache
	ix     *postings.Indexes
}

// New is the engine of the database at path, read through db, whose layout
// is l (settled when the store opened it).
func New(db DB, l engine.Layout, path string) *Engine {
	rows := rowcache.New(path)
	return &Engine{db: db, layout: l, rows: rows, ix: postings.NewIndexes(rows)}
}
