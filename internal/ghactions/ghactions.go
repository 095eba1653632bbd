// Package ghactions writes GitHub Actions workflow commands that annotate
// a file and line of a pull request or a run's summary:
//
//	::error file=contract.tenet.hcl,line=12,col=3,title=[unknown-block]::Unsupported block type
//
// with the escaping the runner undoes (docs.github.com, "Workflow
// commands for GitHub Actions"; the toolkit's escapeData and
// escapeProperty): in the message %, CR and LF become %25, %0D and %0A;
// in a property value also : and , become %3A and %2C. It imports no
// tenet package.
package ghactions

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// Level is the command, and the annotation's kind.
type Level string

// The annotation commands.
const (
	Error   Level = "error"
	Warning Level = "warning"
	Notice  Level = "notice"
)

// Annotation is one workflow command. File is a path as given (the
// runner resolves it against the workspace, the repository root); Line 0
// leaves the file's line out, and File "" the file.
type Annotation struct {
	Level   Level
	File    string
	Line    int
	Column  int
	Title   string
	Message string
}

// Enabled reports whether the process runs in a GitHub Actions job
// (GITHUB_ACTIONS=true, set by the runner), getenv reading the
// environment.
func Enabled(getenv func(string) string) bool { return getenv("GITHUB_ACTIONS") == "true" }

// String is the command line, without its line break.
func (a Annotation) String() string {
	var props []string
	if a.File != "" {
		props = append(props, "file="+Property(filepath.ToSlash(a.File)))
		if a.Line > 0 {
			props = append(props, fmt.Sprintf("line=%d", a.Line))
			if a.Column > 0 {
				props = append(props, fmt.Sprintf("col=%d", a.Column))
			}
		}
	}
	if a.Title != "" {
		props = append(props, "title="+Property(a.Title))
	}
	cmd := "::" + string(a.Level)
	if len(props) > 0 {
		cmd += " " + strings.Join(props, ",")
	}
	return cmd + "::" + Data(a.Message)
}

// Write writes each annotation on a line of its own.
func Write(w io.Writer, as []Annotation) error {
	bw := bufio.NewWriter(w)
	for _, a := range as {
		bw.WriteString(a.String())
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// Data escapes a command's message.
func Data(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// Property escapes a property value.
func Property(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
