//go:build !unix

package main

import "errors"

// makeFIFO: there are no named pipes here; the cases that need one are
// skipped.
func makeFIFO(path string) error { return errors.ErrUnsupported }
