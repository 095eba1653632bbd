package taubench

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/tenetlang/tenet/eval/transcript/build"
)

// simulationsDir and resultsFile are the names of tau2's directory
// format: DIR/results.json holds the header (timestamp, info, tasks,
// simulation_index) and DIR/simulations/<id>.json one simulation each.
const (
	simulationsDir = "simulations"
	resultsFile    = "results.json"
)

// siblingHeader returns the {"timestamp", "info"} of the results.json
// beside the simulations directory that holds file, the header a
// simulation of tau2's directory format has in the one-file format, or
// nil when there is none to read: file is not a regular file in a
// directory named simulations (standard input, a name that is not a
// path), or that directory has no results.json beside it. A results.json
// that is there but cannot be read as results is msg, naming it: the
// simulation is then refused rather than read without its header.
//
// Reading a file beside the one given is the exception among the
// readers: a Framer reads its stream. It is bounded as the stream is
// (each of timestamp and info by max) and reads results.json only up to
// where both were found (tau2 writes them first), so a file of many
// simulations costs one short read of the header each.
func siblingHeader(file string, max int) (jsontext.Value, string) {
	dir := filepath.Dir(file)
	if filepath.Base(dir) != simulationsDir {
		return nil, ""
	}
	if st, err := os.Stat(file); err != nil || !st.Mode().IsRegular() {
		return nil, ""
	}
	path := filepath.Join(filepath.Dir(dir), resultsFile)
	st, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ""
	}
	where := fmt.Sprintf("%s (the results.json of tau2's directory format, read for meta.results)", path)
	if err != nil {
		return nil, where + ": " + err.Error()
	}
	if !st.Mode().IsRegular() {
		// A named pipe would block the read.
		return nil, where + ": not a regular file"
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, where + ": " + err.Error()
	}
	defer f.Close()
	h, msg := readHeader(f, max)
	if msg != "" {
		return nil, where + ": " + msg
	}
	return h, ""
}

// readHeader reads the {"timestamp", "info"} of a tau2 results object
// from r, stopping once it has both.
func readHeader(r io.Reader, max int) (jsontext.Value, string) {
	rr := &records{g: &guard{r: r, limit: -1}, max: max, line: 1}
	rr.dec = jsontext.NewDecoder(rr.g)
	if k := rr.peek(); k != '{' {
		if k == 0 {
			return nil, "not JSON (or empty)"
		}
		return nil, fmt.Sprintf("a JSON %s, want a tau2-bench results object", kindName(k))
	}
	if _, err := rr.token(); err != nil {
		return nil, "invalid JSON: " + err.Error()
	}
	header := map[string]jsontext.Value{}
	for len(header) < 2 && rr.peek() != '}' {
		nameTok, err := rr.token()
		if err != nil {
			return nil, "invalid JSON: " + err.Error()
		}
		switch name := nameTok.String(); name {
		case "timestamp", "info":
			v, err := rr.readBounded()
			if errors.Is(err, errTooLong) {
				return nil, fmt.Sprintf("%s: longer than the limit of %d bytes (raise it with --max-record-bytes)", name, max)
			}
			if err != nil {
				return nil, name + ": invalid JSON: " + err.Error()
			}
			h := v.Clone()
			if err := h.Compact(); err != nil {
				return nil, name + ": invalid JSON: " + err.Error()
			}
			header[name] = h
		case "messages", "ticks", "termination_reason", "traj":
			return nil, fmt.Sprintf("has %q: not a tau2-bench results object", name)
		default:
			if err := rr.skip(); errors.Is(err, errTooLong) {
				return nil, fmt.Sprintf("%s: a value longer than the limit of %d bytes (raise it with --max-record-bytes)", name, max)
			} else if err != nil {
				return nil, name + ": invalid JSON: " + err.Error()
			}
		}
	}
	if _, ok := header["info"]; !ok {
		return nil, `no "info" (the agent and user models): not a tau2-bench results object`
	}
	return tau2Header(header), ""
}

// simulationsBeside reports whether file, a results.json of tau2's
// directory format, has the simulations directory beside it: then its
// simulations are read from their files, and it gives no record.
func simulationsBeside(file string) bool {
	if st, err := os.Stat(file); err != nil || !st.Mode().IsRegular() {
		return false
	}
	st, err := os.Stat(filepath.Join(filepath.Dir(file), simulationsDir))
	return err == nil && st.IsDir()
}

// missingSimulations checks the simulation_index of a results.json of
// tau2's directory format (file) against the simulations/ beside it:
// a simulation it lists with no file there would be a run missing
// without a word (tau2 refuses such a directory too), so it is msg,
// naming the first few. A file the index does not list is read all the
// same (it is a run). index nil or null: nothing to check.
func missingSimulations(file string, index jsontext.Value) string {
	if index == nil || index.Kind() == 'n' {
		return ""
	}
	var entries []struct {
		ID *string `json:"id"`
	}
	if err := json.Unmarshal(index, &entries); err != nil {
		return "simulation_index: want a list of {\"id\", ...}: " + err.Error()
	}
	dir := filepath.Join(filepath.Dir(file), simulationsDir)
	files, err := os.ReadDir(dir)
	if err != nil {
		return dir + ": " + err.Error()
	}
	present := make(map[string]bool, len(files))
	for _, f := range files {
		present[f.Name()] = true
	}
	var missing []string
	n := 0
	for i, e := range entries {
		if e.ID == nil {
			return fmt.Sprintf("simulation_index[%d]: id: missing or not a string", i)
		}
		// Compared by name, never opened: an id is not a path.
		if !present[*e.ID+".json"] {
			n++
			if len(missing) < 3 {
				missing = append(missing, strconv.Quote(build.Clip(*e.ID, 100)))
			}
		}
	}
	if n == 0 {
		return ""
	}
	more := ""
	if n > len(missing) {
		more = ", …"
	}
	return fmt.Sprintf("simulation_index lists %d simulation(s) with no file in %s (%s%s): the directory is incomplete, and their runs would be missing", n, dir, strings.Join(missing, ", "), more)
}
