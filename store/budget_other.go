//go:build !unix

package store

import "time"

// threadCPU falls back to wall-clock time where getrusage is missing.
func threadCPU() time.Duration { return time.Duration(time.Now().UnixNano()) }
