//go:build !unix

package pipeline_test

func cpuTime() int64 { return -1 }
