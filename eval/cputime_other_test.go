//go:build !unix

package eval

func cpuTime() int64 { return -1 }
