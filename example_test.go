package tenet_test

import (
	"fmt"
	"log"

	"github.com/tenetlang/tenet"
)

// Build the quickstart contract, judge its transcripts and read the
// numbers `tenet eval examples/quickstart examples/quickstart/transcripts.jsonl`
// prints.
func Example() {
	b, err := tenet.Build("examples/quickstart")
	if err != nil {
		log.Fatal(err)
	}
	ev, err := b.Evaluate([]string{"examples/quickstart/transcripts.jsonl"}, tenet.EvalOptions{})
	if err != nil {
		log.Fatal(err)
	}
	d := ev.Document
	fmt.Println(b.ID())
	fmt.Printf("%d runs judged\n", d.Runs)
	for _, c := range d.Conditions {
		fmt.Printf("%s: benign utility %s, targeted ASR %s\n", c.Condition, c.BenignUtility, c.TargetedASR)
	}
	for _, g := range d.Gates {
		fmt.Printf("gate %s on %s: %s passed %t\n", g.Gate, g.Condition, g.Requirement, g.Passed)
	}
	fmt.Println("exit code", d.ExitCode)
	// Output:
	// sha256:c602768efefa34758131e510ad2e7290134baa161bab31f4354b244aa39d589b
	// 8 runs judged
	// baseline: benign utility 1.0000 (2/2), targeted ASR 1.0000 (2/2)
	// guarded: benign utility 0.5000 (1/2), targeted ASR 0.0000 (0/2)
	// gate release on quickstart-mail:guarded: metrics.targeted_asr == 0.0 passed true
	// gate release on quickstart-mail:guarded: metrics.benign_utility >= 0.5 passed true
	// exit code 0
}
