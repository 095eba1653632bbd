//go:build !unix

package opabench

import "time"

// cpuTime is not measured here: cpu-ns/run reads 0.
func cpuTime() time.Duration { return 0 }
