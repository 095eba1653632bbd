// Command jsondecode is BenchmarkCLI's yardstick (issue 17): plain
// encoding/json generic decoding of JSONL files, one `var v any;
// json.Unmarshal(line, &v)` per line, as a process, so that tenet eval's
// end-to-end throughput is compared with the cheapest honest reading of the
// same bytes. It prints the lines and bytes it read, so that the benchmark
// can check it read the whole corpus. It lives under testdata so that
// `go build ./...` and `go vet ./...` leave it alone.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
)

func main() {
	var lines, bytes int64
	for _, path := range os.Args[1:] {
		f, err := os.Open(path)
		if err != nil {
			fail(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 64<<20) // tenet's default --max-record-bytes
		for sc.Scan() {
			line := sc.Bytes()
			var v any
			if err := json.Unmarshal(line, &v); err != nil {
				fail(fmt.Errorf("%s:%d: %w", path, lines+1, err))
			}
			lines++
			bytes += int64(len(line)) + 1
		}
		if err := sc.Err(); err != nil {
			fail(err)
		}
		f.Close()
	}
	fmt.Printf("%d lines, %d bytes\n", lines, bytes)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "jsondecode:", err)
	os.Exit(2)
}
