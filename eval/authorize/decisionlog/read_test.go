package decisionlog_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tenetlang/tenet/eval/authorize"
	"github.com/tenetlang/tenet/eval/authorize/decisionlog"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/internal/evaltest"
)

const bundleID = "sha256:3a8660945cb9a6fb2af8668d5a8b0b0842e03a21c9c23d45dcc6b5c1cf8123cf"

// logOf decides calls (session, call JSON) with the seed fixtures' grant
// "host" and writes them as a log; a call "bad" is a line that is not one.
func logOf(t *testing.T, calls [][2]string) []byte {
	t.Helper()
	p := evaltest.Program(t, "../../../examples/seed-fixtures")
	a := authorize.New(p.Bundle, p.ID)
	var buf bytes.Buffer
	w := decisionlog.NewWriter(&buf, func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) })
	seq := map[string]int{}
	for _, sc := range calls {
		e := decisionlog.Entry{Origin: decisionlog.FromServer, Bundle: a.Bundle(), Contract: a.Contract(), Condition: "live", Grant: "host", Session: sc[0], Seq: 1}
		if sc[0] != "" {
			seq[sc[0]]++
			e.Seq = seq[sc[0]]
		}
		if c, _, err := authorize.ReadCall([]byte(sc[1])); err != nil {
			e.Error = err.Error()
		} else {
			d, err := a.Authorize(c, "host")
			if err != nil {
				t.Fatal(err)
			}
			e.Call, e.Decision, e.Allowed = decisionlog.CallOf(c), &d, d.Allowed
		}
		if err := w.Write(e); err != nil {
			t.Fatal(err)
		}
	}
	return buf.Bytes()
}

func TestRecords(t *testing.T) {
	log := logOf(t, [][2]string{
		{"s1", `{"name":"read_fixture","arguments":{"id":"F1"}}`},
		{"", `{"name":"delete_fixture","arguments":{}}`},
		{"s1", `{"name":"update_fixture","arguments":{"id":"F1","value":1,"note":{"name":"read_fixture","arguments":{"id":"F2"}}}}`},
		{"s1", `not a call`},
		{"", `{"name":"read_fixture","arguments":{"id":"F1"}}`},
		{"s1", `{"name":"read_fixture","arguments":{"id":"F2"}}`},
	})
	entries, err := decisionlog.Read(bytes.NewReader(log), "log.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 6 || entries[3].Error == "" || entries[3].Decision != nil {
		t.Fatalf("entries: %+v", entries)
	}
	recs, err := decisionlog.Records(entries)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	// s1's line 4 decided nothing: its utility's reason counts it.
	utility := []runs.Label{
		runs.Unknown(decisionlog.NoOutcome + "; 1 line of this run not decided (an entry with an error and no decision, first at line 4): its calls are not in the audit"),
		runs.Unknown(decisionlog.NoOutcome),
	}
	for i, r := range recs {
		if err := r.Validate(); err != nil {
			t.Errorf("run %s: %v", r.Key, err)
		}
		if r.Utility != utility[min(i, 1)] || r.Bundle != bundleID || r.Grant != "host" {
			t.Errorf("run %s: utility %+v bundle %s grant %s", r.Key, r.Utility, r.Bundle, r.Grant)
		}
		var b strings.Builder
		b.WriteString(r.Key.String() + ":")
		for _, a := range r.Audit {
			b.WriteString(" " + jsonOf(t, a))
		}
		lines = append(lines, b.String())
	}
	// The session's calls numbered across its entries (the line that is
	// not a call adds none), nested calls after the calls of their entry,
	// audited first; the calls outside sessions one run of their grant.
	want := []string{
		`seed-fixtures:live/s1: {"Call":0,"Tool":"read_fixture","Decision":"authorized","Detail":"","Parent":-1,"Hazard":false,"Mismatch":""} {"Call":2,"Tool":"read_fixture","Decision":"missing_resource_capability","Detail":"grant \"host\" does not allow (read, F2)","Parent":1,"Hazard":true,"Mismatch":""} {"Call":1,"Tool":"update_fixture","Decision":"schema_types","Detail":"argument note is a nested call object, declared string","Parent":-1,"Hazard":false,"Mismatch":""} {"Call":3,"Tool":"read_fixture","Decision":"missing_resource_capability","Detail":"grant \"host\" does not allow (read, F2)","Parent":-1,"Hazard":false,"Mismatch":""}`,
		`seed-fixtures:live/no-session.host: {"Call":0,"Tool":"delete_fixture","Decision":"unregistered_tool","Detail":"tool \"delete_fixture\" is not declared","Parent":-1,"Hazard":false,"Mismatch":""} {"Call":1,"Tool":"read_fixture","Decision":"authorized","Detail":"","Parent":-1,"Hazard":false,"Mismatch":""}`,
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("runs:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

func jsonOf(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestRecordsSessionOrder: a session's calls are numbered in seq order,
// whatever order concurrent deciders wrote them in; a seq given twice (two
// sessions of one name) is refused.
func TestRecordsSessionOrder(t *testing.T) {
	log := logOf(t, [][2]string{
		{"s", `{"name":"read_fixture","arguments":{"id":"F1"}}`},
		{"s", `{"name":"delete_fixture","arguments":{}}`},
	})
	entries, err := decisionlog.Read(bytes.NewReader(log), "log.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	entries[0], entries[1] = entries[1], entries[0]
	recs, err := decisionlog.Records(entries)
	if err != nil {
		t.Fatal(err)
	}
	if a := recs[0].Audit; len(a) != 2 || a[0].Tool != "read_fixture" || a[0].Call != 0 || a[1].Tool != "delete_fixture" || a[1].Call != 1 {
		t.Errorf("audit %+v", a)
	}
	entries[1].Seq = 2
	if _, err := decisionlog.Records(entries); err == nil || err.Error() != `line 2: session "s": seq 2 again (first at line 1): two sessions of one name and instance in one log?` {
		t.Errorf("seq twice: %v", err)
	}
	// One session under two grants: two runs of one key.
	entries[1].Seq, entries[1].Grant = 1, "admin"
	if _, err := decisionlog.Records(entries); err == nil || !strings.HasPrefix(err.Error(), `line 2: run seed-fixtures:live/s: its calls were decided by bundle `+bundleID+` under grant "admin", and the calls of the run at line 1 by another bundle or grant`) {
		t.Errorf("two grants: %v", err)
	}
}

// TestRecordsInstances: a session name used again under another
// instance is another run — the first keeps the name, the next are
// NAME#2, NAME#3 by first appearance — and a log whose one name has one
// instance names the run as the session; the strict reader accepts the
// member.
func TestRecordsInstances(t *testing.T) {
	line := func(session, instance string, seq int, tool string) string {
		return fmt.Sprintf(`{"log":"tenet-decisions/1","time":"2026-12-02T15:00:00Z","origin":"serve","bundle":"b","contract":"c","condition":"live","grant":"g","session":%q,"instance":%q,"seq":%d,"call":{"tool":%q,"arguments":{}},"allowed":true,"decision":{"allowed":true,"tool":%q,"decision":"authorized"}}`, session, instance, seq, tool, tool)
	}
	log := strings.Join([]string{
		line("s", "t0/1", 1, "a"), line("s", "t0/1", 2, "b"),
		line("u", "t0/2", 1, "c"),
		line("s", "t0/3", 1, "d"), // s deleted and started again
		line("s", "t1/1", 1, "e"), // the server restarted, s again
		line("s", "t0/3", 2, "f"),
	}, "\n")
	entries, err := decisionlog.Read(strings.NewReader(log), "log.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	recs, err := decisionlog.Records(entries)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range recs {
		var tools []string
		for _, a := range r.Audit {
			tools = append(tools, a.Tool)
		}
		got = append(got, r.Key.Task+":"+strings.Join(tools, ","))
	}
	if want := "[s:a,b u:c s#2:d,f s#3:e]"; fmt.Sprint(got) != want {
		t.Errorf("runs %v, want %s", got, want)
	}
}

func TestReadRefusals(t *testing.T) {
	good := strings.TrimSuffix(string(logOf(t, [][2]string{{"", `{"name":"read_fixture","arguments":{"id":"F1"}}`}})), "\n")
	for _, tc := range []struct{ line, want string }{
		{strings.Replace(good, `"tenet-decisions/1"`, `"tenet-decisions/9"`, 1), `log.jsonl:1: log version "tenet-decisions/9": this tenet reads "tenet-decisions/1" (a decision log written by another tenet?)`},
		{strings.Replace(good, `"seq":1`, `"seq":1,"extra":true`, 1), `log.jsonl:1: unknown member "extra" (at /extra): tenet-decisions/1 has no such member`},
		{strings.Replace(good, `"decision":"authorized"`, `"decision":"authorized","why":1`, 1), `log.jsonl:1: unknown member "why" (at /decision/why): tenet-decisions/1 has no such member`},
		{strings.Replace(good, `"seq":1`, `"seq":0`, 1), `log.jsonl:1: seq is 0, want ≥ 1`},
		{strings.Replace(good, `"origin":"serve"`, `"origin":"cron"`, 1), `log.jsonl:1: origin "cron": want authorize, serve or gateway`},
		{strings.Replace(good, `"seq":1`, `"seq":"1"`, 1), `log.jsonl:1: /seq: want a number, got a string`},
		{`{"time":"x"}`, `log.jsonl:1: no "log" member: every line of a decision log names its version ("tenet-decisions/1")`},
		{`[1]`, `log.jsonl:1: not a decision log line: a line is a JSON object, got an array`},
		{`{"log":"tenet-decisions/1","log":"tenet-decisions/1"}`, `log.jsonl:1: not a decision log line: invalid JSON (offset 27): duplicate object member name`},
	} {
		if _, err := decisionlog.Read(strings.NewReader(tc.line+"\n"), "log.jsonl"); err == nil || err.Error() != tc.want {
			t.Errorf("%s:\n got %v\nwant %s", tc.line, err, tc.want)
		}
	}
}

func TestClaims(t *testing.T) {
	for line, want := range map[string]bool{
		`{"log":"tenet-decisions/1","seq":1}`: true,
		`{"seq":1,"log":"tenet-decisions/7"}`: true,
		`{"log":"tenet-decision/1"}`:          false,
		`{"contract":"tenet-decisions/1"}`:    false,
		`{"log":["tenet-decisions/1"]}`:       false,
		`not json tenet-decisions/`:           false,
	} {
		if got := decisionlog.Claims([]byte(line)); got != want {
			t.Errorf("Claims(%s) = %v, want %v", line, got, want)
		}
	}
}

// A gateway's tools/list check is a line of the log that decides no call:
// read, and left out of the runs; a listed line that claims a call is
// refused.
func TestListedLines(t *testing.T) {
	call := strings.Replace(string(logOf(t, [][2]string{{"s1", `{"name":"read_fixture","arguments":{"id":"F1"}}`}})), `"origin":"serve"`, `"origin":"gateway"`, 1)
	var buf bytes.Buffer
	w := decisionlog.NewWriter(&buf, func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) })
	listed := decisionlog.Entry{Origin: decisionlog.FromGateway, Bundle: bundleID, Contract: "seed-fixtures", Condition: "live", Grant: "host", Session: "s1",
		Listed: &decisionlog.Listed{Request: "2", Undeclared: []string{"delete_everything"}, Hidden: true}}
	if err := w.Write(listed); err != nil {
		t.Fatal(err)
	}
	line := strings.TrimSuffix(buf.String(), "\n")
	if want := `{"log":"tenet-decisions/1","time":"2026-01-02T03:04:05Z","origin":"gateway","bundle":"` + bundleID + `","contract":"seed-fixtures","condition":"live","grant":"host","session":"s1","seq":0,"allowed":false,"listed":{"request":"2","undeclared":["delete_everything"],"hidden":true}}`; line != want {
		t.Fatalf("listed line:\n got %s\nwant %s", line, want)
	}
	entries, err := decisionlog.Read(strings.NewReader(line+"\n"+call), "log.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	recs, err := decisionlog.Records(entries)
	if err != nil || len(recs) != 1 || recs[0].Key.Task != "s1" || len(recs[0].Audit) != 1 {
		t.Fatalf("Records: %+v %v", recs, err)
	}
	for _, tc := range []struct{ line, want string }{
		{strings.Replace(line, `"seq":0`, `"seq":1`, 1), `log.jsonl:1: a listed line (a tools/list check) decides no call: it has no call, seq, decision or allowed`},
		{strings.Replace(line, `"origin":"gateway"`, `"origin":"serve"`, 1), `log.jsonl:1: origin "serve": a listed line is written by gateway only`},
		{strings.Replace(line, `"undeclared":["delete_everything"],`, ``, 1), `log.jsonl:1: listed: neither undeclared tools nor drift: a listed line reports one or the other`},
	} {
		if _, err := decisionlog.Read(strings.NewReader(tc.line+"\n"), "log.jsonl"); err == nil || err.Error() != tc.want {
			t.Errorf("%s:\n got %v\nwant %s", tc.line, err, tc.want)
		}
	}
}

// TestRecordsInvariants: the invariants a log's entries name become the
// run's labels — false when a call of the session violated one (refused
// or not: the agent attempted it), with the witness renumbered into the
// run's calls; unknown when only unknown; true on a session every one of
// whose calls the grant let through was checked — and lines that decided
// nothing are counted in the utility's reason.
func TestRecordsInvariants(t *testing.T) {
	const head = `{"log":"tenet-decisions/1","time":"2026-01-02T03:04:05Z","origin":"gateway","bundle":"sha256:09b9151fdc279dbfae7e1125d361cb13e3ea17be03e341841a8a622f7170e5aa","contract":"gw","condition":"live","grant":"host",`
	serve := strings.Replace(head, `"origin":"gateway"`, `"origin":"serve"`, 1)
	read := `"call":{"id":"1","tool":"read_fixture","arguments":{"id":"F1"}},"allowed":true,"decision":{"allowed":true,"tool":"read_fixture","id":"1","decision":"authorized"}`
	update := `"call":{"id":"2","tool":"update_fixture","arguments":{"id":"F1"}},"decision":{"allowed":true,"tool":"update_fixture","id":"2","decision":"authorized"}`
	lines := []string{
		// s1: an earlier call refused by the grant (audit call 0, not in
		// the session's history), a read (call 1 = history call:0), then an
		// update refused by the invariant (call 2 = history call:1).
		head + `"session":"s1","seq":1,"call":{"id":"0","tool":"update_fixture","arguments":{"id":"F9"}},"allowed":false,"decision":{"allowed":false,"tool":"update_fixture","id":"0","decision":"missing_resource_capability","detail":"grant \"host\" does not allow (update, F9)"}}`,
		head + `"session":"s1","seq":2,` + read + `,"on_unknown":"closed"}`,
		head + `"session":"s1","seq":3,` + update + `,"allowed":false,"invariants":[{"name":"no_update_after_read","severity":"high","status":"violated","witness":{"read":"call:0","send":"call:1"}}],"on_unknown":"closed"}`,
		// s2: an unknown let through under open.
		head + `"session":"s2","seq":1,` + read + `,"invariants":[{"name":"no_update_after_read","severity":"high","status":"unknown","reason":"cost limit"}],"on_unknown":"open"}`,
		// s3: checked, nothing named: held.
		head + `"session":"s3","seq":1,` + read + `,"on_unknown":"closed"}`,
		// s4: only a line that decided nothing.
		head + `"session":"s4","seq":1,"allowed":false,"error":"not a call"}`,
		// s5: a call let through unchecked (no on_unknown): nothing inferred.
		head + `"session":"s5","seq":1,` + read + `}`,
		// s6 (tenet serve, which logs held results too): violated; the
		// witness indexes the host's messages, not in the log: left out.
		serve + `"session":"s6","seq":1,` + read + `,"invariants":[{"name":"no_update_after_read","severity":"high","status":"held"}],"on_unknown":"closed"}`,
		serve + `"session":"s6","seq":2,` + update + `,"allowed":false,"invariants":[{"name":"no_update_after_read","severity":"high","status":"violated","witness":{"read":"call:0","send":"call:1"}}],"on_unknown":"closed"}`,
	}
	entries, err := decisionlog.Read(strings.NewReader(strings.Join(lines, "\n")), "log.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	recs, err := decisionlog.Records(entries)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range recs {
		if err := r.Validate(); err != nil {
			t.Errorf("run %s: %v", r.Key, err)
		}
		got = append(got, fmt.Sprintf("%s calls %d invariants %v %q witnesses %v utility %q", r.Key.Task, len(r.Audit), r.Invariants, r.Invariants["no_update_after_read"].Reason, r.Witnesses, r.Utility.Reason))
	}
	want := []string{
		`s1 calls 3 invariants map[no_update_after_read:false] "" witnesses map[invariants.no_update_after_read:map[read:call:1 send:call:2]] utility "` + decisionlog.NoOutcome + `"`,
		`s2 calls 1 invariants map[no_update_after_read:unknown] "call:0 read_fixture: cost limit" witnesses map[] utility "` + decisionlog.NoOutcome + `"`,
		`s3 calls 1 invariants map[no_update_after_read:true] "" witnesses map[] utility "` + decisionlog.NoOutcome + `"`,
		`s4 calls 0 invariants map[] "" witnesses map[] utility "` + decisionlog.NoOutcome + `; 1 line of this run not decided (an entry with an error and no decision, first at line 6): its calls are not in the audit"`,
		`s5 calls 1 invariants map[] "" witnesses map[] utility "` + decisionlog.NoOutcome + `"`,
		`s6 calls 2 invariants map[no_update_after_read:false] "" witnesses map[] utility "` + decisionlog.NoOutcome + `"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("runs:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
