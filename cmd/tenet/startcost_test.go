package main

import (
	"runtime/debug"
	"testing"
)

// TestNoCostlyInitInTestBinary: the script and hostile tests start this
// test binary as tenet about 1,200 times, and each start runs the init of
// every package linked in. A JSON Schema validator's init (compiling its
// meta-schemas) once doubled the CPU of each start; schema checks belong
// in the packages that own the schemas (eval/report, internal/sarif).
func TestNoCostlyInitInTestBinary(t *testing.T) {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		t.Skip("no build information in this binary")
	}
	costly := map[string]string{
		"github.com/santhosh-tekuri/jsonschema/v6": "validate schemas in eval/report or internal/sarif tests",
	}
	for _, d := range bi.Deps {
		if why, bad := costly[d.Path]; bad {
			t.Errorf("cmd/tenet's test binary links %s: %s", d.Path, why)
		}
	}
}
