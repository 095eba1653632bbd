package tenet_test

import (
	"bufio"
	"bytes"
	"debug/elf"
	"errors"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"

	"github.com/tenetlang/tenet/internal/buildinfo"
	"github.com/tenetlang/tenet/internal/testtier"
)

// The release's files at the repository root (docs/release.md): the
// GoReleaser configuration, the pre-commit hooks and the container image.
// Their tools (goreleaser, pre-commit, docker) are not run here; what they
// rely on is checked instead, and what tenet does for them is run.

// goreleaserConfig is the part of .goreleaser.yaml the release relies on.
type goreleaserConfig struct {
	Version int `yaml:"version"`
	Builds  []struct {
		ID      string   `yaml:"id"`
		Main    string   `yaml:"main"`
		Binary  string   `yaml:"binary"`
		Env     []string `yaml:"env"`
		Flags   []string `yaml:"flags"`
		Ldflags []string `yaml:"ldflags"`
		Goos    []string `yaml:"goos"`
		Goarch  []string `yaml:"goarch"`
	} `yaml:"builds"`
	Release struct {
		GitHub struct {
			Owner string `yaml:"owner"`
			Name  string `yaml:"name"`
		} `yaml:"github"`
	} `yaml:"release"`
	Archives []struct {
		Formats []string `yaml:"formats"`
		Files   []string `yaml:"files"`
	} `yaml:"archives"`
	Checksum struct {
		NameTemplate string `yaml:"name_template"`
	} `yaml:"checksum"`
}

// linkedFlag is the -X flag that sets the version tenet --version prints.
// Its value may be a template, spaces inside its braces.
var linkedFlag = regexp.MustCompile(`-X ` + regexp.QuoteMeta(buildinfo.LinkedVar) + `=(\S*\{\{.*?\}\}\S*|\S+)`)

func TestGoReleaserConfig(t *testing.T) {
	var c goreleaserConfig
	readYAML(t, ".goreleaser.yaml", &c)
	if c.Version != 2 {
		t.Errorf("version: %d, want 2 (GoReleaser v2's configuration)", c.Version)
	}
	if len(c.Builds) != 1 {
		t.Fatalf("%d builds, want 1 (tenet)", len(c.Builds))
	}
	b := c.Builds[0]
	if b.Main != "./cmd/tenet" || b.Binary != "tenet" {
		t.Errorf("builds[0]: main %q, binary %q; want ./cmd/tenet and tenet", b.Main, b.Binary)
	}
	if !slices.Contains(b.Env, "CGO_ENABLED=0") {
		t.Errorf("builds[0].env %q: no CGO_ENABLED=0 (the binaries must be static)", b.Env)
	}
	if !slices.Contains(b.Flags, "-trimpath") {
		t.Errorf("builds[0].flags %q: no -trimpath", b.Flags)
	}
	ld := strings.Join(b.Ldflags, " ")
	for _, f := range []string{"-s", "-w"} {
		if !slices.Contains(strings.Fields(ld), f) {
			t.Errorf("builds[0].ldflags %q: no %s", ld, f)
		}
	}
	if m := linkedFlag.FindStringSubmatch(ld); m == nil || !strings.HasPrefix(m[1], "v{{") {
		t.Errorf("builds[0].ldflags %q: no -X %s=v{{ … }} (tenet --version would not print the release's version)", ld, buildinfo.LinkedVar)
	}
	for _, want := range []string{"linux", "darwin", "windows"} {
		if !slices.Contains(b.Goos, want) {
			t.Errorf("builds[0].goos %q: no %s", b.Goos, want)
		}
	}
	for _, want := range []string{"amd64", "arm64"} {
		if !slices.Contains(b.Goarch, want) {
			t.Errorf("builds[0].goarch %q: no %s", b.Goarch, want)
		}
	}
	// GoReleaser fails a release on an archive glob that matches nothing
	// (a LICENSE line before there is a license, a renamed doc).
	if len(c.Archives) == 0 {
		t.Fatal("no archives")
	}
	for _, a := range c.Archives {
		for _, glob := range a.Files {
			if m, err := filepath.Glob(filepath.FromSlash(glob)); err != nil || len(m) == 0 {
				t.Errorf("archives files %q matches no file (err %v)", glob, err)
			}
		}
		if !slices.Contains(a.Files, "README.md") {
			t.Errorf("archives files %q: no README.md", a.Files)
		}
	}
	// Named, not taken from the clone's remote: goreleaser check and
	// release fail in a clone without a GitHub remote (a mirror, a CI
	// checkout of another host).
	if gh := c.Release.GitHub; gh.Owner+"/"+gh.Name != "tenetlang/tenet" {
		t.Errorf("release.github: %q/%q, want tenetlang/tenet (the module path's repository)", gh.Owner, gh.Name)
	}
	if c.Checksum.NameTemplate == "" {
		t.Error("checksum.name_template is empty")
	}
}

// TestReleaseBinary builds tenet with .goreleaser.yaml's ldflags (the
// version template given testVersion) and checks what the release relies
// on: the -X path names a variable tenet has (the linker ignores -X of a
// missing one, and every release would print "(devel)"), and the
// pre-commit hooks' entries do their job.
func TestReleaseBinary(t *testing.T) {
	var c goreleaserConfig
	readYAML(t, ".goreleaser.yaml", &c)
	if len(c.Builds) == 0 {
		t.Fatal(".goreleaser.yaml has no build")
	}
	ld := linkedFlag.ReplaceAllString(strings.Join(c.Builds[0].Ldflags, " "), "-X "+buildinfo.LinkedVar+"="+testVersion)
	bin := filepath.Join(t.TempDir(), "tenet"+exe())
	if out, err := exec.Command("go", "build", "-ldflags", ld, "-o", bin, c.Builds[0].Main).CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	t.Run("linked version", func(t *testing.T) {
		out, err := exec.Command(bin, "--version").Output()
		if err != nil {
			t.Fatal(err)
		}
		if got, want := string(out), "tenet "+testVersion+"\n"; got != want {
			t.Errorf("tenet --version of a build with -X %s=%s: %q, want %q", buildinfo.LinkedVar, testVersion, got, want)
		}
	})
	t.Run("pre-commit hooks", func(t *testing.T) { testPreCommitHooks(t, bin) })
}

// testVersion stands for the release's version in the test builds.
const testVersion = "v0.0.0-releasetest"

func exe() string {
	if runtime.GOOS == "windows" {
		return ".exe"
	}
	return ""
}

// TestStaticReleaseBuild (heavy: a second build of every package) builds
// tenet exactly as .goreleaser.yaml does for linux/amd64 and checks that
// the result is what the release promises: static (no ELF interpreter),
// CGO off and -trimpath in its build information, the version printed.
func TestStaticReleaseBuild(t *testing.T) {
	testtier.Heavy(t, "a full CGO_ENABLED=0 -trimpath build")
	var c goreleaserConfig
	readYAML(t, ".goreleaser.yaml", &c)
	b := c.Builds[0]
	bin := filepath.Join(t.TempDir(), "tenet")
	ld := linkedFlag.ReplaceAllString(strings.Join(b.Ldflags, " "), "-X "+buildinfo.LinkedVar+"="+testVersion)
	cmd := exec.Command("go", append(append([]string{"build"}, b.Flags...), "-ldflags", ld, "-o", bin, b.Main)...)
	cmd.Env = append(append(os.Environ(), b.Env...), "GOOS=linux", "GOARCH=amd64")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", cmd, err, out)
	}
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Error("the release binary has an ELF interpreter: it is dynamically linked")
		}
	}
	out, err := exec.Command("go", "version", "-m", bin).Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\tbuild\tCGO_ENABLED=0\n", "\tbuild\t-trimpath=true\n", "\tpath\tgithub.com/tenetlang/tenet/cmd/tenet\n"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("go version -m: no %q in\n%s", want, out)
		}
	}
	if runtime.GOOS == "linux" && runtime.GOARCH == "amd64" {
		if out, err := exec.Command(bin, "--version").Output(); err != nil || string(out) != "tenet "+testVersion+"\n" {
			t.Errorf("tenet --version: %q, %v; want %q", out, err, "tenet "+testVersion+"\n")
		}
	}
}

// hook is an entry of .pre-commit-hooks.yaml.
type hook struct {
	ID            string `yaml:"id"`
	Entry         string `yaml:"entry"`
	Language      string `yaml:"language"`
	Files         string `yaml:"files"`
	PassFilenames *bool  `yaml:"pass_filenames"`
}

// testPreCommitHooks runs each hook's entry as pre-commit does — the entry
// split into words, the first the binary `go install` put on PATH, then
// the matching files, from the repository root — on the shipped examples
// (exit 0) and on copies spoiled for the hook (exit 1 unformatted, 2 not a
// valid contract).
func testPreCommitHooks(t *testing.T, bin string) {
	var hooks []hook
	readYAML(t, ".pre-commit-hooks.yaml", &hooks)
	byID := map[string]hook{}
	for _, h := range hooks {
		byID[h.ID] = h
		if h.Language != "golang" {
			t.Errorf("%s: language %q, want golang (pre-commit installs tenet with go install)", h.ID, h.Language)
		}
		if h.PassFilenames == nil || !*h.PassFilenames {
			t.Errorf("%s: pass_filenames is not true (the entries take the changed files)", h.ID)
		}
		re, err := regexp.Compile(h.Files)
		if err != nil {
			t.Fatalf("%s: files: %v", h.ID, err)
		}
		if !re.MatchString("a/b/contract.tenet.hcl") || re.MatchString("a/b/contract.hcl") || re.MatchString("a/contract.tenet.hcl.orig") {
			t.Errorf("%s: files %q does not select exactly *.tenet.hcl", h.ID, h.Files)
		}
		if w := strings.Fields(h.Entry); len(w) < 2 || w[0] != "tenet" || strings.ContainsAny(h.Entry, `'"\`) {
			t.Errorf("%s: entry %q: want tenet and its arguments, unquoted", h.ID, h.Entry)
		}
	}
	if len(hooks) != 2 || byID["tenet-fmt"].Entry != "tenet fmt -check" || byID["tenet-check"].ID == "" {
		t.Fatalf("hooks %+v: want tenet-fmt (tenet fmt -check) and tenet-check", hooks)
	}
	run := func(h hook, dir string, files []string) (int, string) {
		t.Helper()
		cmd := exec.Command(bin, append(strings.Fields(h.Entry)[1:], files...)...)
		cmd.Dir = dir
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		var ee *exec.ExitError
		switch {
		case err == nil:
			return 0, out.String()
		case errors.As(err, &ee):
			return ee.ExitCode(), out.String()
		}
		t.Fatal(err)
		return 0, ""
	}
	re := regexp.MustCompile(byID["tenet-fmt"].Files)
	var files []string // the examples' contract files, as pre-commit names them: relative, slash-separated
	err := filepath.WalkDir("examples", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && re.MatchString(filepath.ToSlash(p)) {
			files = append(files, filepath.ToSlash(p))
		}
		return err
	})
	if err != nil || len(files) < 3 {
		t.Fatalf("examples: %d contract files, %v", len(files), err)
	}
	for _, h := range hooks {
		if code, out := run(h, ".", files); code != 0 {
			t.Errorf("%s on the examples (%q): exit %d, want 0\n%s", h.ID, files, code, out)
		}
	}

	// A copy of the quickstart, unformatted (one attribute's alignment
	// lost) and then not a valid contract (a task's utility refers to a
	// predicate that does not exist).
	dir := t.TempDir()
	src, err := os.ReadFile("examples/quickstart/contract.tenet.hcl")
	if err != nil {
		t.Fatal(err)
	}
	const name = "mail/contract.tenet.hcl"
	write := func(b []byte) {
		t.Helper()
		if err := os.MkdirAll(filepath.Join(dir, "mail"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(name)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	unformatted := bytes.Replace(src, []byte("\n  utility = "), []byte("\n  utility   =   "), 1)
	if bytes.Equal(unformatted, src) {
		t.Fatal(`the quickstart has no "  utility = " line to spoil`)
	}
	write(unformatted)
	if code, out := run(byID["tenet-fmt"], dir, []string{name}); code != 1 || out != name+"\n" {
		t.Errorf("tenet-fmt on an unformatted copy: exit %d, output %q; want 1 and the file's name", code, out)
	}
	if code, out := run(byID["tenet-check"], dir, []string{name}); code != 0 {
		t.Errorf("tenet-check on an unformatted but valid copy: exit %d, want 0\n%s", code, out)
	}
	invalid := bytes.Replace(src, []byte("pred.sent."), []byte("pred.snet."), 1)
	if bytes.Equal(invalid, src) {
		t.Fatal(`the quickstart has no "pred.sent." to spoil`)
	}
	write(invalid)
	if code, out := run(byID["tenet-check"], dir, []string{name}); code != 2 || !strings.Contains(out, name+":") {
		t.Errorf("tenet-check on an invalid copy: exit %d, want 2 and a diagnostic at %s\n%s", code, name, out)
	}
}

// TestDockerfile checks the container image's definition without docker:
// the builder's Go is go.mod's go line, the binary is built static with the
// release's version variable, the final stage is a static base run as a
// non-root user with tenet as its entry point, and .dockerignore leaves
// out nothing the build reads.
func TestDockerfile(t *testing.T) {
	gomod, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	goLine := regexp.MustCompile(`(?m)^go (\d+\.\d+)(\.\d+)?$`).FindSubmatch(gomod)
	if goLine == nil {
		t.Fatal("go.mod: no go line")
	}
	stages := dockerStages(t, "Dockerfile")
	if len(stages) != 2 {
		t.Fatalf("Dockerfile: %d stages, want 2 (build, final)", len(stages))
	}
	build, final := stages[0], stages[1]
	from := strings.Fields(build[0])
	if want := "golang:" + string(goLine[1]); len(from) < 2 || (from[1] != want && !strings.HasPrefix(from[1], want+"-") && !strings.HasPrefix(from[1], want+".")) {
		t.Errorf("builder %q: want %s (go.mod says go %s)", build[0], want, goLine[1])
	}
	buildText := strings.Join(build, "\n")
	for _, want := range []string{"CGO_ENABLED=0", "-trimpath", "-X " + buildinfo.LinkedVar + "=", "./cmd/tenet"} {
		if !strings.Contains(buildText, want) {
			t.Errorf("build stage: no %q", want)
		}
	}
	base := strings.Fields(final[0])[1]
	if base != "scratch" && !strings.HasPrefix(base, "gcr.io/distroless/static") {
		t.Errorf("final stage FROM %s: want scratch or gcr.io/distroless/static (the binary needs no libc)", base)
	}
	var user, entry string
	for _, l := range final {
		switch w := strings.Fields(l); strings.ToUpper(w[0]) {
		case "USER":
			user = w[1]
		case "ENTRYPOINT":
			entry = strings.TrimSpace(l[len(w[0]):])
		case "RUN":
			t.Errorf("final stage: %q (a static base has no shell)", l)
		}
	}
	if u := strings.Split(user, ":")[0]; u == "" || u == "root" || u == "0" {
		t.Errorf("final stage USER %q: want a non-root user", user)
	}
	if entry != `["tenet"]` {
		t.Errorf(`final stage ENTRYPOINT %s: want ["tenet"]`, entry)
	}

	// Every file go build reads for ./cmd/tenet in this module must be
	// in the build context.
	ignore, err := os.ReadFile(".dockerignore")
	if err != nil {
		t.Fatal(err)
	}
	var patterns []string
	for l := range strings.Lines(string(ignore)) {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			patterns = append(patterns, l)
		}
	}
	out, err := exec.Command("go", "list", "-deps", "-f", `{{if .Module}}{{if .Module.Main}}{{.Dir}}{{range .GoFiles}} {{.}}{{end}}{{range .EmbedFiles}} {{.}}{{end}}{{end}}{{end}}`, "./cmd/tenet").Output()
	if err != nil {
		t.Fatal(err)
	}
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	needed := []string{"go.mod", "go.sum"}
	for l := range strings.Lines(string(out)) {
		w := strings.Fields(l)
		if len(w) == 0 {
			continue
		}
		rel, err := filepath.Rel(root, w[0])
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range w[1:] {
			needed = append(needed, filepath.ToSlash(filepath.Join(rel, f)))
		}
	}
	if len(needed) < 100 {
		t.Fatalf("go list found %d files of ./cmd/tenet in the module", len(needed))
	}
	for _, f := range needed {
		for _, p := range patterns {
			if dockerIgnores(p, f) {
				t.Errorf(".dockerignore %q leaves out %s, which the build reads", p, f)
			}
		}
	}
}

// dockerStages are the instructions of each stage of a Dockerfile (each
// starting with its FROM), continuation lines joined, comments left out.
func dockerStages(t *testing.T, name string) [][]string {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var stages [][]string
	var cur string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if cur == "" && (l == "" || strings.HasPrefix(l, "#")) {
			continue
		}
		if strings.HasSuffix(l, `\`) {
			cur += strings.TrimSuffix(l, `\`) + " "
			continue
		}
		cur += l
		if strings.EqualFold(strings.Fields(cur)[0], "FROM") {
			stages = append(stages, nil)
		} else if len(stages) == 0 {
			t.Fatalf("%s: %q before the first FROM", name, cur)
		}
		stages[len(stages)-1] = append(stages[len(stages)-1], cur)
		cur = ""
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return stages
}

// dockerIgnores reports whether the .dockerignore pattern p excludes the
// slash-separated path f: p matches f or a directory above it, a leading
// **/ at any depth. (Enough for the patterns of .dockerignore: no !.)
func dockerIgnores(p, f string) bool {
	parts := strings.Split(f, "/")
	for i := 1; i <= len(parts); i++ { // f and each directory above it
		prefix := strings.Join(parts[:i], "/")
		if ok, _ := path.Match(p, prefix); ok {
			return true
		}
		if rest, ok := strings.CutPrefix(p, "**/"); ok {
			for j := 0; j < i; j++ {
				if ok, _ := path.Match(rest, strings.Join(parts[j:i], "/")); ok {
					return true
				}
			}
		}
	}
	return false
}

func readYAML(t *testing.T, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}
