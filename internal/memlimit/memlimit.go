// Package memlimit is the garbage-collection setting of the tenet process:
// a soft memory limit instead of Go's default GOGC=100.
//
// tenet's batch work (decoding transcripts, judging runs) allocates much and
// keeps little: with GOGC=100 the collector runs each time the heap doubles
// over a small live heap, and it took about a third of `tenet eval`'s CPU
// time (docs/performance.md, "Allocation and the GC setting"). So, unless the
// user set GOGC or GOMEMLIMIT, tenet turns the proportional trigger off
// (GOGC=off) and sets a soft memory limit of DefaultLimit (or
// TENET_MEMORY_LIMIT): the heap grows to the limit before a collection.
// When the live heap outgrows half the limit, the limit follows it (twice
// the live heap after each collection, what GOGC=100 gives), so a large live
// heap is never collected over and over against a limit it cannot get under.
package memlimit

import (
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
)

// DefaultLimit is the soft memory limit tenet sets when neither GOGC,
// GOMEMLIMIT nor TENET_MEMORY_LIMIT says otherwise: 128 MiB. It is a fixed
// figure, not a share of the machine's memory, so that a tenet evaluation
// keeps the same footprint on a laptop and on a large CI runner (its peak
// resident set is about the limit plus 20 MB of code, for a live heap below
// half of it).
const DefaultLimit = 128 << 20

// Env is the environment variable that sets the limit: a size in bytes
// with an optional unit (B, KiB, MiB, GiB, TiB, as GOMEMLIMIT spells them),
// or "off" for Go's defaults.
const Env = "TENET_MEMORY_LIMIT"

// Setting is what Apply does to the runtime.
type Setting struct {
	// Limit is the base soft memory limit in bytes, 0 when tenet leaves the
	// runtime as it is (Go's defaults, or the user's GOGC and GOMEMLIMIT).
	Limit int64
	// Why names what decided the setting, for docs and tests:
	// "default", Env, "GOGC", "GOMEMLIMIT" or Env+"=off".
	Why string
}

// Choose decides the setting from the environment (getenv is os.Getenv
// in the CLI). GOGC or GOMEMLIMIT set (non-empty) means the user tunes the
// collector: tenet changes nothing. A TENET_MEMORY_LIMIT that is set but
// is not a size or "off" is an error, as a misspelt limit should not pass
// as the default.
func Choose(getenv func(string) string) (Setting, error) {
	for _, v := range []string{"GOGC", "GOMEMLIMIT"} {
		if getenv(v) != "" {
			return Setting{Why: v}, nil
		}
	}
	s := getenv(Env)
	switch {
	case s == "":
		return Setting{Limit: DefaultLimit, Why: "default"}, nil
	case s == "off":
		return Setting{Why: Env + "=off"}, nil
	}
	n, err := ParseSize(s)
	if err != nil {
		return Setting{}, fmt.Errorf("%s=%q: %v (a size such as 256MiB, or off)", Env, s, err)
	}
	return Setting{Limit: n, Why: Env}, nil
}

// minLimit is the smallest limit accepted: below it the collector would
// run almost continuously for any evaluation.
const minLimit = 16 << 20

// ParseSize reads a size as GOMEMLIMIT spells it: a whole number of bytes
// with an optional unit B, KiB, MiB, GiB or TiB. It must be at least 16 MiB.
func ParseSize(s string) (int64, error) {
	units := []struct {
		suffix string
		shift  uint
	}{{"TiB", 40}, {"GiB", 30}, {"MiB", 20}, {"KiB", 10}, {"B", 0}}
	num, shift := s, uint(0)
	for _, u := range units {
		if strings.HasSuffix(s, u.suffix) {
			num, shift = strings.TrimSuffix(s, u.suffix), u.shift
			break
		}
	}
	n, err := strconv.ParseUint(num, 10, 64)
	if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
		// A number of digits past uint64 overflows just as one that
		// overflows only once shifted by its unit: both are too large.
		return 0, fmt.Errorf("too large")
	}
	if err != nil || (num != "" && num[0] == '+') {
		return 0, fmt.Errorf("not a whole number of bytes with an optional unit B, KiB, MiB, GiB or TiB")
	}
	if n > math.MaxInt64>>shift {
		return 0, fmt.Errorf("too large")
	}
	n <<= shift
	if n < minLimit {
		return 0, fmt.Errorf("below the minimum of 16MiB")
	}
	return int64(n), nil
}

// Apply puts the setting in force for the whole process: with a limit,
// GOGC=off and the soft memory limit s.Limit, then after every collection
// the limit of NextLimit. Without one it does nothing. The CLI calls it
// once, first thing; a library user of tenet keeps its own setting.
func Apply(s Setting) {
	if s.Limit <= 0 {
		return
	}
	debug.SetMemoryLimit(s.Limit)
	debug.SetGCPercent(-1)
	t := &tuner{base: s.Limit, last: s.Limit, sample: []metrics.Sample{{Name: liveMetric}}}
	t.arm()
}

// Run is main with the setting: it chooses the setting from getenv and
// applies it, then runs main and returns its exit code — or, when the
// environment's setting is not valid, says so on stderr and returns 2
// (bad usage) without running main.
func Run(getenv func(string) string, stderr io.Writer, main func() int) int {
	s, err := Choose(getenv)
	if err != nil {
		fmt.Fprintf(stderr, "tenet: %v\n", err)
		return 2
	}
	Apply(s)
	return main()
}

// Main is a command's main with the setting from the process's
// environment: Run over os.Getenv, os.Args[1:], os.Stdout and os.Stderr.
func Main(main func(args []string, stdout, stderr io.Writer) int) int {
	return Run(os.Getenv, os.Stderr, func() int { return main(os.Args[1:], os.Stdout, os.Stderr) })
}

// liveMetric is the heap the last collection found live.
const liveMetric = "/gc/heap/live:bytes"

// NextLimit is the limit after a collection that found live bytes of
// heap: the base limit, or twice the live heap when that is larger (the
// heap goal GOGC=100 would give), so that the limit follows a growing live
// heap instead of making the collector run without pause against it.
func NextLimit(base int64, live uint64) int64 {
	if live > uint64(math.MaxInt64/2) {
		return math.MaxInt64
	}
	return max(base, 2*int64(live))
}

// tuner moves the limit after each collection. It is reachable only from
// the cleanup of the sentinel it arms, so it lives as long as the process
// collects garbage.
type tuner struct {
	base   int64
	last   int64
	sample []metrics.Sample
}

// sentinel is an object made unreachable on purpose: its cleanup runs
// after the collection that found it, and arms the next one. It holds a
// pointer so that it is never a tiny allocation (whose cleanups may not run).
type sentinel struct{ _ *tuner }

func (t *tuner) arm() {
	runtime.AddCleanup(&sentinel{}, func(t *tuner) { t.collected() }, t)
}

// collected sets the limit for the live heap the last collection found.
func (t *tuner) collected() {
	metrics.Read(t.sample)
	if t.sample[0].Value.Kind() == metrics.KindUint64 {
		if l := NextLimit(t.base, t.sample[0].Value.Uint64()); l != t.last {
			debug.SetMemoryLimit(l)
			t.last = l
		}
	}
	t.arm()
}
