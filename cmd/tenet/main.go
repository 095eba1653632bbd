// Command tenet checks, builds and evaluates agent-evaluation contracts.
//
// Exit codes: 0 ok; 1 gate, test or invariant failure; 2 bad contract, bad
// input or usage. See docs/cli.md.
package main

import (
	"os"
)

func main() { os.Exit(Main(os.Args[1:], os.Stdout, os.Stderr)) }
