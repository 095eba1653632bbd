// Package testtier splits tenet's tests into two tiers (docs/architecture.md,
// "Tests"). The default tier is what `go test ./...` runs: every behaviour,
// within the README's time budget on a 2-core machine. The heavy tier adds
// the tests that cost time without adding a kind of check — 100 MB inputs,
// every byte of a bundle flipped, worker-count sweeps over the AgentDojo
// corpus, brute-force cross-checks — and runs only when TENET_HEAVY=1
// (.ci/run sets it, so CI runs both tiers).
//
// The choice is read from the environment at each call, so there is no
// package state; only tests import this package.
package testtier

import (
	"os"
	"testing"
)

// Env is the environment variable that turns the heavy tier on.
const Env = "TENET_HEAVY"

// HeavyOn reports whether the heavy tier runs.
func HeavyOn() bool { return os.Getenv(Env) == "1" }

// Heavy skips t unless the heavy tier runs; why says what makes it heavy.
func Heavy(t testing.TB, why string) {
	t.Helper()
	if !HeavyOn() {
		t.Skipf("heavy tier (%s): set %s=1 to run it, as .ci/run does", why, Env)
	}
}
