//go:build unix

package agentdojo_test

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time (user and system) the process has used, all
// threads, the garbage collector's included: on a shared machine records
// per CPU-second vary less than records per second.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
