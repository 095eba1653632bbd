// Command rusage runs a command and writes what it cost to a file:
//
//	rusage REPORT NAME ARGS...
//
// runs NAME ARGS... with this process's standard streams and environment,
// and writes "WALL_NS CPU_NS MAXRSS_KIB EXIT" to REPORT: the wall time from
// start to exit, the child's user + system time and its peak resident set
// size (getrusage of the child), and its exit code, which is also this
// process's. BenchmarkCLI starts every timed process through it because
// Linux gives a child started with vfork (as Go's os/exec does) the peak
// RSS of its parent at exec: a large benchmark process would then be
// counted in a small child's peak. This process is small, so its own share
// is a few MB. It lives under testdata so that `go build ./...` leaves it
// alone.
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: rusage REPORT NAME ARGS...")
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[2], os.Args[3:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if exit := (*exec.ExitError)(nil); err != nil && !errors.As(err, &exit) {
		fmt.Fprintln(os.Stderr, "rusage:", err)
		os.Exit(2)
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	cpu := ru.Utime.Nano() + ru.Stime.Nano()
	code := cmd.ProcessState.ExitCode()
	report := fmt.Sprintf("%d %d %d %d\n", wall.Nanoseconds(), cpu, ru.Maxrss, code)
	if err := os.WriteFile(os.Args[1], []byte(report), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "rusage:", err)
		os.Exit(2)
	}
	os.Exit(code)
}
