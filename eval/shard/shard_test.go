package shard

import (
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/runs"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Shard
	}{{"1/1", Shard{1, 1}}, {"2/3", Shard{2, 3}}, {"3/3", Shard{3, 3}}, {"7/100000", Shard{7, 100000}}} {
		got, err := Parse(c.in)
		if err != nil || got != c.want || got.String() != c.in {
			t.Errorf("Parse(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	for _, c := range []struct{ in, why string }{
		{"0/3", "shard 0 does not exist among 3"},
		{"4/3", "shard 4 does not exist among 3"},
		{"1/0", "the count must be at least 1"},
		{"a/b", `shard index "a" is not a number`},
		{"1/2/3", `shard count "2/3" is not a number`},
		{"2", "no /"},
		{"", "no /"},
		{"-1/3", `shard -1 does not exist (shards count from 1); want i/n with 1 ≤ i ≤ n`},
		{"1/-3", `the count must be at least 1; want i/n`},
		{"+1/3", `shard index "+1" is not a number`},
		{" 1/3", `shard index " 1" is not a number`},
		{"1/100001", "too many shards"},
		{"1/9999999999", `shard count "9999999999" is not a number`},
	} {
		_, err := Parse(c.in)
		if err == nil || !strings.Contains(err.Error(), c.why) || !strings.Contains(err.Error(), "want i/n") {
			t.Errorf("Parse(%q): error %v, want one saying %q", c.in, err, c.why)
		}
	}
}

// TestStable pins the shard of fixed keys: a change of hash, of its
// encoding or of Go's hash/fnv would re-shard runs files already written
// (a merge of shards made by two tenet versions would then miss and
// duplicate runs), and must fail here first.
func TestStable(t *testing.T) {
	keys := []runs.Key{
		{Contract: "banking", Condition: "gpt-4o", Task: "user_task_0", Attempt: 1, Repetition: 1},
		{Contract: "banking", Condition: "gpt-4o", Task: "user_task_0", Goal: "injection_task_0", Attempt: 1, Repetition: 1},
		{Contract: "banking", Condition: "claude", Task: "user_task_1", Goal: "injection_task_2", Attempt: 1, Repetition: 1},
		{Contract: "", Condition: "", Task: "", Goal: ""},
		{Contract: "ab", Condition: "c"},
		{Contract: "a", Condition: "bc"},
	}
	// The first is the first 8 bytes of the SHA-256 of
	// "\x07banking\x06gpt-4o\x0buser_task_0", computed outside Go.
	wantHash := []uint64{0x2a5409e578beb545, 0x2a5409e578beb545, 0x70f947329adbe3, 0x709e80c88487a241, 0xf3c41f61c8b75e97, 0x2b9db82406f7614a}
	want3 := []int{1, 1, 3, 1, 2, 2}
	want7 := []int{2, 2, 4, 6, 3, 5}
	for i, k := range keys {
		if h := Hash(k); h != wantHash[i] {
			t.Errorf("Hash(%v) = %#x, want %#x", k, h, wantHash[i])
		}
		if s := Of(k, 3); s != want3[i] {
			t.Errorf("Of(%v, 3) = %d, want %d", k, s, want3[i])
		}
		if s := Of(k, 7); s != want7[i] {
			t.Errorf("Of(%v, 7) = %d, want %d", k, s, want7[i])
		}
	}
	if Hash(keys[0]) != Hash(keys[1]) {
		t.Error("a task's benign run and its case hash apart")
	}
	if Hash(keys[4]) == Hash(keys[5]) {
		t.Error("parts run into one another: ab|c and a|bc hash alike")
	}
	// The four tasks × conditions of examples/quickstart: a hash whose low
	// bit is the parity of the bytes (FNV-1a) put all of them in one shard
	// of two.
	per := map[int]int{}
	for _, cond := range []string{"baseline", "guarded"} {
		for _, task := range []string{"reply_to_boss", "summarize_inbox"} {
			per[Of(runs.Key{Contract: "quickstart-mail", Condition: cond, Task: task}, 2)]++
		}
	}
	if per[1] != 3 || per[2] != 1 {
		t.Errorf("quickstart's tasks per shard of 2: %v, want 3 and 1", per)
	}
}

// TestCaseStaysTogether: a task's benign runs and security cases, with
// their attempts, repetitions and attacks, are in one shard, whatever the
// count.
func TestCaseStaysTogether(t *testing.T) {
	base := runs.Key{Contract: "banking", Condition: "gpt-4o", Task: "user_task_3", Goal: "injection_task_1", Attempt: 1, Repetition: 1}
	for n := 1; n <= 64; n++ {
		want := Of(base, n)
		for _, k := range []runs.Key{
			{Contract: base.Contract, Condition: base.Condition, Task: base.Task, Goal: base.Goal, Attempt: 5, Repetition: 1},
			{Contract: base.Contract, Condition: base.Condition, Task: base.Task, Goal: base.Goal, Attempt: 1, Repetition: 9},
			{Contract: base.Contract, Condition: base.Condition, Task: base.Task, Goal: base.Goal, Attack: "important_instructions", Attempt: 2, Repetition: 3},
			{Contract: base.Contract, Condition: base.Condition, Task: base.Task, Attempt: 1, Repetition: 1},
			{Contract: base.Contract, Condition: base.Condition, Task: base.Task, Goal: "injection_task_7", Attempt: 1, Repetition: 1},
		} {
			if got := Of(k, n); got != want {
				t.Fatalf("n=%d: %v in shard %d, %v in %d", n, base, want, k, got)
			}
		}
	}
}

// TestSpread: keys spread over every shard, each shard owning its own
// (Owns agrees with Of), the whole owning all.
func TestSpread(t *testing.T) {
	const n, count = 3, 3000
	per := make([]int, n+1)
	for i := range count {
		k := runs.Key{Contract: "c", Condition: "x", Task: "t" + string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + string(rune('a'+i/676))}
		s := Of(k, n)
		per[s]++
		for j := 1; j <= n; j++ {
			if (Shard{j, n}).Owns(k) != (j == s) {
				t.Fatalf("shard %d/%d Owns(%v) disagrees with Of = %d", j, n, k, s)
			}
		}
		if !(Shard{}).Owns(k) || !(Shard{1, 1}).Owns(k) {
			t.Fatal("the whole does not own a key")
		}
	}
	for s := 1; s <= n; s++ {
		if per[s] < count/n*8/10 || per[s] > count/n*12/10 {
			t.Errorf("shard %d has %d of %d keys", s, per[s], count)
		}
	}
}

// TestBase: a profile's run is decided on its base condition, exactly the
// suffix the profile added taken off; without a profile, or with a
// condition the profile did not suffix, the key is unchanged.
func TestBase(t *testing.T) {
	k := runs.Key{Contract: "c", Condition: "a+p", Task: "t"}
	for _, c := range []struct {
		key     runs.Key
		profile string
		want    string
	}{
		{k, "p", "a"},
		{k, "", "a+p"},
		{k, "q", "a+p"},
		{runs.Key{Condition: "+p"}, "p", ""},
		{runs.Key{Condition: "a+p+p"}, "p", "a+p"},
	} {
		if got := Base(c.key, c.profile).Condition; got != c.want {
			t.Errorf("Base(%q, %q): condition %q, want %q", c.key.Condition, c.profile, got, c.want)
		}
	}
	if Of(Base(k, "p"), 7) != Of(runs.Key{Contract: "c", Condition: "a", Task: "t"}, 7) {
		t.Error("a profile's run and its base run hash apart")
	}
}
