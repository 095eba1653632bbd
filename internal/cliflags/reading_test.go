package cliflags

import (
	"path/filepath"
	"testing"

	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/eval"
)

// TestSourcePlan: --transcript-format replaces the named source's format
// on a copy; the bundle's plan, which eval and explain share, keeps its
// own; no override is the plan itself; an unknown source is p.Source's
// error.
func TestSourcePlan(t *testing.T) {
	built, diags := compiler.BuildDir(filepath.Join("..", "..", "examples", "formats", "contract"), compiler.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	p, err := eval.Load(built.Data)
	if err != nil {
		t.Fatal(err)
	}
	own, err := p.Source("openai-messages")
	if err != nil {
		t.Fatal(err)
	}

	src, err := SourcePlan(p, "openai-messages", "anthropic-messages")
	if err != nil {
		t.Fatal(err)
	}
	if src.Name != "openai-messages" || src.Format != "anthropic-messages" {
		t.Errorf("override: source %q format %q, want openai-messages read as anthropic-messages", src.Name, src.Format)
	}
	if own.Format != "openai-messages" {
		t.Errorf("the bundle's plan was changed: its format is now %q", own.Format)
	}

	if src, err := SourcePlan(p, "openai-messages", ""); err != nil || src != own {
		t.Errorf("no override: got %p (%v), want the bundle's plan %p", src, err, own)
	}

	const want = `contract formats has no source "nope" (its sources: ["agentdojo-run" "anthropic-messages" "inspect" "mcp" "openai-messages" "openai-responses" "otel-genai" "tau-bench" "tenet"])`
	if _, err := SourcePlan(p, "nope", "anthropic-messages"); err == nil || err.Error() != want {
		t.Errorf("unknown source: got %v, want %s", err, want)
	}
}
