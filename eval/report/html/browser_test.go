package html_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	colorful "github.com/lucasb-eyer/go-colorful"

	"github.com/tenetlang/tenet"
	"github.com/tenetlang/tenet/eval/assemble"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/internal/shared"
)

// The browser tests open the HTML report in headless Chromium, offline,
// driven through the DevTools protocol (chromedp), and check what a reader
// sees on the live page: no two point labels overlap, a listed run's
// <details> opens on a click and shows its transcript excerpt, the banner
// says what failed in its colour, and the legend stays distinct in a
// greyscale rendering of the screenshot. Without Chromium they skip, unless
// TENET_REQUIRE_CHROMIUM=1 (CI: .ci/run installs it), when they fail; with
// -short (the race pass) they skip.

// chromium returns the path of a Chromium binary ($TENET_CHROMIUM first),
// or skips (fails under TENET_REQUIRE_CHROMIUM=1).
func chromium(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		// The race pass (go test -race -short) would take as long again
		// for no more of a check: the browser is a process of its own.
		t.Skip("-short: the browser tests run in the full pass")
	}
	names := []string{"/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome"}
	if p := os.Getenv("TENET_CHROMIUM"); p != "" {
		names = []string{p}
	}
	for _, name := range names {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	msg := fmt.Sprintf("no Chromium (%s): the HTML report is not checked in a browser", strings.Join(names, ", "))
	if os.Getenv("TENET_REQUIRE_CHROMIUM") == "1" {
		t.Fatal(msg + "; TENET_REQUIRE_CHROMIUM=1 requires it (apt-get install chromium)")
	}
	t.Skip(msg)
	return ""
}

// browse opens page (HTML text) in a new headless Chromium 1300 CSS pixels
// wide at scale 1, and returns the tab's context; everything is closed
// when the test ends. Chromium is started with no network use of its own
// (this machine has none), and a minute is the most any test may take.
func browse(t *testing.T, page string) context.Context {
	t.Helper()
	bin := chromium(t)
	file := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(file, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(bin), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1300, 900),
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("force-device-scale-factor", "1"))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(acancel)
	tab, tcancel := chromedp.NewContext(actx)
	t.Cleanup(tcancel)
	if err := chromedp.Do(tab, chromedp.Navigate("file://"+file)); err != nil {
		t.Fatalf("Chromium %s: %v", bin, err)
	}
	// The DOM the browser built has no script (a hostile name stayed
	// text) and draws every plot.
	if n := js[int](t, tab, `document.querySelectorAll('script').length`); n != 0 {
		t.Errorf("the browser's DOM has %d script elements", n)
	}
	if want, n := strings.Count(page, `role="img"`), js[int](t, tab, `document.querySelectorAll('svg[role=img]').length`); n != want || n == 0 {
		t.Errorf("the browser's DOM has %d plots, the page %d", n, want)
	}
	return tab
}

// js evaluates a script on the page.
func js[T any](t *testing.T, tab context.Context, script string) T {
	t.Helper()
	v, err := chromedp.Run(tab, chromedp.Evaluate[T](script))
	if err != nil {
		t.Fatalf("%v\nin: %s", err, script)
	}
	return v
}

// labelBox is a point label's box on the live page, in CSS pixels.
type labelBox struct {
	Text                     string
	Left, Top, Right, Bottom float64
}

// liveLabels returns, per plot of the page, the boxes of its point labels
// (the texts in the labels' ink, plotLabelColor: axis and tick labels are
// black).
func liveLabels(t *testing.T, tab context.Context) [][]labelBox {
	return js[[][]labelBox](t, tab, `[...document.querySelectorAll('svg[role=img]')].map(svg =>
		[...svg.querySelectorAll('text')].filter(e => getComputedStyle(e).fill === 'rgb(27, 31, 36)').map(e => {
			const r = e.getBoundingClientRect();
			return {Text: e.textContent, Left: r.left, Top: r.top, Right: r.right, Bottom: r.bottom};
		}))`)
}

// checkLabelsApart fails when two label boxes of one plot intersect.
func checkLabelsApart(t *testing.T, plots [][]labelBox) int {
	t.Helper()
	n := 0
	for p, boxes := range plots {
		n += len(boxes)
		for i, a := range boxes {
			for _, b := range boxes[i+1:] {
				if a.Left < b.Right && b.Left < a.Right && a.Top < b.Bottom && b.Top < a.Bottom {
					t.Errorf("plot %d: labels %q %v and %q %v overlap on the page", p+1, a.Text, a, b.Text, b)
				}
			}
		}
	}
	return n
}

// openRun clicks open the first listed run of the section id that has an
// excerpt (and the group around it), and returns the excerpt's text as
// the page shows it; it fails unless the excerpt is hidden before the
// clicks and visible after.
func openRun(t *testing.T, tab context.Context, id string) string {
	t.Helper()
	found := js[bool](t, tab, `(() => {
		const run = document.querySelector('#`+id+` details.run dl.excerpt')?.closest('details.run');
		if (!run) return false;
		run.querySelector('summary').id = 'run-under-test';
		const group = run.parentElement.closest('details');
		if (group) group.querySelector('summary').id = 'group-under-test';
		return true; })()`)
	if !found {
		t.Fatalf("section %s lists no run with an excerpt", id)
	}
	// checkVisibility: a closed <details> keeps its content's boxes
	// (content-visibility: hidden), so sizes would not tell.
	visible := `document.querySelector('#run-under-test').parentElement.querySelector('dl.excerpt').checkVisibility()`
	if js[bool](t, tab, visible) {
		t.Errorf("section %s: the run's excerpt shows before it is opened", id)
	}
	if js[bool](t, tab, `document.querySelector('#group-under-test') !== null && !document.querySelector('#group-under-test').parentElement.open`) {
		if err := chromedp.Do(tab, chromedp.Click(chromedp.ID("group-under-test"))); err != nil {
			t.Fatal(err)
		}
	}
	if err := chromedp.Do(tab, chromedp.Click(chromedp.ID("run-under-test"))); err != nil {
		t.Fatal(err)
	}
	if !js[bool](t, tab, `document.querySelector('#run-under-test').parentElement.open`) || !js[bool](t, tab, visible) {
		t.Fatalf("section %s: a click on the run does not open its excerpt", id)
	}
	return js[string](t, tab, `document.querySelector('#run-under-test').parentElement.querySelector('dl.excerpt').innerText`)
}

// banner returns the status banner's class and headline.
func banner(t *testing.T, tab context.Context) (class, text string) {
	return js[string](t, tab, `document.querySelector('#status').className`), js[string](t, tab, `document.querySelector('#status h2').innerText`)
}

// swatch is a legend entry's marker on the page.
type swatch struct {
	N         string
	Marker    string
	X, Y      float64 // its centre, in page pixels
	Grey      float64 // its L* in the greyscale screenshot
	Condition string
}

// checkGreyscale takes a full-page screenshot, writes it and its greyscale
// conversion (L* of each pixel's relative luminance) to dir, and checks in
// the greyscale image that two legend swatches with the same marker differ
// in grey by at least 10 L* (the palette's levels are 16 apart; the
// margin is for anti-aliasing and the screenshot's rounding).
func checkGreyscale(t *testing.T, tab context.Context, dir, name string) {
	t.Helper()
	shot, err := chromedp.Run(tab, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), shot, 0o644); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	grey := image.NewGray(b)
	// L* = f(Y), Y the relative luminance of the linear sRGB channels:
	// go-colorful's conversion, tabled per channel value (a screenshot has
	// millions of pixels).
	var lin [256]float64
	for i := range lin {
		lin[i], _, _ = colorful.Color{R: float64(i) / 255}.LinearRgb()
	}
	lstar := func(c color.Color) float64 {
		r, g, bl, _ := c.RGBA()
		y := 0.2126*lin[r>>8] + 0.7152*lin[g>>8] + 0.0722*lin[bl>>8]
		l, _, _ := colorful.LinearRgb(y, y, y).Lab()
		return 100 * l
	}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			grey.SetGray(x, y, color.Gray{uint8(math.Round(2.55 * lstar(img.At(x, y))))})
		}
	}
	var out bytes.Buffer
	if err := png.Encode(&out, grey); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+"-grey.png"), out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	sws := js[[]swatch](t, tab, `[...document.querySelectorAll('#legend li')].map(li => {
		const s = li.querySelector('svg.mk'), r = s.getBoundingClientRect();
		return {N: li.querySelector('.n').textContent, Marker: s.dataset.marker, X: r.left + r.width/2 + scrollX, Y: r.top + r.height/2 + scrollY,
			Condition: li.textContent};
	})`)
	if len(sws) == 0 {
		t.Fatal("the page has no legend swatches")
	}
	for i := range sws {
		x, y := int(math.Round(sws[i].X)), int(math.Round(sws[i].Y))
		if !image.Pt(x, y).In(b) {
			t.Fatalf("swatch %s at (%d, %d) is outside the %v screenshot", sws[i].N, x, y, b)
		}
		sws[i].Grey = float64(grey.GrayAt(x, y).Y) / 2.55
	}
	for i, a := range sws {
		for _, c := range sws[i+1:] {
			if a.Marker == c.Marker && math.Abs(a.Grey-c.Grey) < 10 {
				t.Errorf("legend %s and %s: same marker %s, greys L* %.1f and %.1f in the greyscale screenshot", a.N, c.N, a.Marker, a.Grey, c.Grey)
			}
		}
	}
}

// TestHTMLQuickstartInBrowser: the quickstart's report (exit 0, one
// deliberate disagreement) in Chromium.
func TestHTMLQuickstartInBrowser(t *testing.T) {
	chromium(t)
	b, err := tenet.Build(filepath.Join("..", "..", "..", "examples", "quickstart"))
	if err != nil {
		t.Fatal(err)
	}
	ev, err := b.Evaluate([]string{filepath.Join("..", "..", "..", "examples", "quickstart", "transcripts.jsonl")}, tenet.EvalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tab := browse(t, renderHTML(t, ev.Document))
	if class, text := banner(t, tab); class != "status ok" || text != "exit 0: passed" {
		t.Errorf("banner %q %q, want class \"status ok\", \"exit 0: passed\"", class, text)
	}
	if n := checkLabelsApart(t, liveLabels(t, tab)); n == 0 {
		t.Error("no point labels on the page")
	}
	// The disagreement expands to the run's calls: the forwarded inbox.
	if ex := openRun(t, tab, "agreement"); !strings.Contains(ex, "send_email(") || !strings.Contains(ex, "eve@evil.example") {
		t.Errorf("the disagreement's excerpt:\n%s", ex)
	}
	checkGreyscale(t, tab, t.TempDir(), "quickstart")
}

// TestHTMLAgentDojoBankingInBrowser: `tenet eval contracts/agentdojo/banking
// ../shared/agentdojo/runs`, its runs written to a runs file and read back
// as `tenet report runs.jsonl --format html` does: the excerpts come from
// the runs file. The shared invariants are violated and no gate is
// declared: an amber banner, not a red one.
func TestHTMLAgentDojoBankingInBrowser(t *testing.T) {
	chromium(t)
	b, err := tenet.Build(filepath.Join("..", "..", "..", "contracts", "agentdojo", "banking"))
	if err != nil {
		t.Fatal(err)
	}
	// The banking run files of the 12 systems: the contract would skip the
	// other suites' files, at three times the reading.
	dirs, err := filepath.Glob(filepath.Join(shared.Dir(t), "agentdojo", "runs", "*", "banking"))
	if err != nil || len(dirs) != 12 {
		t.Fatalf("%d banking run directories (%v), want 12", len(dirs), err)
	}
	ev, err := b.Evaluate(dirs, tenet.EvalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var file bytes.Buffer
	if err := runs.Write(&file, ev.Runs); err != nil {
		t.Fatal(err)
	}
	recs, err := runs.Read("runs.jsonl", &file)
	if err != nil {
		t.Fatal(err)
	}
	d := assemble.Build(assemble.Input{Command: report.CommandReport, Version: "test", Inputs: []string{"runs.jsonl"}}, recs)
	page := renderHTML(t, d)
	checkPage(t, d, page)
	tab := browse(t, page)
	class, text := banner(t, tab)
	if class != "status warn" || !strings.HasPrefix(text, fmt.Sprintf("exit %d: invariants violated — ", d.ExitCode)) {
		t.Errorf("banner %q %q, want class \"status warn\", \"exit %d: invariants violated — …\"", class, text, d.ExitCode)
	}
	// One scatter; its labels name each of the 12 agents once (agents at
	// one point share a label, "2, 6").
	plots := liveLabels(t, tab)
	checkLabelsApart(t, plots)
	named := map[string]int{}
	for _, p := range plots {
		for _, l := range p {
			for _, n := range strings.Split(l.Text, ", ") {
				named[n]++
			}
		}
	}
	for n := 1; n <= 12; n++ {
		if named[fmt.Sprint(n)] != 1 {
			t.Errorf("agent %d is named by %d point labels, want 1 (labels: %v)", n, named[fmt.Sprint(n)], plots)
		}
	}
	if len(named) != 12 {
		t.Errorf("point labels name %d numbers, want 12: %v", len(named), named)
	}
	if ex := openRun(t, tab, "violations"); !strings.Contains(ex, "→ call:") || !strings.Contains(ex, "(") {
		t.Errorf("the violation's excerpt:\n%s", ex)
	}
	dir := t.TempDir()
	if out := os.Getenv("TENET_REPORT_PNG_DIR"); out != "" {
		dir = out
	}
	checkGreyscale(t, tab, dir, "agentdojo-banking")
}
