//go:build !unix

package budget

import "time"

// cpuClock falls back to wall-clock time where getrusage is missing.
type cpuClock struct{}

func threadClock() cpuClock { return cpuClock{} }

func (cpuClock) now() time.Duration { return time.Duration(time.Now().UnixNano()) }
