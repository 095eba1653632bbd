//go:build linux

package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tenetlang/tenet/internal/shared"
)

// corpusReplicas is how many times BenchmarkCLI's corpus holds the shared
// AgentDojo traces (22.4 MB): five copies, 112 MB, issue 17's corpus.
const corpusReplicas = 5

// coldLaunches is how many processes one op of a cold-start case starts:
// a cold start is tens of milliseconds, so its figures are medians.
const coldLaunches = 9

// profileEnv names the file BenchmarkCLI/profile writes a CPU profile of
// the four-contract eval to; without it that case is skipped.
const profileEnv = "TENET_BENCH_CPUPROFILE"

// BenchmarkCLI is issue 17's end-to-end figure: tenet as a process, the way
// a user runs it, against plain encoding/json generic decoding of the same
// corpus (testdata/jsondecode, also a process), the two run alternately
// within every op so that a ratio compares the two under the same load.
// The corpus is the shared AgentDojo traces written corpusReplicas times
// under new model names (writeCorpus), so every copy is its own condition.
// tenet's command is
//
//	tenet eval contracts/agentdojo CORPUS --unknown=bounds --cases observed --workers 1
//
// with GOMAXPROCS=1 for the one-core cases, its table report to /dev/null.
// Every process gets a fresh user cache directory (XDG_CACHE_HOME, warmed
// before timing) and no GOGC, GOMEMLIMIT or GOMAXPROCS of the caller's.
//
// Cases (one op is one process of each side; run with -benchtime 1x and
// -count N for N rounds):
//   - json: the yardstick alone;
//   - four-source: the four contracts compiled from source (from the cache,
//     when tenet has one), one core; four-nocache: with --no-cache, when
//     tenet has that flag;
//   - banking-source, banking-bundle: the banking contract alone (a single
//     suite: its source selects a sixth of the runs, the others are read
//     and counted as not selected), from source and from a bundle built by
//     tenet build, one core;
//   - workers: --workers 1 then --workers 2 with both cores (GOMAXPROCS
//     unset), reporting the speed-up on wall time;
//   - cold-bundle, cold-source, cold-check: tenet eval banking.tnb on one
//     record, tenet eval contracts/agentdojo on that record, tenet check of
//     the four contracts, coldLaunches processes per op, medians;
//   - profile: with $TENET_BENCH_CPUPROFILE set, one four-contract eval
//     in this process (Main, GOMAXPROCS 1, --workers 1) under a CPU profile
//     written there.
//
// Every process is started through testdata/rusage, which reports its
// wall time, CPU time and peak RSS (see there why not os/exec's own).
// Metrics: cpu-ms/op (user + system, getrusage of the child), wall-ms/op,
// cpu-MB/s and wall-MB/s, peak-RSS-MB (the largest ru_maxrss), and for the
// corpus cases x-json-cpu and x-json-wall: tenet's throughput as a multiple
// of the yardstick's in the same ops (the issue's ≥ 0.8× target), and
// json-cpu-ms/op. docs/performance.md, "End to end (issue 17)", has the
// command and the figures.
func BenchmarkCLI(b *testing.B) {
	traces := filepath.Join(shared.Dir(b), "agentdojo", "traces")
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	tenetBin := goBuild(b, filepath.Join(dir, "tenet"), ".")
	yardBin := goBuild(b, filepath.Join(dir, "jsondecode"), "./testdata/jsondecode")
	launcher := goBuild(b, filepath.Join(dir, "rusage"), "./testdata/rusage")
	report := filepath.Join(dir, "rusage.txt")
	command := func(env []string, exit int, name string, args ...string) proc {
		return proc{launcher: launcher, report: report, name: name, args: args, env: env, codes: []int{exit}}
	}
	corpus := filepath.Join(dir, "corpus")
	files, size := writeCorpus(b, traces, corpus, corpusReplicas)
	one := filepath.Join(dir, "one.jsonl")
	writeOneRecord(b, traces, one)

	contracts := filepath.Join(root, "contracts", "agentdojo")
	suites := []string{"banking", "slack", "travel", "workspace"}
	var suiteDirs []string
	for _, s := range suites {
		suiteDirs = append(suiteDirs, filepath.Join(contracts, s))
	}
	env := childEnv(filepath.Join(dir, "cache"))
	oneCore := append(slices.Clone(env), "GOMAXPROCS=1")
	bundle := filepath.Join(dir, "banking.tnb")
	mustRun(b, env, tenetBin, "build", suiteDirs[0], "-o", bundle)
	help := mustRun(b, env, tenetBin, "eval", "--help")

	// The invariants are violated on these traces: tenet eval exits 1.
	evalCorpus := func(env []string, contract string, extra ...string) proc {
		return command(env, 1, tenetBin, append([]string{"eval", contract, corpus, "--unknown=bounds", "--cases", "observed"}, extra...)...)
	}
	yard := command(oneCore, 0, yardBin, files...)
	four := evalCorpus(oneCore, contracts, "--workers", "1")

	// Each side once before timing: the files in the page cache, the
	// cache warm, and a check that each reads what it should.
	if out := mustRun(b, oneCore, yardBin, files...); out != fmt.Sprintf("%d lines, %d bytes\n", corpusReplicas*countLines(b, traces), size) {
		b.Fatalf("jsondecode read %q", out)
	}
	four.run(b)

	b.Run("json", func(b *testing.B) {
		var y samples
		for b.Loop() {
			y.add(yard.run(b))
		}
		y.report(b, size)
	})
	pair := func(name string, p proc) {
		b.Run(name, func(b *testing.B) {
			var y, t samples
			for b.Loop() {
				b.StopTimer()
				y.add(yard.run(b))
				b.StartTimer()
				t.add(p.run(b))
			}
			t.report(b, size)
			b.ReportMetric(y.cpuMS(), "json-cpu-ms/op")
			b.ReportMetric(y.sumCPU.Seconds()/t.sumCPU.Seconds(), "x-json-cpu")
			b.ReportMetric(y.sumWall.Seconds()/t.sumWall.Seconds(), "x-json-wall")
		})
	}
	pair("four-source", four)
	if strings.Contains(help, "--no-cache") {
		nc := four
		nc.args = append(slices.Clone(four.args), "--no-cache")
		pair("four-nocache", nc)
	}
	pair("banking-source", evalCorpus(oneCore, suiteDirs[0], "--workers", "1"))
	pair("banking-bundle", evalCorpus(oneCore, bundle, "--workers", "1"))

	b.Run("workers", func(b *testing.B) {
		w1, w2 := evalCorpus(env, contracts, "--workers", "1"), evalCorpus(env, contracts, "--workers", "2")
		var s1, s2 samples
		for b.Loop() {
			b.StopTimer()
			s1.add(w1.run(b))
			b.StartTimer()
			s2.add(w2.run(b))
		}
		s2.report(b, size)
		b.ReportMetric(s1.wallMS(), "w1-wall-ms/op")
		b.ReportMetric(s1.cpuMS(), "w1-cpu-ms/op")
		b.ReportMetric(s1.sumWall.Seconds()/s2.sumWall.Seconds(), "x-w1-wall")
	})

	// One record of the banking suite: the contract judges one run
	// (the metrics then refuse for want of a security case: exit 2).
	cold := func(name string, p proc) {
		b.Run(name, func(b *testing.B) {
			p.run(b) // warm: the cache, when tenet has one
			var walls, cpus []float64
			var rss float64
			for b.Loop() {
				for range coldLaunches {
					u := p.run(b)
					walls = append(walls, ms(u.wall))
					cpus = append(cpus, ms(u.cpu))
					rss = max(rss, u.rssMB)
				}
			}
			b.ReportMetric(median(walls), "wall-ms/launch")
			b.ReportMetric(slices.Min(walls), "min-wall-ms/launch")
			b.ReportMetric(median(cpus), "cpu-ms/launch")
			b.ReportMetric(rss, "peak-RSS-MB")
		})
	}
	cold("cold-bundle", command(env, 2, tenetBin, "eval", bundle, one, "--unknown=bounds", "--cases", "observed"))
	cold("cold-source", command(env, 2, tenetBin, "eval", contracts, one, "--unknown=bounds", "--cases", "observed"))
	cold("cold-check", command(env, 0, tenetBin, append([]string{"check"}, suiteDirs...)...))

	b.Run("profile", func(b *testing.B) {
		path := os.Getenv(profileEnv)
		if path == "" {
			b.Skipf("set %s to a file to profile the four-contract eval", profileEnv)
		}
		b.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache"))
		for b.Loop() {
			profileEval(b, path, four.args)
		}
	})
}

// profileEval runs tenet eval with args in this process on one core
// (GOMAXPROCS 1, as the one-core cases) under a CPU profile written to
// path: the same code as the process, without a profiling flag in tenet.
func profileEval(b *testing.B, path string, args []string) {
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	if err := pprof.StartCPUProfile(f); err != nil {
		b.Fatal(err)
	}
	var stderr bytes.Buffer
	code := Main(args, io.Discard, &stderr)
	pprof.StopCPUProfile()
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	if code != exitFailure {
		b.Fatalf("exit %d, want 1; stderr:\n%s", code, stderr.String())
	}
}

// proc is one command BenchmarkCLI times: its binary, arguments,
// environment and the exit codes it may end with, started through the
// rusage launcher (testdata/rusage) at launcher, which writes what the
// process cost to report.
type proc struct {
	launcher, report string
	name             string
	args             []string
	env              []string
	codes            []int
}

// usage is what one process cost.
type usage struct {
	wall, cpu time.Duration
	rssMB     float64
}

// run starts p with its standard output to /dev/null, waits for it and
// reads what it cost from the launcher's report.
func (p proc) run(b testing.TB) usage {
	b.Helper()
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer devnull.Close()
	var stderr bytes.Buffer
	os.Remove(p.report)
	cmd := exec.Command(p.launcher, append([]string{p.report, p.name}, p.args...)...)
	cmd.Env, cmd.Stdout, cmd.Stderr = p.env, devnull, &stderr
	err = cmd.Run()
	if code := cmd.ProcessState.ExitCode(); !slices.Contains(p.codes, code) {
		b.Fatalf("%s %q: exit %d (%v), want %v; stderr:\n%s", p.name, p.args, code, err, p.codes, tail(stderr.String()))
	}
	data, err := os.ReadFile(p.report)
	if err != nil {
		b.Fatal(err)
	}
	var wall, cpu, rssKiB int64
	var code int
	if _, err := fmt.Sscanf(string(data), "%d %d %d %d", &wall, &cpu, &rssKiB, &code); err != nil {
		b.Fatalf("rusage report %q: %v", data, err)
	}
	return usage{wall: time.Duration(wall), cpu: time.Duration(cpu), rssMB: float64(rssKiB) / 1024}
}

// samples sums the usage of a case's processes.
type samples struct {
	n               int
	sumWall, sumCPU time.Duration
	rssMB           float64
}

func (s *samples) add(u usage) {
	s.n++
	s.sumWall += u.wall
	s.sumCPU += u.cpu
	s.rssMB = max(s.rssMB, u.rssMB)
}

func (s *samples) cpuMS() float64  { return ms(s.sumCPU) / float64(s.n) }
func (s *samples) wallMS() float64 { return ms(s.sumWall) / float64(s.n) }

// report reports a corpus case's metrics, size being the corpus's bytes.
func (s *samples) report(b *testing.B, size int64) {
	mb := float64(size) / 1e6 * float64(s.n)
	b.ReportMetric(s.cpuMS(), "cpu-ms/op")
	b.ReportMetric(s.wallMS(), "wall-ms/op")
	b.ReportMetric(mb/s.sumCPU.Seconds(), "cpu-MB/s")
	b.ReportMetric(mb/s.sumWall.Seconds(), "wall-MB/s")
	b.ReportMetric(s.rssMB, "peak-RSS-MB")
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// tail is the end of a long stderr, enough to say why a process failed.
func tail(s string) string {
	if len(s) > 4000 {
		return "…" + s[len(s)-4000:]
	}
	return s
}

// childEnv is this process's environment for the timed processes, without
// the settings that would change what is measured (GOMAXPROCS, GOGC,
// GOMEMLIMIT are tenet's defaults unless a case sets them) and with cache
// as the user cache directory (os.UserCacheDir), so that no cache of the
// user's is read or written.
func childEnv(cache string) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "GOMAXPROCS", "GOGC", "GOMEMLIMIT", "XDG_CACHE_HOME":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "XDG_CACHE_HOME="+cache)
}

// goBuild builds the main package pkg (relative to cmd/tenet) to out.
func goBuild(b testing.TB, out, pkg string) string {
	b.Helper()
	cmd := exec.Command("go", "build", "-o", out, pkg)
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		b.Fatalf("go build %s: %v", pkg, err)
	}
	return out
}

// mustRun runs name with args (exit 0) and returns its standard output.
func mustRun(b testing.TB, env []string, name string, args ...string) string {
	b.Helper()
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(name, args...)
	cmd.Env, cmd.Stdout, cmd.Stderr = env, &stdout, &stderr
	if err := cmd.Run(); err != nil {
		b.Fatalf("%s %q: %v; stderr:\n%s", name, args, err, tail(stderr.String()))
	}
	return stdout.String()
}

// writeCorpus writes the trace files of traces replicas times into dir,
// copy k of FILE.jsonl as FILE-rK.jsonl with every run's model (its
// condition) renamed MODEL-rK, byte for byte otherwise; it returns the
// files written, in path order (the order tenet eval walks dir in), and
// their bytes. A run line is one with "model": in it; it must have
// exactly one.
func writeCorpus(b testing.TB, traces, dir string, replicas int) ([]string, int64) {
	b.Helper()
	srcs, err := filepath.Glob(filepath.Join(traces, "*.jsonl"))
	if err != nil || len(srcs) == 0 {
		b.Fatalf("no traces in %s: %v", traces, err)
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	model := []byte(`"model": "`)
	var files []string
	var size int64
	for k := 1; k <= replicas; k++ {
		suffix := []byte("-r" + strconv.Itoa(k))
		for _, src := range srcs {
			data, err := os.ReadFile(src)
			if err != nil {
				b.Fatal(err)
			}
			var out bytes.Buffer
			for line := range bytes.Lines(data) {
				switch n := bytes.Count(line, model); n {
				case 0: // the header
					out.Write(line)
				case 1:
					i := bytes.Index(line, model) + len(model)
					end := bytes.IndexByte(line[i:], '"')
					if end < 0 {
						b.Fatalf("%s: a model name without its closing quote", src)
					}
					out.Write(line[:i+end])
					out.Write(suffix)
					out.Write(line[i+end:])
				default:
					b.Fatalf("%s: a line with %d model names", src, n)
				}
			}
			name := filepath.Join(dir, strings.TrimSuffix(filepath.Base(src), ".jsonl")+string(suffix)+".jsonl")
			if err := os.WriteFile(name, out.Bytes(), 0o644); err != nil {
				b.Fatal(err)
			}
			files = append(files, name)
			size += int64(out.Len())
		}
	}
	slices.Sort(files)
	return files, size
}

// writeOneRecord writes the header and the first run of the first trace
// file (a banking run) to path.
func writeOneRecord(b testing.TB, traces, path string) {
	b.Helper()
	srcs, _ := filepath.Glob(filepath.Join(traces, "*.jsonl"))
	f, err := os.Open(srcs[0])
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<20)
	var out []byte
	for range 2 {
		line, err := r.ReadBytes('\n')
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, line...)
	}
	if err := os.WriteFile(path, out, 0o644); err != nil {
		b.Fatal(err)
	}
}

// countLines counts the lines of the trace files.
func countLines(b testing.TB, traces string) int {
	b.Helper()
	srcs, _ := filepath.Glob(filepath.Join(traces, "*.jsonl"))
	n := 0
	for _, src := range srcs {
		data, err := os.ReadFile(src)
		if err != nil {
			b.Fatal(err)
		}
		n += bytes.Count(data, []byte("\n"))
	}
	return n
}
