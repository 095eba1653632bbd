package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fxamacker/cbor/v2"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval/transcript"
	"github.com/tenetlang/tenet/internal/testtier"
)

// The hostile corpus (testdata/hostile, described in its README and in
// docs/robustness.md) runs tenet, as a separate process, on inputs built to
// break it, and compares what it does with a golden.
//
// Bounds, checked for every case whatever its golden says:
//
//   - time: the command must finish within hostileBound (or the case's
//     "timeout" line). This detects hangs; it is not a performance
//     assertion: the cases take well under a second each on an idle
//     machine, and the bound allows for a loaded one.
//   - memory: peak resident memory at most hostileMaxRSS (Linux), so an
//     input cannot make tenet allocate without bound.
//   - no crash: exit code 0, 1 or 2, no Go panic or runtime fatal error on
//     stderr, at most hostileMaxOutput bytes on stdout and on stderr (an
//     error does not echo a hostile input wholesale).
//   - no debris: no temporary file is left in the working directory.
const (
	hostileBound     = 60 * time.Second
	hostileMaxRSS    = 2 << 30
	hostileMaxOutput = 1 << 20
	hostileMaxGolden = 64 << 10
	hostileDir       = "../../testdata/hostile"
	hostileMinCases  = 50
)

// TestHostile runs every case of testdata/hostile. A case is a directory
// holding a file "case" and the inputs; "want.txtar" is its golden
// (rewritten by go test -run TestHostile -update). Lines of "case":
//
//	# comment                  what the case is about
//	tenet ARGS...              the command, run in a copy of the case directory
//	                           (plus testdata/hostile/_shared) as working directory
//	gen FILE text PART...      generate FILE before running: each PART is a Go
//	                           string literal, or N*"literal" for N copies of it,
//	                           or N#"literal" for N copies with {n} in each
//	                           replaced by its number (0 to N-1), for distinct names
//	gen FILE bundle DIR [OP]   FILE is the bundle of contract DIR (built as tenet
//	                           build does), then OP: truncate N (keep N bytes;
//	                           negative: drop -N), flip N (xor byte N with 0xff;
//	                           negative: from the end), format V (the same
//	                           payload in an envelope of format V), payload
//	                           PART... (the parts, as for text, as the payload,
//	                           with its correct sha256), append PART...,
//	                           utility-expr N (the first task's utility names
//	                           expression N; correctly hashed), swap-checked
//	                           N M (expression N gets expression M's compiled
//	                           form, its text kept; correctly hashed),
//	                           empty-pattern N (pattern N's program matches
//	                           only an empty run, its text kept; correctly
//	                           hashed), or signed [flip N] (signed with hostileSigningKey,
//	                           hostile.pub in _shared; then byte N xored)
//	gen FILE gzip PART...      FILE is the parts (as for text) gzip compressed;
//	gen FILE zstd PART...      zstd compressed; zstd-cut N PART...: zstd
//	                           compressed, the last N bytes dropped
//	gen FILE symlink TARGET    FILE is a symbolic link to TARGET (as given)
//	gen FILE fifo              FILE is a named pipe that nothing writes to: an
//	                           input tenet must refuse without opening it
//	                           (opening it would wait for ever; the case is
//	                           skipped where there are no named pipes)
//	show FILE                  put FILE's content (after the run) in the golden
//	timeout SECONDS            a larger hang bound for this case
//	tier heavy WHY             the case runs only in the heavy tier
//	                           (TENET_HEAVY=1, as .ci/run sets; package testtier)
//	bug TEXT                   a known bug, not fixed yet: while the case breaks
//	                           a bound or its golden, it is skipped with TEXT
//	                           (go test -v shows it); once it passes, it fails,
//	                           so that the line is removed
//
// Arguments are split on spaces; a Go string literal ("...") is one
// argument. Case directories and files are all the data: adding a case is
// adding a directory.
func TestHostile(t *testing.T) {
	if testing.Short() {
		t.Skip("the hostile corpus generates inputs of 100 MB")
	}
	tenet, err := exec.LookPath("tenet") // the test binary, installed by testscript.Main
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(hostileDir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), "_") {
			continue
		}
		n++
		dir := filepath.Join(hostileDir, e.Name())
		// Each case is a separate process in its own directory, so cases
		// run side by side (up to -parallel, GOMAXPROCS by default): the
		// bounds are per process and the time bound is a hang detector.
		t.Run(e.Name(), func(t *testing.T) {
			t.Parallel()
			runHostile(t, tenet, dir)
		})
	}
	if n < hostileMinCases {
		t.Errorf("%d hostile cases, want at least %d", n, hostileMinCases)
	}
}

type hostileCase struct {
	args    []string
	gens    [][]string
	show    []string
	timeout time.Duration
	bug     string
	heavy   string // why the case is in the heavy tier ("" : default tier)
}

func readHostileCase(t *testing.T, dir string) hostileCase {
	data, err := os.ReadFile(filepath.Join(dir, "case"))
	if err != nil {
		t.Fatal(err)
	}
	c := hostileCase{timeout: hostileBound}
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		words, err := splitWords(line)
		if err != nil || len(words) < 2 {
			t.Fatalf("case:%d: %q: %v", i+1, line, err)
		}
		switch words[0] {
		case "tenet":
			c.args = words[1:]
		case "gen":
			c.gens = append(c.gens, words[1:])
		case "show":
			c.show = append(c.show, words[1:]...)
		case "bug":
			c.bug = strings.TrimSpace(strings.TrimPrefix(line, "bug"))
		case "tier":
			if words[1] != "heavy" || len(words) < 3 {
				t.Fatalf("case:%d: want \"tier heavy WHY\", got %q", i+1, line)
			}
			c.heavy = strings.Join(words[2:], " ")
		case "timeout":
			s, err := strconv.Atoi(words[1])
			if err != nil {
				t.Fatalf("case:%d: %v", i+1, err)
			}
			c.timeout = time.Duration(s) * time.Second
		default:
			t.Fatalf("case:%d: unknown line %q", i+1, line)
		}
	}
	if c.args == nil {
		t.Fatal("case: no tenet line")
	}
	return c
}

// splitWords splits a line on spaces; a Go string literal is one word.
func splitWords(line string) ([]string, error) {
	var words []string
	for line = strings.TrimLeft(line, " \t"); line != ""; line = strings.TrimLeft(line, " \t") {
		if i := strings.Index(line, "\""); i >= 0 && !strings.ContainsAny(line[:i], " \t") {
			// A word holding a literal: prefix (like 3*) and the literal.
			lit, err := strconv.QuotedPrefix(line[i:])
			if err != nil {
				return nil, err
			}
			words = append(words, line[:i+len(lit)])
			line = line[i+len(lit):]
			continue
		}
		end := strings.IndexAny(line, " \t")
		if end < 0 {
			end = len(line)
		}
		words = append(words, line[:end])
		line = line[end:]
	}
	return words, nil
}

// unquote returns a word's value: a Go string literal unquoted, anything
// else as is.
func unquote(w string) (string, error) {
	if strings.HasPrefix(w, "\"") {
		return strconv.Unquote(w)
	}
	return w, nil
}

func runHostile(t *testing.T, tenet, dir string) {
	c := readHostileCase(t, dir)
	if c.heavy != "" {
		testtier.Heavy(t, c.heavy)
	}
	work := t.TempDir()
	for _, from := range []string{filepath.Join(hostileDir, "_shared"), dir} {
		if err := copyTree(from, work); err != nil {
			t.Fatal(err)
		}
	}
	os.Remove(filepath.Join(work, "case"))
	os.Remove(filepath.Join(work, "want.txtar"))
	for _, g := range c.gens {
		if err := generate(work, g); errors.Is(err, errors.ErrUnsupported) {
			t.Skipf("gen %s: %v", strings.Join(g, " "), err)
		} else if err != nil {
			t.Fatalf("gen %s: %v", strings.Join(g, " "), err)
		}
	}
	before := listFiles(t, work)
	args := make([]string, len(c.args))
	for i, a := range c.args {
		var err error
		if args[i], err = unquote(a); err != nil {
			t.Fatal(err)
		}
	}

	// Problems with what tenet did are collected: a case marked as a known
	// bug is skipped while it has any, and fails once it has none.
	var problems []string
	fail := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	defer func() {
		switch {
		case c.bug == "":
			for _, p := range problems {
				t.Error(p)
			}
		case len(problems) > 0:
			t.Skipf("KNOWN BUG: %s\n%s", c.bug, strings.Join(problems, "\n"))
		default:
			t.Errorf("the known bug (%s) is fixed: remove the bug line of %s/case and write the golden with -update", c.bug, dir)
		}
	}()

	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, tenet, args...)
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "TERM=dumb")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	elapsed := time.Since(start)
	if ctx.Err() != nil {
		fail("HANG: tenet %s did not finish within the bound of %v", strings.Join(c.args, " "), c.timeout)
		return
	}
	code := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	t.Logf("exit %d in %v", code, elapsed.Round(time.Millisecond))
	if code < 0 || code > 2 {
		fail("CRASH: exit code %d (killed by a signal?), want 0, 1 or 2", code)
	}
	if ps := cmd.ProcessState; ps != nil && runtime.GOOS == "linux" {
		if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
			rss := int64(ru.Maxrss) << 10 // KiB on Linux
			t.Logf("peak RSS %d MiB", rss>>20)
			if rss > hostileMaxRSS {
				fail("MEMORY: peak RSS %d MiB, above the bound of %d MiB", rss>>20, hostileMaxRSS>>20)
			}
		}
	}
	for name, out := range map[string][]byte{"stdout": stdout.Bytes(), "stderr": stderr.Bytes()} {
		if crashRE.Match(out) {
			fail("CRASH: %s shows a Go panic or fatal error:\n%s", name, head(out))
		}
		if len(out) > hostileMaxOutput {
			fail("ECHO: %s has %d bytes, above %d\n%s", name, len(out), hostileMaxOutput, head(out))
		}
	}
	if len(problems) > 0 {
		return // no golden for output that breaks the bounds
	}

	after := listFiles(t, work)
	var written []string
	for _, f := range after {
		if !slicesContains(before, f) {
			written = append(written, f)
			if strings.Contains(filepath.Base(f), ".tmp-") {
				fail("DEBRIS: temporary file %s left behind", f)
			}
		}
	}
	got := &txtar.Archive{Comment: []byte(fmt.Sprintf("exit %d\n", code))}
	add := func(name string, data []byte) {
		data = normalize(data, work)
		if len(data) > 0 && data[len(data)-1] != '\n' {
			data = append(data, "\n[no newline at the end]\n"...)
		}
		got.Files = append(got.Files, txtar.File{Name: name, Data: data})
	}
	add("stdout", stdout.Bytes())
	add("stderr", stderr.Bytes())
	add("written", []byte(strings.Join(append(written, ""), "\n")))
	for _, name := range c.show {
		data, err := os.ReadFile(filepath.Join(work, name))
		if err != nil {
			data = []byte("[" + err.Error() + "]\n")
		}
		add(name, data)
	}
	gotBytes := txtar.Format(got)
	if len(gotBytes) > hostileMaxGolden {
		t.Fatalf("the golden would have %d bytes, above %d: show less", len(gotBytes), hostileMaxGolden)
	}
	golden := filepath.Join(dir, "want.txtar")
	if *updateScripts && c.bug == "" {
		if err := os.WriteFile(golden, gotBytes, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		fail("%v (create it with -update)", err)
		return
	}
	if !bytes.Equal(want, gotBytes) {
		fail("tenet %s: output differs from %s (rewrite with -update)\n--- got:\n%s\n--- want:\n%s",
			strings.Join(c.args, " "), golden, gotBytes, want)
	}
}

// crashRE matches what the Go runtime prints when a program panics or
// dies: tenet must print a clear error instead.
var crashRE = regexp.MustCompile(`(?m)^(panic: |fatal error: |goroutine [0-9]+ \[|runtime: )`)

// idRE matches a bundle id, whole or short (the summary's header gives its
// first 12 hex digits).
var idRE = regexp.MustCompile(`sha256:[0-9a-f]{12}(?:[0-9a-f]{52})?`)

// normalize makes output independent of the machine: the working
// directory reads $WORK, and bundle ids (which change with tenet's and
// cel-go's versions) read sha256:<id>.
func normalize(b []byte, work string) []byte {
	b = bytes.ReplaceAll(b, []byte(work), []byte("$WORK"))
	return idRE.ReplaceAll(b, []byte("sha256:<id>"))
}

func head(b []byte) []byte {
	if len(b) > 2000 {
		return append(b[:2000:2000], "..."...)
	}
	return b
}

func slicesContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// listFiles returns the files under dir, relative and sorted.
func listFiles(t *testing.T, dir string) []string {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

func copyTree(from, to string) error {
	return filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
}

// generate makes one input of a case (see TestHostile).
func generate(work string, g []string) error {
	if len(g) < 2 {
		return errors.New("want FILE KIND ...")
	}
	path := filepath.Join(work, g[0])
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	switch g[1] {
	case "text":
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		w := bufio.NewWriterSize(f, 1<<20)
		if err := writeParts(w, g[2:]); err != nil {
			return err
		}
		if err := w.Flush(); err != nil {
			return err
		}
		return f.Close()
	case "bundle":
		if len(g) < 3 {
			return errors.New("want FILE bundle DIR [OP ARG...]")
		}
		data, err := buildBundle(filepath.Join(work, g[2]))
		if err != nil {
			return err
		}
		if len(g) > 3 {
			if data, err = mutateBundle(data, g[3], g[4:]); err != nil {
				return err
			}
		}
		return os.WriteFile(path, data, 0o644)
	case "fifo":
		return makeFIFO(path)
	case "gzip", "zstd", "zstd-cut":
		return generateCompressed(path, g[1], g[2:])
	case "symlink":
		if len(g) != 3 {
			return errors.New("want FILE symlink TARGET")
		}
		return os.Symlink(g[2], path)
	}
	return fmt.Errorf("unknown generator %q", g[1])
}

// writeParts writes each part: a Go string literal, N*"literal" for N
// copies of it, or N#"literal" for N copies with {n} replaced by the copy's
// number.
func writeParts(w *bufio.Writer, parts []string) error {
	for _, part := range parts {
		n, numbered := 1, false
		if i := strings.IndexAny(part, "*#"); i > 0 && !strings.HasPrefix(part, "\"") && strings.HasPrefix(part[i+1:], "\"") {
			var err error
			if n, err = strconv.Atoi(part[:i]); err != nil {
				return err
			}
			numbered = part[i] == '#'
			part = part[i+1:]
		}
		s, err := strconv.Unquote(part)
		if err != nil {
			return fmt.Errorf("%s: %v", part, err)
		}
		for k := range n {
			if numbered {
				w.WriteString(strings.ReplaceAll(s, "{n}", strconv.Itoa(k)))
				continue
			}
			w.WriteString(s)
		}
	}
	return nil
}

func partsBytes(parts []string) ([]byte, error) {
	var buf bytes.Buffer
	w := bufio.NewWriter(&buf)
	if err := writeParts(w, parts); err != nil {
		return nil, err
	}
	err := w.Flush()
	return buf.Bytes(), err
}

// buildBundle compiles a contract directory into bundle bytes, as tenet
// build does.
func buildBundle(dir string) ([]byte, error) {
	built, diags := compiler.BuildDir(dir, compiler.Options{Formats: transcript.Formats()})
	if diags.HasErrors() {
		return nil, diags
	}
	return built.Data, nil
}

// hostileSigningKey is the key the signed hostile bundles are signed with:
// fixed, so that the cases are reproducible; its public key is
// testdata/hostile/_shared/hostile.pub (TestHostileKeyFile checks it).
func hostileSigningKey() ed25519.PrivateKey {
	seed := sha256.Sum256([]byte("tenet hostile corpus signing key"))
	return ed25519.NewKeyFromSeed(seed[:])
}

// TestHostileKeyFile: _shared/hostile.pub is hostileSigningKey's public key.
func TestHostileKeyFile(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(hostileDir, "_shared", "hostile.pub"))
	if err != nil {
		t.Fatal(err)
	}
	want := bundle.MarshalPublicKey(hostileSigningKey().Public().(ed25519.PublicKey))
	if !bytes.Equal(data, want) {
		t.Fatalf("hostile.pub is\n%s\nwant\n%s", data, want)
	}
}

type hostileEnvelope struct {
	Format  int    `cbor:"1,keyasint"`
	SHA256  []byte `cbor:"2,keyasint"`
	Payload []byte `cbor:"3,keyasint"`
}

// mutateBundle applies a bundle operation of a gen line (see TestHostile).
func mutateBundle(data []byte, op string, args []string) ([]byte, error) {
	rewrap := func(format int, payload []byte) ([]byte, error) {
		sum := sha256.Sum256(payload)
		em, err := cbor.CoreDetEncOptions().EncMode()
		if err != nil {
			return nil, err
		}
		env, err := em.Marshal(hostileEnvelope{Format: format, SHA256: sum[:], Payload: payload})
		return append([]byte(bundle.Magic), env...), err
	}
	var env hostileEnvelope
	if err := cbor.Unmarshal(data[len(bundle.Magic):], &env); err != nil {
		return nil, err
	}
	switch op {
	case "payload":
		p, err := partsBytes(args)
		if err != nil {
			return nil, err
		}
		return rewrap(bundle.FormatVersion, p)
	case "append":
		p, err := partsBytes(args)
		return append(data, p...), err
	case "swap-checked":
		// What an attacker who edits a payload and hashes it again makes:
		// the text (and the source hashes) say one thing, what runs another.
		if len(args) != 2 {
			return nil, errors.New("swap-checked: want two expression indexes")
		}
		n, err1 := strconv.Atoi(args[0])
		m, err2 := strconv.Atoi(args[1])
		if err := errors.Join(err1, err2); err != nil {
			return nil, err
		}
		b, _, err := bundle.Decode(data)
		if err != nil {
			return nil, err
		}
		b.Exprs[n].Checked = b.Exprs[m].Checked
		out, _, err := bundle.Encode(b)
		return out, err
	case "unmetered":
		// An edited payload, hashed again, that claims expression n may
		// run unmetered under bound c (issue 17): what a cost bomb would
		// need to escape the run cost limit.
		if len(args) != 2 {
			return nil, errors.New("unmetered: want an expression index and a bound")
		}
		n, err1 := strconv.Atoi(args[0])
		c, err2 := strconv.ParseUint(args[1], 10, 64)
		if err := errors.Join(err1, err2); err != nil {
			return nil, err
		}
		b, _, err := bundle.Decode(data)
		if err != nil {
			return nil, err
		}
		b.Exprs[n].Unmetered = []uint64{c}
		out, _, err := bundle.Encode(b)
		return out, err
	case "empty-pattern":
		if len(args) != 1 {
			return nil, errors.New("empty-pattern: want a pattern index")
		}
		n, err := strconv.Atoi(args[0])
		if err != nil {
			return nil, err
		}
		b, _, err := bundle.Decode(data)
		if err != nil {
			return nil, err
		}
		b.Plan.Patterns[n].Program = []bundle.Inst{{Op: bundle.OpBol}, {Op: bundle.OpEol}, {Op: bundle.OpMatch}}
		out, _, err := bundle.Encode(b)
		return out, err
	case "signed":
		out, err := bundle.Sign(data, hostileSigningKey())
		if err != nil || len(args) == 0 {
			return out, err
		}
		if len(args) != 2 || args[0] != "flip" {
			return nil, errors.New("signed: want nothing or flip N")
		}
		n, err := strconv.Atoi(args[1])
		if err != nil {
			return nil, err
		}
		if n < 0 {
			n += len(out)
		}
		out[n] ^= 0xff
		return out, nil
	}
	if len(args) != 1 {
		return nil, fmt.Errorf("%s: want one number", op)
	}
	n, err := strconv.Atoi(args[0])
	if err != nil {
		return nil, err
	}
	at := func(n int) int {
		if n < 0 {
			return len(data) + n
		}
		return n
	}
	switch op {
	case "truncate":
		return data[:at(n)], nil
	case "flip":
		out := bytes.Clone(data)
		out[at(n)] ^= 0xff
		return out, nil
	case "format":
		return rewrap(n, env.Payload)
	case "utility-expr":
		// A well-formed, correctly hashed bundle whose first task's
		// utility names expression n.
		b, _, err := bundle.Decode(data)
		if err != nil {
			return nil, err
		}
		b.Plan.Tasks[0].Utility.Expr = n
		out, _, err := bundle.Encode(b)
		return out, err
	}
	return nil, fmt.Errorf("unknown bundle operation %q", op)
}
