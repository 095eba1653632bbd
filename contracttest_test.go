package tenet_test

import (
	"testing"

	"github.com/tenetlang/tenet"
)

// TestBundleTest: the slack contract's test blocks all pass (what `tenet
// test contracts/agentdojo/slack` prints), and a bundle read from a file
// carries none.
func TestBundleTest(t *testing.T) {
	b, err := tenet.Build("contracts/agentdojo/slack")
	if err != nil {
		t.Fatal(err)
	}
	d, err := b.Test(tenet.TestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(b.Tests()); n != 132 || len(d.Tests) != 132 || d.ExitCode != 0 {
		t.Errorf("%d test blocks, %d results, exit %d; want 132, 132, 0", n, len(d.Tests), d.ExitCode)
	}
	for _, r := range d.Tests {
		if !r.Passed {
			t.Errorf("test %s failed", r.Name)
		}
	}
	loaded, err := tenet.LoadBundle(b.Bytes())
	if err != nil || len(loaded.Tests()) != 0 {
		t.Errorf("loaded bundle: %v, %d tests; want none", err, len(loaded.Tests()))
	}
}
