package importer

import "context"

// fileProgressKey carries, in the context Run passes to Import, the
// callback a source reports its progress inside one large file through.
type fileProgressKey struct{}

// FileProgressFunc receives how many of the file's bytes were read and how
// many messages were inserted from it so far.
type FileProgressFunc func(bytes int64, messages int)

// withFileProgress returns ctx carrying fn.
func withFileProgress(ctx context.Context, fn FileProgressFunc) context.Context {
	return context.WithValue(ctx, fileProgressKey{}, fn)
}

// FileProgress reports progress inside the file being imported: a
// several-hundred-MB data export is one file, and the bar and the ETA,
// which go by bytes, would otherwise stand still until it is done. A no-op
// when the run has no progress callback.
func FileProgress(ctx context.Context, bytes int64, messages int) {
	if fn, ok := ctx.Value(fileProgressKey{}).(FileProgressFunc); ok {
		fn(bytes, messages)
	}
}
