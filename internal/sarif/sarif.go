// Package sarif writes SARIF 2.1.0 logs (the OASIS Static Analysis Results
// Interchange Format), the file GitHub code scanning and other tools
// import: the subset of the object model tenet uses, and a deterministic
// writer that keeps a log within what GitHub accepts (Limits).
//
// The types follow the specification's names (sarif-schema-2.1.0.json,
// stored under testdata with its source); optional members are omitted
// when empty. It imports no tenet package: the commands and renderers
// fill a Log from their own results.
package sarif

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
)

// Version and Schema are the log's "version" and "$schema": the OASIS
// standard with its errata.
const (
	Version = "2.1.0"
	Schema  = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)

// Level is a result's or a rule's level.
type Level string

// The levels of SARIF 2.1.0 (§3.27.10) that tenet uses.
const (
	Error   Level = "error"
	Warning Level = "warning"
	Note    Level = "note"
)

// Log is a SARIF log: one or more runs of a tool.
type Log struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []Run  `json:"runs"`
}

// NewLog returns a log of runs with its version and schema set.
func NewLog(runs ...Run) *Log { return &Log{Schema: Schema, Version: Version, Runs: runs} }

// Run is one invocation of a tool and what it found.
type Run struct {
	Tool        Tool           `json:"tool"`
	Invocations []Invocation   `json:"invocations,omitempty"`
	Results     []Result       `json:"results"`
	Properties  *RunProperties `json:"properties,omitempty"`
}

// RunProperties is the run's property bag: tenet.shard on a shard's log
// (tenet eval --shard i/n), so that its results read as that shard's.
type RunProperties struct {
	Shard *Shard `json:"tenet.shard,omitempty"`
}

// Shard is shard Index of Count.
type Shard struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

// Tool names the tool; Driver.Rules describe the results' rules.
type Tool struct {
	Driver Driver `json:"driver"`
}

// Driver is the tool's main component (a toolComponent).
type Driver struct {
	Name           string `json:"name"`
	Version        string `json:"version,omitempty"`
	InformationURI string `json:"informationUri,omitempty"`
	Rules          []Rule `json:"rules,omitempty"`
}

// Rule is a reportingDescriptor: what a ruleId stands for.
type Rule struct {
	ID                   string         `json:"id"`
	Name                 string         `json:"name,omitempty"`
	ShortDescription     *Message       `json:"shortDescription,omitempty"`
	FullDescription      *Message       `json:"fullDescription,omitempty"`
	Help                 *Message       `json:"help,omitempty"`
	HelpURI              string         `json:"helpUri,omitempty"`
	DefaultConfiguration *Configuration `json:"defaultConfiguration,omitempty"`
	Properties           *Properties    `json:"properties,omitempty"`
}

// Configuration is a rule's default configuration.
type Configuration struct {
	Level Level `json:"level"`
}

// Properties is the property bag tenet fills: GitHub reads "tags" and
// "security-severity" (a number in a string, 0.0 to 10.0) of a rule.
type Properties struct {
	Tags             []string `json:"tags,omitempty"`
	SecuritySeverity string   `json:"security-severity,omitempty"`
}

// Message is plain text.
type Message struct {
	Text string `json:"text"`
}

// Text is a Message of s.
func Text(s string) *Message { return &Message{Text: s} }

// Result is one finding.
type Result struct {
	RuleID    string     `json:"ruleId"`
	Level     Level      `json:"level"`
	Message   Message    `json:"message"`
	Locations []Location `json:"locations,omitempty"`
	CodeFlows []CodeFlow `json:"codeFlows,omitempty"`
	// PartialFingerprints identify the result across runs of the tool
	// (§3.27.17): GitHub code scanning keeps one alert per fingerprint,
	// and without one it computes one from the line's text, which merges
	// distinct results at the same line into one alert.
	PartialFingerprints map[string]string `json:"partialFingerprints,omitempty"`
}

// Location is a place in a file, or a logical place (a named thing that
// has no file to point at), with an optional message.
type Location struct {
	PhysicalLocation *PhysicalLocation `json:"physicalLocation,omitempty"`
	LogicalLocations []LogicalLocation `json:"logicalLocations,omitempty"`
	Message          *Message          `json:"message,omitempty"`
}

// LogicalLocation names a thing by its name and fully qualified name
// (§3.33), such as an invariant of a contract.
type LogicalLocation struct {
	Name               string `json:"name,omitempty"`
	FullyQualifiedName string `json:"fullyQualifiedName,omitempty"`
}

// PhysicalLocation is a file and a region of it.
type PhysicalLocation struct {
	ArtifactLocation ArtifactLocation `json:"artifactLocation"`
	Region           *Region          `json:"region,omitempty"`
}

// ArtifactLocation is a file, by URI reference.
type ArtifactLocation struct {
	URI string `json:"uri"`
}

// Region is lines and columns of a file, from 1; zero members are left
// out (a region of a whole line has StartLine only).
type Region struct {
	StartLine   int `json:"startLine,omitempty"`
	StartColumn int `json:"startColumn,omitempty"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

// CodeFlow is a sequence of places that led to a result: for tenet, the
// steps of a run that an invariant's forbid pattern matched.
type CodeFlow struct {
	Message     *Message     `json:"message,omitempty"`
	ThreadFlows []ThreadFlow `json:"threadFlows"`
}

// ThreadFlow is one thread's sequence of locations.
type ThreadFlow struct {
	Locations []ThreadFlowLocation `json:"locations"`
}

// ThreadFlowLocation is one place of a thread flow.
type ThreadFlowLocation struct {
	Location Location `json:"location"`
}

// Invocation says whether the run completed and what the tool noted
// about it (here: what Write left out to stay within Limits).
type Invocation struct {
	ExecutionSuccessful        bool           `json:"executionSuccessful"`
	ToolExecutionNotifications []Notification `json:"toolExecutionNotifications,omitempty"`
}

// Notification is a message of the tool about its own run.
type Notification struct {
	Level   Level   `json:"level"`
	Message Message `json:"message"`
}

// At is the location of file (a path as given, relative to the
// repository root when the command runs there) at line and column (0:
// the whole line; line 0: the whole file).
func At(file string, line, column int) Location {
	pl := &PhysicalLocation{ArtifactLocation: ArtifactLocation{URI: URI(file)}}
	if line > 0 {
		pl.Region = &Region{StartLine: line, StartColumn: column}
	}
	return Location{PhysicalLocation: pl}
}

// URI is a path as a SARIF uri: a relative reference with forward
// slashes, percent-encoded where a URI needs it ("my dir/a b.hcl" →
// "my%20dir/a%20b.hcl"); GitHub resolves it against the repository root.
func URI(path string) string {
	p := filepath.ToSlash(filepath.Clean(path))
	return (&url.URL{Path: p}).String()
}

// Limits bound what a log holds; Write truncates a run to them and says
// so in the run's notifications. The zero value is no limit.
type Limits struct {
	Results             int // per run
	Locations           int // per result
	ThreadFlowLocations int // per thread flow
	Bytes               int // the whole log as written
}

// GitHub is what GitHub code scanning accepts and shows (docs.github.com,
// "SARIF results exceed one or more limits" and "SARIF file is too
// large"): it rejects more than 25,000 results per run and 1,000
// locations or 10,000 thread flow locations per result, and shows only
// the first 5,000 results, 100 locations and 1,000 thread flow
// locations; an upload is at most 10 MB gzip-compressed. tenet keeps to
// what is shown, so that nothing is dropped silently, and to 10 MB before
// compression, which is then certainly within the limit.
var GitHub = Limits{Results: 5000, Locations: 100, ThreadFlowLocations: 1000, Bytes: 10 << 20}

// Write writes log to w as indented JSON, the same log giving the same
// bytes, after truncating each run to lim (a copy: log is not changed).
// Every cut is named in a notification of the run's invocation, once:
// a run cut to lim.Results and then further to fit lim.Bytes has one note
// saying how many of its results were left out in all.
func Write(w io.Writer, log *Log, lim Limits) error {
	b, err := encode(cut(log, lim, -1))
	if err != nil {
		return err
	}
	if lim.Bytes > 0 && len(b) > lim.Bytes {
		if b, err = shrink(log, lim); err != nil {
			return err
		}
	}
	_, err = w.Write(b)
	return err
}

func encode(log *Log) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(log); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// cut is a copy of log with each run truncated to lim and to its first
// keep results (keep < 0: no such bound; shrink sets it to fit lim.Bytes).
func cut(log *Log, lim Limits, keep int) *Log {
	out := *log
	out.Runs = make([]Run, len(log.Runs))
	for i, r := range log.Runs {
		out.Runs[i] = truncate(r, lim, keep)
	}
	return &out
}

// truncate cuts r's lists to lim, and its results to keep (keep < 0: to
// lim.Results alone), noting each cut.
func truncate(r Run, lim Limits, keep int) Run {
	var notes []string
	n, kept := len(r.Results), len(r.Results)
	var why string
	if lim.Results > 0 && kept > lim.Results {
		kept, why = lim.Results, fmt.Sprintf("at most %d per run", lim.Results)
	}
	if keep >= 0 && kept > keep {
		kept, why = keep, fmt.Sprintf("only the first %d: the log would be larger than %d bytes with more", keep, lim.Bytes)
	}
	if kept < n {
		notes = append(notes, fmt.Sprintf("%d of %d results were left out (%s); tenet's text or JSON output lists them all", n-kept, n, why))
		r.Results = r.Results[:kept]
	}
	cutLocs, cutFlow := 0, 0
	results := make([]Result, len(r.Results))
	for i, res := range r.Results {
		if lim.Locations > 0 && len(res.Locations) > lim.Locations {
			cutLocs++
			res.Locations = res.Locations[:lim.Locations]
		}
		if lim.ThreadFlowLocations > 0 {
			flows := make([]CodeFlow, len(res.CodeFlows))
			for j, cf := range res.CodeFlows {
				tfs := make([]ThreadFlow, len(cf.ThreadFlows))
				for k, tf := range cf.ThreadFlows {
					if len(tf.Locations) > lim.ThreadFlowLocations {
						cutFlow++
						tf.Locations = tf.Locations[:lim.ThreadFlowLocations]
					}
					tfs[k] = tf
				}
				cf.ThreadFlows = tfs
				flows[j] = cf
			}
			res.CodeFlows = flows
		}
		results[i] = res
	}
	r.Results = results
	if cutLocs > 0 {
		notes = append(notes, fmt.Sprintf("the locations of %d results were cut to %d each", cutLocs, lim.Locations))
	}
	if cutFlow > 0 {
		notes = append(notes, fmt.Sprintf("%d code flows were cut to their first %d locations", cutFlow, lim.ThreadFlowLocations))
	}
	return note(r, notes...)
}

// note adds notes to r's invocation (one is made when r has none).
func note(r Run, notes ...string) Run {
	if len(notes) == 0 {
		return r
	}
	inv := Invocation{ExecutionSuccessful: true}
	if len(r.Invocations) > 0 {
		inv = r.Invocations[0]
	}
	ns := append([]Notification(nil), inv.ToolExecutionNotifications...)
	for _, n := range notes {
		ns = append(ns, Notification{Level: Warning, Message: Message{Text: n}})
	}
	inv.ToolExecutionNotifications = ns
	r.Invocations = append([]Invocation{inv}, r.Invocations[min(1, len(r.Invocations)):]...)
	return r
}

// shrink writes log truncated to lim with fewer results per run, halving
// them until the log fits in lim.Bytes; a log that does not fit without
// any result is an error.
func shrink(log *Log, lim Limits) ([]byte, error) {
	total := 0
	for _, r := range log.Runs {
		total += len(r.Results)
		if lim.Results > 0 {
			total = total - len(r.Results) + min(len(r.Results), lim.Results)
		}
	}
	// keep is the number of results kept per run: the largest that fits,
	// found by halving (a bisection would give a few more results for
	// more encodings; a log this large is cut anyway).
	for keep := total / 2; ; keep /= 2 {
		b, err := encode(cut(log, lim, keep))
		if err != nil {
			return nil, err
		}
		if len(b) <= lim.Bytes {
			return b, nil
		}
		if keep == 0 {
			return nil, fmt.Errorf("the SARIF log is larger than %d bytes even without results", lim.Bytes)
		}
	}
}
