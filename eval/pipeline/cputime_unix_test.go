//go:build unix

package pipeline_test

import "syscall"

// cpuTime returns the CPU time (user and system) the process has used, in
// nanoseconds, or -1 when unknown. On a shared machine it moves less with
// other work than wall time does.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return -1
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
