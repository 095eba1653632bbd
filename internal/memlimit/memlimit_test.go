package memlimit

import (
	"bytes"
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

func env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

func TestChoose(t *testing.T) {
	for _, c := range []struct {
		name string
		env  func(string) string
		want Setting
		err  string
	}{
		{"default", env(), Setting{Limit: 128 << 20, Why: "default"}, ""},
		{"tenet limit", env(Env, "256MiB"), Setting{Limit: 256 << 20, Why: Env}, ""},
		{"bytes", env(Env, "100000000"), Setting{Limit: 100000000, Why: Env}, ""},
		{"off", env(Env, "off"), Setting{Why: Env + "=off"}, ""},
		{"GOGC wins", env("GOGC", "400", Env, "1GiB"), Setting{Why: "GOGC"}, ""},
		{"GOGC off wins", env("GOGC", "off"), Setting{Why: "GOGC"}, ""},
		{"GOMEMLIMIT wins", env("GOMEMLIMIT", "2GiB", Env, "bad"), Setting{Why: "GOMEMLIMIT"}, ""},
		{"bad unit", env(Env, "128MB"), Setting{}, `TENET_MEMORY_LIMIT="128MB": not a whole number of bytes with an optional unit B, KiB, MiB, GiB or TiB (a size such as 256MiB, or off)`},
		{"too small", env(Env, "1MiB"), Setting{}, `TENET_MEMORY_LIMIT="1MiB": below the minimum of 16MiB (a size such as 256MiB, or off)`},
		{"too large", env(Env, "9000000TiB"), Setting{}, `TENET_MEMORY_LIMIT="9000000TiB": too large (a size such as 256MiB, or off)`},
		{"too many digits", env(Env, "99999999999999999999"), Setting{}, `TENET_MEMORY_LIMIT="99999999999999999999": too large (a size such as 256MiB, or off)`},
		{"past int64", env(Env, "9223372036854775808B"), Setting{}, `TENET_MEMORY_LIMIT="9223372036854775808B": too large (a size such as 256MiB, or off)`},
		{"signed", env(Env, "+64MiB"), Setting{}, `TENET_MEMORY_LIMIT="+64MiB": not a whole number of bytes with an optional unit B, KiB, MiB, GiB or TiB (a size such as 256MiB, or off)`},
		{"blank", env(Env, " "), Setting{}, `TENET_MEMORY_LIMIT=" ": not a whole number of bytes with an optional unit B, KiB, MiB, GiB or TiB (a size such as 256MiB, or off)`},
	} {
		got, err := Choose(c.env)
		msg := ""
		if err != nil {
			msg = err.Error()
		}
		if got != c.want || msg != c.err {
			t.Errorf("%s: Choose = %+v, %q; want %+v, %q", c.name, got, msg, c.want, c.err)
		}
	}
}

func TestParseSize(t *testing.T) {
	for s, want := range map[string]int64{
		"16MiB": 16 << 20, "16384KiB": 16 << 20, "1GiB": 1 << 30, "2TiB": 2 << 40,
		"16777216": 16 << 20, "16777216B": 16 << 20, "8388607TiB": 8388607 << 40,
	} {
		if got, err := ParseSize(s); got != want || err != nil {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", s, got, err, want)
		}
	}
	for _, s := range []string{"", "MiB", "16777215", "8388608TiB", "1.5GiB", "-1GiB", "1 GiB", "1gib"} {
		if n, err := ParseSize(s); err == nil {
			t.Errorf("ParseSize(%q) = %d, want an error", s, n)
		}
	}
}

func TestNextLimit(t *testing.T) {
	for _, c := range []struct {
		base int64
		live uint64
		want int64
	}{
		{128 << 20, 0, 128 << 20},
		{128 << 20, 40 << 20, 128 << 20},
		{128 << 20, 64 << 20, 128 << 20},
		{128 << 20, 64<<20 + 1, 128<<20 + 2},
		{128 << 20, 300 << 20, 600 << 20},
		{128 << 20, math.MaxInt64/2 + 1, math.MaxInt64},
		{128 << 20, math.MaxUint64, math.MaxInt64},
	} {
		if got := NextLimit(c.base, c.live); got != c.want {
			t.Errorf("NextLimit(%d, %d) = %d, want %d", c.base, c.live, got, c.want)
		}
	}
}

// gcSetting reads the runtime's GOGC and memory limit.
func gcSetting() (gogc int64, limit int64) {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}, {Name: "/gc/gomemlimit:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64()), int64(s[1].Value.Uint64())
}

// TestApply puts a setting in force in this test process (and restores
// Go's defaults after): GOGC off, the limit set, and the limit following a
// live heap above half of it after a collection. (The tuner it starts
// lives on in this test binary; no other test here depends on the limit.)
func TestApply(t *testing.T) {
	oldGC, oldLimit := debug.SetGCPercent(100), debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() { debug.SetGCPercent(oldGC); debug.SetMemoryLimit(oldLimit) })

	Apply(Setting{Why: "GOGC"}) // nothing to apply
	if gogc, limit := gcSetting(); gogc != 100 || limit != math.MaxInt64 {
		t.Fatalf("without a limit: GOGC %d, limit %d; want 100, MaxInt64", gogc, limit)
	}
	Apply(Setting{Limit: 16 << 20, Why: Env})
	if gogc, limit := gcSetting(); gogc != -1 || limit != 16<<20 {
		// The metric reads GOGC=off as -1.
		t.Fatalf("with a limit: GOGC %d, limit %d; want off (-1), %d", gogc, limit, 16<<20)
	}
	// A live heap of 32 MiB, twice the base limit: the limit follows it.
	live := make([][]byte, 32)
	for i := range live {
		live[i] = make([]byte, 1<<20)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		runtime.GC()
		if _, limit := gcSetting(); limit >= 64<<20 {
			break
		}
		if time.Now().After(deadline) {
			_, limit := gcSetting()
			t.Fatalf("limit %d after collections with 32 MiB live, want at least 64 MiB", limit)
		}
		time.Sleep(10 * time.Millisecond) // let the cleanup goroutine run
	}
	runtime.KeepAlive(live)
}

func TestRun(t *testing.T) {
	var stderr bytes.Buffer
	ran := false
	code := Run(env(Env, "12MiB"), &stderr, func() int { ran = true; return 0 })
	if code != 2 || ran || stderr.String() != "tenet: TENET_MEMORY_LIMIT=\"12MiB\": below the minimum of 16MiB (a size such as 256MiB, or off)\n" {
		t.Errorf("Run with a bad limit: code %d, ran %v, stderr %q", code, ran, stderr.String())
	}
	stderr.Reset()
	if code := Run(env(Env, "off"), &stderr, func() int { return 7 }); code != 7 || stderr.Len() != 0 {
		t.Errorf("Run: code %d, stderr %q; want 7 and nothing", code, stderr.String())
	}
}
