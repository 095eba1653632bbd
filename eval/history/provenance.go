package history

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"strings"
	"time"
)

// HashInputs hashes each input (sha256 of its bytes as stored,
// compressed or not), in order. A regular file is read again. A name that
// is no file is given to open, which returns the copy tenet kept of it
// (an inputs.List's Open gives standard input's spooled copy for
// "<stdin>"); nil open, or open failing, is an error naming the input. A
// file that is not regular (a named pipe, /dev/stdin: its bytes were read
// once and are gone) is listed unknown (SHA256 "", Size -1), never as the
// hash of nothing.
func HashInputs(names []string, open func(string) (io.ReadCloser, error)) ([]Input, error) {
	out := make([]Input, 0, len(names))
	for _, name := range names {
		st, err := os.Stat(name)
		var f io.ReadCloser
		switch {
		case err == nil && !st.Mode().IsRegular():
			out = append(out, Input{Path: name, Size: -1})
			continue
		case err == nil:
			f, err = os.Open(name)
		case errors.Is(err, fs.ErrNotExist) && open != nil:
			f, err = open(name)
		}
		if err != nil {
			return nil, fmt.Errorf("hashing input %s: %w", name, err)
		}
		h := sha256.New()
		n, err := io.Copy(h, f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("hashing input %s: %w", name, err)
		}
		out = append(out, Input{Path: name, SHA256: hex.EncodeToString(h.Sum(nil)), Size: n})
	}
	return out, nil
}

// EnvGitHubSHA is the commit a GitHub Actions job runs on: Git's answer
// when the working directory is no git work tree (or git is missing).
const EnvGitHubSHA = "GITHUB_SHA"

// Git returns the commit checked out in the git work tree holding dir, and
// whether that tree has changes (git status --porcelain), when git exists
// and dir is in a work tree; else $GITHUB_SHA (dirty unknown: false); else
// "". A git that hangs is given up after a few seconds.
func Git(dir string) (commit string, dirty bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	run := func(args ...string) (string, bool) {
		cmd := exec.CommandContext(ctx, "git", args...)
		cmd.Dir = dir
		var out bytes.Buffer
		cmd.Stdout = &out
		if cmd.Run() != nil {
			return "", false
		}
		return out.String(), true
	}
	if head, ok := run("rev-parse", "--verify", "-q", "HEAD"); ok && strings.TrimSpace(head) != "" {
		status, ok := run("status", "--porcelain")
		return strings.TrimSpace(head), ok && strings.TrimSpace(status) != ""
	}
	return os.Getenv(EnvGitHubSHA), false
}
