// Package synth generates a deterministic synthetic history of developer
// conversations with AI agents, for benchmarks and demos: the corpus behind
// `recall gen`.
//
// The same seed always yields byte-identical sessions and messages (the
// timeline is anchored to a fixed date, never to the clock), so benchmark
// numbers from two machines describe the same data. The text mixes English
// with Chinese, some Japanese and Korean and mixed-script runs, and draws
// identifiers from a Zipf-distributed vocabulary, so common, mid-frequency and
// rare terms all exist; BenchQueries lists terms that are planted at known
// rates and are therefore guaranteed to occur.
package synth
