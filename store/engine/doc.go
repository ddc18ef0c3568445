// Package engine is the vocabulary of recall's search engine: what a
// search is asked (Filter), what it answers (Result, Hit), which index
// served it (Index), and the two things it knows of the database: a
// reader connection (Conn) and what this file has (Layout). The store
// (package store) owns the database and hands the engine a connection; it
// never sees how a query is answered.
//
// The engine is a pipeline, one package per stage, in the order a query
// goes through them:
//
//	query      parse: what was typed, repaired into FTS5 syntax, or read as
//	           plain words (their inflections, a date, the phrase)
//	plan       which index is asked which expression, in which order, and
//	           which rows an index does not cover (the route)
//	postings   the rows each term or phrase is in, read from the index
//	           pages (store/fts5idx reads FTS5's format), and the rows an
//	           expression matches
//	score      BM25 per row from those postings; a plain query's value per
//	           message and per session
//	collect    the best rows, or every matching message gathered into its
//	           session and the sessions put in order; then the best few
//	           sessions scored again with their best rows' roles
//	fill       the listed rows read with their text, session and the
//	           caller's filters
//	highlight  each listed row's snippet, its matched words marked
//
// pipeline runs them (Engine.Search); analysis is how text becomes terms,
// shared with what writes the indexes; rowcache keeps what ranking reads of
// every row (its length, its session) between searches; budget bounds a
// search's CPU time.
package engine
