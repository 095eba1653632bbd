// Package ci holds the GitHub Actions example of docs/ci.md; its test runs
// the workflow's shell steps here, as a runner would, so the example cannot
// drift from what tenet does.
package ci

import (
	"encoding/json"
	"encoding/xml"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/goccy/go-yaml"
)

// workflow is the part of a GitHub Actions workflow the test reads.
type workflow struct {
	Env  map[string]string `yaml:"env"`
	Jobs map[string]struct {
		Steps []step `yaml:"steps"`
	} `yaml:"jobs"`
}

type step struct {
	Name            string            `yaml:"name"`
	ID              string            `yaml:"id"`
	If              string            `yaml:"if"`
	Uses            string            `yaml:"uses"`
	Run             string            `yaml:"run"`
	With            map[string]string `yaml:"with"`
	ContinueOnError bool              `yaml:"continue-on-error"`
}

// outcome is what the test's runner saw.
type outcome struct {
	failed   bool            // the job failed
	steps    map[string]bool // step name → ran
	evalFail bool            // the step with id eval failed
	logs     string          // every step's output
}

// runWorkflow runs the steps of the workflow's one job like a runner:
// "run" steps in bash with the workflow's env (and overrides), "uses" steps
// as no-ops (checkout, setup-go) or checks of the files they would
// publish. It knows the few "if:" forms the example uses and fails on any
// other, so a new one cannot go untested.
func runWorkflow(t *testing.T, env map[string]string) outcome {
	t.Helper()
	data, err := os.ReadFile("github-actions.yml")
	if err != nil {
		t.Fatal(err)
	}
	var wf workflow
	if err := yaml.Unmarshal(data, &wf); err != nil {
		t.Fatal(err)
	}
	if len(wf.Jobs) != 1 {
		t.Fatalf("the example has %d jobs, want 1", len(wf.Jobs))
	}
	// A compile cache of the test's own, not the user's.
	vars := append(os.Environ(), "TENET_CACHE_DIR="+filepath.Join(t.TempDir(), "cache"))
	for k, v := range wf.Env {
		if _, over := env[k]; !over {
			vars = append(vars, k+"="+v)
		}
	}
	for k, v := range env {
		vars = append(vars, k+"="+v)
	}
	if _, err := exec.LookPath("go"); err != nil {
		vars = append(vars, "PATH="+filepath.Join(runtime.GOROOT(), "bin")+string(os.PathListSeparator)+os.Getenv("PATH"))
	}
	out := outcome{steps: map[string]bool{}}
	evalOutcome := "skipped"
	builds := false
	for _, job := range wf.Jobs {
		for _, s := range job.Steps {
			name := s.Name
			if name == "" {
				name = s.Uses
			}
			run := false
			switch s.If {
			case "":
				run = !out.failed
			case "always()":
				run = true
			case "always() && steps.eval.outcome != 'skipped'":
				run = evalOutcome != "skipped"
			case "steps.eval.outcome == 'failure'":
				run = !out.failed && evalOutcome == "failure"
			default:
				t.Fatalf("step %q: the test does not know if: %q; teach runWorkflow", name, s.If)
			}
			if !run {
				continue
			}
			out.steps[name] = true
			ok := true
			if s.Run != "" {
				var b []byte
				var err error
				if s.Run == installStep {
					b, err = installed.into(lastValue(vars, "RUNNER_TEMP"), vars)
					builds = true
				} else {
					cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", s.Run)
					cmd.Dir = "../.."
					cmd.Env = vars
					b, err = cmd.CombinedOutput()
				}
				out.logs += "## " + name + "\n" + string(b)
				var ee *exec.ExitError
				if err != nil && !errors.As(err, &ee) {
					t.Fatalf("step %q: %v", name, err)
				}
				ok = err == nil
			} else {
				checkUses(t, s, env)
			}
			if s.ID == "eval" {
				evalOutcome = map[bool]string{true: "success", false: "failure"}[ok]
			}
			if !ok && !s.ContinueOnError {
				out.failed = true
			}
		}
	}
	if !builds {
		t.Errorf("no step of the workflow runs %s: update installStep", installStep)
	}
	out.evalFail = evalOutcome == "failure"
	return out
}

// lastValue is the value of the variable name in vars, the last one given.
func lastValue(vars []string, name string) string {
	v := ""
	for _, kv := range vars {
		if k, val, ok := strings.Cut(kv, "="); ok && k == name {
			v = val
		}
	}
	return v
}

func TestMain(m *testing.M) {
	code := m.Run()
	if installed.dir != "" {
		os.RemoveAll(installed.dir)
	}
	os.Exit(code)
}

// installStep is the workflow's step that builds tenet.
const installStep = `go build -o "$RUNNER_TEMP/tenet" ./cmd/tenet`

// installed runs installStep once for the package's tests and copies its
// binary into each job's RUNNER_TEMP: every job would link the same binary
// from the same checkout, and each link of tenet costs seconds of CPU.
// Package state, but only this test package's.
var installed install

type install struct {
	once sync.Once
	dir  string // the RUNNER_TEMP of the one build
	out  []byte // its output
	err  error
}

// into runs the build the first time, with the first job's environment
// (its RUNNER_TEMP pointing at a directory of the package's own), and
// copies the binary to runnerTemp.
func (i *install) into(runnerTemp string, vars []string) ([]byte, error) {
	i.once.Do(func() {
		if i.dir, i.err = os.MkdirTemp("", "tenet-ci-install-"); i.err != nil {
			return
		}
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", installStep)
		cmd.Dir = "../.."
		cmd.Env = append(slices.Clone(vars), "RUNNER_TEMP="+i.dir)
		i.out, i.err = cmd.CombinedOutput()
	})
	if i.err != nil {
		return i.out, i.err
	}
	data, err := os.ReadFile(filepath.Join(i.dir, "tenet"))
	if err != nil {
		return i.out, err
	}
	return i.out, os.WriteFile(filepath.Join(runnerTemp, "tenet"), data, 0o755)
}

// checkUses checks what a "uses" step would publish exists.
func checkUses(t *testing.T, s step, env map[string]string) {
	t.Helper()
	switch {
	case strings.HasPrefix(s.Uses, "actions/checkout@"), strings.HasPrefix(s.Uses, "actions/setup-go@"):
	case strings.HasPrefix(s.Uses, "actions/upload-artifact@"):
		for _, f := range []string{"bundle", "runs.jsonl", "junit.xml", "report.html"} {
			if _, err := os.Stat(filepath.Join(env["OUT"], f)); err != nil {
				t.Errorf("upload-artifact: %v", err)
			}
		}
	case strings.HasPrefix(s.Uses, "github/codeql-action/upload-sarif@"):
		file := strings.Replace(s.With["sarif_file"], "${{ env.OUT }}", env["OUT"], 1)
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatalf("upload-sarif: %v", err)
		}
		var log struct {
			Version string `json:"version"`
		}
		if err := json.Unmarshal(data, &log); err != nil || log.Version != "2.1.0" {
			t.Errorf("upload-sarif: %s is not a SARIF 2.1.0 log (%v)", file, err)
		}
		if s.With["category"] == "" {
			t.Errorf("upload-sarif of %s: no category (two uploads of one tool need one each)", file)
		}
	case strings.HasPrefix(s.Uses, "mikepenz/action-junit-report@"):
		if s.With["report_paths"] != "${{ env.OUT }}/junit.xml" {
			t.Errorf("junit report_paths = %q", s.With["report_paths"])
		}
	default:
		t.Fatalf("the test does not know the action %s", s.Uses)
	}
}

// junitCounts returns the tests and failures attributes of junit.xml's root.
func junitCounts(t *testing.T, path string) (tests, failures string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var root struct {
		Tests    string `xml:"tests,attr"`
		Failures string `xml:"failures,attr"`
	}
	if err := xml.Unmarshal(data, &root); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return root.Tests, root.Failures
}

func newEnv(t *testing.T) map[string]string {
	out := t.TempDir()
	return map[string]string{
		"OUT":                 out,
		"RUNNER_TEMP":         t.TempDir(),
		"GITHUB_STEP_SUMMARY": filepath.Join(out, "summary.md"),
	}
}

// TestWorkflowPasses runs the example on the quickstart, whose gate holds:
// every step runs, the job passes, and the reports are published.
func TestWorkflowPasses(t *testing.T) {
	env := newEnv(t)
	o := runWorkflow(t, env)
	if o.failed || o.evalFail {
		t.Fatalf("the job failed:\n%s", o.logs)
	}
	if o.steps["Fail on gates"] {
		t.Errorf("Fail on gates ran on a passing evaluation")
	}
	if tests, failures := junitCounts(t, filepath.Join(env["OUT"], "junit.xml")); tests != "4" || failures != "0" {
		t.Errorf("junit.xml: tests=%s failures=%s, want 4 (2 conditions' metrics, 2 gate requirements), 0 failures", tests, failures)
	}
	summary, err := os.ReadFile(env["GITHUB_STEP_SUMMARY"])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(summary), "metrics.targeted_asr == 0.0") {
		t.Errorf("the step summary does not show the gate:\n%s", summary)
	}
	// Nothing to report: both SARIF logs have no result.
	for _, f := range []string{"check.sarif", "eval.sarif"} {
		if data, err := os.ReadFile(filepath.Join(env["OUT"], f)); err != nil || !strings.Contains(string(data), `"results": []`) {
			t.Errorf("%s: want a log without results (%v):\n%s", f, err, data)
		}
	}
}

// TestWorkflowFailsOnGate gates the baseline too: its targeted ASR is 1, so
// the job fails, after the summary, JUnit and HTML reports were published,
// each naming the failed requirement.
func TestWorkflowFailsOnGate(t *testing.T) {
	contract := t.TempDir()
	for _, f := range []string{"contract.tenet.hcl"} {
		data, err := os.ReadFile(filepath.Join("../quickstart", f))
		if err != nil {
			t.Fatal(err)
		}
		s := strings.Replace(string(data), `conditions = ["guarded"]`, `conditions = ["baseline", "guarded"]`, 1)
		if s == string(data) {
			t.Fatal("the quickstart's gate no longer reads conditions = [\"guarded\"]")
		}
		if err := os.WriteFile(filepath.Join(contract, f), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := newEnv(t)
	env["CONTRACT"] = contract
	o := runWorkflow(t, env)
	if !o.failed || !o.evalFail || !o.steps["Fail on gates"] {
		t.Fatalf("want the eval step and the job to fail (failed=%v eval=%v):\n%s", o.failed, o.evalFail, o.logs)
	}
	if tests, failures := junitCounts(t, filepath.Join(env["OUT"], "junit.xml")); tests != "6" || failures != "1" {
		t.Errorf("junit.xml: tests=%s failures=%s, want 6 (2 conditions' metrics, 4 gate requirements), 1 failure", tests, failures)
	}
	const failure = "gate release failed for quickstart-mail:baseline: metrics.targeted_asr == 0.0: is false (targeted_asr = 1.0000)"
	if !strings.Contains(o.logs, failure) {
		t.Errorf("the log does not name the failed requirement %q:\n%s", failure, o.logs)
	}
	// The SARIF alert points at the gate's line in the contract.
	if data, err := os.ReadFile(filepath.Join(env["OUT"], "eval.sarif")); err != nil || !strings.Contains(string(data), `"uri": "`+filepath.ToSlash(filepath.Join(contract, "contract.tenet.hcl"))+`"`) {
		t.Errorf("eval.sarif does not point at the contract (%v):\n%s", err, data)
	}
	for _, f := range []string{"summary.md", "report.html", "junit.xml", "eval.sarif"} {
		data, err := os.ReadFile(filepath.Join(env["OUT"], f))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), "targeted_asr == 0.0") {
			t.Errorf("%s does not name the failed requirement", f)
		}
	}
}

// TestWorkflowDirectoryOfContracts runs the example with CONTRACT a
// directory of two contract directories (the quickstart, and a copy under
// another name): the build step writes one bundle per contract into the
// directory its -o names, and every later step reads that directory of
// bundles as it reads one bundle.
func TestWorkflowDirectoryOfContracts(t *testing.T) {
	contracts := t.TempDir()
	data, err := os.ReadFile("../quickstart/contract.tenet.hcl")
	if err != nil {
		t.Fatal(err)
	}
	copyName := strings.Replace(string(data), `contract "quickstart-mail"`, `contract "quickstart-copy"`, 1)
	if copyName == string(data) {
		t.Fatal(`the quickstart no longer reads contract "quickstart-mail"`)
	}
	for dir, s := range map[string]string{"mail": string(data), "copy": copyName} {
		if err := os.MkdirAll(filepath.Join(contracts, dir), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(contracts, dir, "contract.tenet.hcl"), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := newEnv(t)
	env["CONTRACT"] = contracts
	o := runWorkflow(t, env)
	if o.failed || o.evalFail {
		t.Fatalf("the job failed:\n%s", o.logs)
	}
	for _, b := range []string{"quickstart-copy.tnb", "quickstart-mail.tnb"} {
		if _, err := os.Stat(filepath.Join(env["OUT"], "bundle", b)); err != nil {
			t.Errorf("the build step wrote no %s: %v", b, err)
		}
	}
	if tests, failures := junitCounts(t, filepath.Join(env["OUT"], "junit.xml")); tests != "8" || failures != "0" {
		t.Errorf("junit.xml: tests=%s failures=%s, want 8 (4 per contract), 0 failures", tests, failures)
	}
}
