package history

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// envWriter makes the test binary a writer process: "PATH COUNT TASKS"
// records COUNT evaluations of 2×TASKS×2 runs in PATH (COUNT 0: until
// killed), printing "recorded ID" after each.
const envWriter = "TENET_HISTORY_TEST_WRITER"

func TestMain(m *testing.M) {
	if spec := os.Getenv(envWriter); spec != "" {
		os.Exit(writer(spec))
	}
	if path := os.Getenv(envOpen); path != "" {
		os.Exit(openChild(path))
	}
	os.Exit(m.Run())
}

// envOpen makes the test binary open PATH with Open (create:DIR: check
// CanCreate of DIR/h.db) and print the error.
const envOpen = "TENET_HISTORY_TEST_OPEN"

// openChild is the child's work under envOpen.
func openChild(path string) int {
	if dir, ok := strings.CutPrefix(path, "create:"); ok {
		if err := CanCreate(filepath.Join(dir, "h.db")); err != nil {
			fmt.Println(err)
			return 1
		}
		fmt.Println("can create")
		return 0
	}
	db, err := Open(path)
	if err != nil {
		fmt.Println(err)
		return 1
	}
	db.Close()
	fmt.Println("opened")
	return 0
}

func writer(spec string) int {
	f := strings.Fields(spec)
	if len(f) != 3 {
		fmt.Fprintln(os.Stderr, "bad", envWriter, spec)
		return 2
	}
	count, _ := strconv.Atoi(f[1])
	tasks, _ := strconv.Atoi(f[2])
	db, err := Open(f[0])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer db.Close()
	e := fixture(fmt.Sprintf("p%d", os.Getpid()), bundleA, []string{"baseline", "guarded"}, tasks)
	for i := 0; count == 0 || i < count; i++ {
		id, err := db.Record(e)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fmt.Printf("recorded %d\n", id)
	}
	return 0
}

// checkComplete opens path and checks every evaluation whole: integrity,
// run counts, and its runs read back.
func checkComplete(t *testing.T, path string, want int) {
	t.Helper()
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Check(); err != nil {
		t.Fatal(err)
	}
	l, err := db.List(Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if want >= 0 && len(l) != want {
		t.Fatalf("%d evaluations recorded, want %d", len(l), want)
	}
	for _, e := range l {
		rs, err := db.Runs(e.ID)
		if err != nil {
			t.Fatal(err)
		}
		ms, err := db.Metrics(e.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(rs) != e.Runs || len(rs) == 0 || len(ms) != 14 || len(e.Conditions) != 2 || len(e.Inputs) != 2 {
			t.Fatalf("evaluation %d incomplete: %d runs (record says %d), %d metrics, %d conditions, %d inputs", e.ID, len(rs), e.Runs, len(ms), len(e.Conditions), len(e.Inputs))
		}
	}
}

func TestConcurrentGoroutines(t *testing.T) {
	_, path := openTemp(t)
	const writers, each = 4, 5
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			db, err := Open(path) // a connection pool of its own, as another process would have
			if err != nil {
				errs <- err
				return
			}
			defer db.Close()
			e := fixture(fmt.Sprintf("g%d", w), bundleA, []string{"baseline", "guarded"}, 20)
			for range each {
				if _, err := db.Record(e); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	checkComplete(t, path, writers*each)
}

func TestConcurrentProcesses(t *testing.T) {
	// A new file: the processes race to create and migrate it too.
	path := filepath.Join(t.TempDir(), "new", "history.db")
	const procs, each = 3, 4
	var cmds []*exec.Cmd
	for range procs {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s %d 20", envWriter, path, each))
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("writer process: %v", err)
		}
	}
	checkComplete(t, path, procs*each)
}

// TestKilledWriter kills a process with SIGKILL while it records large
// evaluations one after another, then checks the database: intact, every
// evaluation it lists whole, none half-written; and it takes new ones.
func TestKilledWriter(t *testing.T) {
	_, path := openTemp(t)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s 0 500", envWriter, path)) // 2,000 runs an evaluation, about 450 KiB of runs lines
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait for two evaluations to be recorded: the third is being
	// written when the signal comes (the writer records without pause).
	buf := make([]byte, 0, 64)
	tmp := make([]byte, 64)
	deadline := time.Now().Add(60 * time.Second)
	for strings.Count(string(buf), "\n") < 2 && time.Now().Before(deadline) {
		n, err := out.Read(tmp)
		buf = append(buf, tmp[:n]...)
		if err != nil {
			break
		}
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if !strings.HasPrefix(string(buf), "recorded 1\nrecorded 2\n") {
		t.Fatalf("the writer said %q before it was killed", buf)
	}
	checkComplete(t, path, -1)
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	l, _ := db.List(Filter{})
	if len(l) < 2 {
		t.Fatalf("%d evaluations after the kill, want the 2 the writer reported at least", len(l))
	}
	if _, err := db.Record(fixture("after", bundleA, []string{"baseline", "guarded"}, 2)); err != nil {
		t.Fatalf("recording after the kill: %v", err)
	}
	checkComplete(t, path, len(l)+1)
}
