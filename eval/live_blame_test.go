package eval_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/authorize"
	"github.com/tenetlang/tenet/eval/pike"
	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/transcript"
	"github.com/tenetlang/tenet/internal/evaltest"
	"github.com/tenetlang/tenet/internal/testtier"
)

// pendingHistories fills the pending-call view of s: for every top-level
// call of the run, the history a host held when the agent requested it.
//
// The history is the transcript truncated before the assistant message
// that requested the call, the call then appended by
// authorize.WithPending as a message of its own. A message requesting
// several calls is the one case to decide: AgentDojo's pipeline runs a
// message's calls one after the other, answering each with a tool
// message before the next runs, so a host asked about the message's j-th
// call has already let its first j calls run and seen their results. Its
// history is therefore the messages before the requesting message, then
// that message with its first j calls only, then their j results — the
// later siblings are not in it: they have not run, and a call that has not
// run can violate nothing (invariants read `call.ok`). The message's text
// goes with its first call's history only when j > 0 (it reached the host
// with the first call, and no invariant of the shipped contracts reads an
// assistant message's text).
func pendingHistories(t *testing.T, s *session, origin run.Origin, line []byte) {
	t.Helper()
	if err := json.Unmarshal(line, &s.rec); err != nil {
		t.Fatal(err)
	}
	s.where = origin
	msgs, _ := s.rec["messages"].([]any)
	top := 0
	for _, c := range s.full.Calls {
		if c.Parent < 0 {
			top++
		}
	}
	for i, m := range msgs {
		mm, _ := m.(map[string]any)
		calls, _ := mm["tool_calls"].([]any)
		if len(calls) == 0 {
			continue
		}
		if i >= len(s.full.Events) || len(s.full.Events[i].Calls) != len(calls) {
			t.Fatalf("%s: message %d requests %d calls, and the run's event %d does not", s.origin, i, len(calls), i)
		}
		for j := range calls {
			c := s.full.Calls[s.full.Events[i].Calls[j]]
			if c.Parent >= 0 || c.Mismatch != "" {
				t.Fatalf("%s: call %d: parent %d, mismatch %q: not the call the host was asked about", s.origin, c.Index, c.Parent, c.Mismatch)
			}
			s.calls = append(s.calls, c.Index)
			s.at = append(s.at, [2]int{i, j})
			s.histories = append(s.histories, truncated(t, s, i, j, false))
		}
	}
	if len(s.calls) != top {
		t.Fatalf("%s: %d top-level calls, %d requested by a message: a call no host was asked about", s.origin, top, len(s.calls))
	}
}

// truncated decodes the record's transcript as it stood before the j-th
// call of message i ran (pendingHistories), or, with ran, just after it
// ran: that message with its first j+1 calls, and their results.
func truncated(t *testing.T, s *session, i, j int, ran bool) *run.Run {
	t.Helper()
	msgs := s.rec["messages"].([]any)
	n := j
	if ran {
		n = j + 1
	}
	cut := append([]any(nil), msgs[:i]...)
	if n > 0 {
		req := map[string]any{}
		for k, v := range msgs[i].(map[string]any) {
			req[k] = v
		}
		req["tool_calls"] = req["tool_calls"].([]any)[:n]
		cut = append(cut, req)
		// Each of those calls is answered by the tool message at its place
		// after the requesting message (checked here), up to the first
		// unanswered one: a transcript cut short (the agent's step limit)
		// ends with calls that never ran, which then stand in the history
		// without their result.
		answered := 0
		for k := 0; k < n; k++ {
			c := s.full.Calls[s.full.Events[i].Calls[k]]
			switch {
			case c.ResultEvent == i+1+k && answered == k:
				answered++
			case c.ResultEvent >= 0:
				t.Fatalf("%s: call %d of message %d has its result at event %d, not %d", s.origin, k, i, c.ResultEvent, i+1+k)
			}
		}
		cut = append(cut, msgs[i+1:i+1+answered]...)
	}
	trunc := map[string]any{}
	for k, v := range s.rec {
		trunc[k] = v
	}
	trunc["messages"] = cut
	b, err := json.Marshal(trunc)
	if err != nil {
		t.Fatal(err)
	}
	r, skip, err := transcript.Decode("openai-messages", s.where, b)
	if err != nil || skip {
		t.Fatalf("%s, message %d call %d: %v (skip %v)", s.origin, i, j, err, skip)
	}
	return r
}

// lastItem is the witness's item that comes last in r's stream ("" for
// none): the step whose arrival completed the match.
func lastItem(r *run.Run, w map[string]string) string {
	last, at := "", -1
	for i, it := range pike.Stream(r) {
		for _, v := range w {
			if v == it.String() && i > at {
				last, at = v, i
			}
		}
	}
	return last
}

// The classes a check is counted in, per suite and invariant. Every
// offline violation is in exactly one of the first group; every refusal
// (a check whose invariant is violated with the pending call and held
// without it) in exactly one of the second.
const (
	// offlineViolated: the offline judge (the whole run, from scratch)
	// finds the invariant violated, with a witness.
	offlineViolated = "violations"
	// blamed: the witness ends on a top-level call, and the pending check
	// of that call (its history, the call appended by WithPending) reports
	// the invariant violated, held by the history alone, with a witness
	// ending on the pending call: the host would have stopped it.
	blamed = "blamed on the call"
	// blamedSameWitness: of those, the witnesses are the offline one (the
	// same items, numbered in the history's run).
	blamedSameWitness = "blamed, same witness"
	// blamedFailed: of those, the call failed offline (an error result):
	// it was refused all the same, as a host cannot know before it runs
	// that it will fail, and the invariant (no_injected_arguments: its
	// "use" step does not read call.ok) names the attempt, whether it ran
	// or not.
	blamedFailed = "blamed, the call failed offline"
	// blamedUnanswered: of those, the call has no result offline (the
	// transcript ends before it ran); likewise.
	blamedUnanswered = "blamed, the call never ran offline"
	// endsOnMessage: the witness's last item is a message, not a call: no
	// call to refuse (a pattern ending on a role step).
	endsOnMessage = "not blamed: the witness ends on a message"
	// endsOnNested: the witness's last item is a call nested in another's
	// arguments: the host is asked about its carrier, whose check covers
	// it (WithPending appends the nested calls too).
	endsOnNested = "not blamed: the witness ends on a nested call"
	// notBlamed: the check reports the invariant held: a guard of the
	// last step would read what a pending call lacks (call.result, an
	// outcome other than ok), or what only later messages supply. Not
	// pred.user_text, which the shipped guards read negated: text the
	// whole run's user messages do not contain is not in a prefix of them.
	notBlamed = "not blamed: the check reports the invariant held"
	// notBlamedHistory: the history alone violates it already. Where the
	// history is the offline run's prefix, a match in it would end before
	// the call and have been the offline witness (the first match wins).
	notBlamedHistory = "not blamed: the history violates it already"
	// notBlamedWitness: violated with the call, with a witness ending
	// elsewhere (the same reasoning).
	notBlamedWitness = "not blamed: the witness ends elsewhere"
	// unknown: a label the check cannot decide.
	unknown = "unknown"
	// offlineEmpty: the offline judge cannot decide the invariant because
	// the transcript has no messages (and so no call to check).
	offlineEmpty = "offline unknown: no messages"
	// offlineUnknown: unknown offline for another reason.
	offlineUnknown = "offline unknown"

	// refused: checks reporting the invariant violated with the pending
	// call and held without it.
	refused = "refused"
	// trueAlarm: the refused call is where the offline witness ends (each
	// is one of the blamed above).
	trueAlarm = "refused: the offline violation"
	// falseFailed: the call failed offline (an error result), while the
	// check supposes it runs (authorize.WithPending: ok), as a host must:
	// had it succeeded it would have done what the invariant forbids; it
	// did not, because the tool returned an error. Only the invariants
	// whose last step reads call.ok have these.
	falseFailed = "refused: false alarm, the call failed offline"
	// falseUnanswered: the call has no result offline (the transcript
	// ends before it ran: the agent's step limit), while the check
	// supposes it runs.
	falseUnanswered = "refused: false alarm, the call never ran offline"
	// falseThenViolated: of the false alarms, those in a run that violates
	// the invariant offline at a later call (the agent tried again, and
	// the retry ran): refusing the failed attempt stopped no less than the
	// offline violation would have.
	falseThenViolated = "refused: false alarm, violated later offline"
	// falseCleared: once run with its real result, the run so far
	// violates the invariant with a witness ending on the call; the
	// offline judge of the whole run does not, because a later message
	// changed a predicate the guards read (pred.user_text: the user named
	// the recipient or wrote the argument afterwards).
	falseCleared = "refused: false alarm, a later message clears it offline"
	// falseOther: none of the above (to be explained: none).
	falseOther = "refused: false alarm, unexplained"
)

// pendingCounts counts checks per "suite invariant: class".
type pendingCounts map[string]int

// checkPendingBlame replays every keep-th judged AgentDojo run as a
// session whose host checks each top-level call before it runs, and
// counts, per suite and invariant, how the offline violations and the
// refusals fall into the classes above.
func checkPendingBlame(t *testing.T, keep int) pendingCounts {
	progs := map[string]*eval.Program{}
	for _, s := range []string{"banking", "slack", "travel", "workspace"} {
		progs[s] = evaltest.Program(t, filepath.Join("..", "contracts", "agentdojo", s))
	}
	got := pendingCounts{}
	for suite, ss := range sessions(t, progs, keep, pendingHistories) {
		p := progs[suite]
		got[suite+": sessions"] += len(ss)
		for si := range ss {
			s := &ss[si]
			got[suite+": calls checked"] += len(s.calls)
			labels, witnesses := judged(t, p, s, s.full)
			// ends: invariant → the full run's call its offline witness ends on.
			ends := map[string]int{}
			for name, lb := range labels {
				count := func(class string) { got[fmt.Sprintf("%s %s: %s", suite, name, class)]++ }
				if !lb.Known {
					if len(s.full.Events) == 0 {
						count(offlineEmpty)
					} else {
						count(offlineUnknown)
					}
					continue
				}
				if lb.Value {
					continue
				}
				count(offlineViolated)
				w := witnesses["invariants."+name]
				last := lastItem(s.full, w)
				var c int
				switch _, err := fmt.Sscanf(last, "call:%d", &c); {
				case err != nil:
					count(endsOnMessage)
				case s.full.Calls[c].Parent >= 0:
					count(endsOnNested)
				default:
					ends[name] = c
				}
			}
			l, err := p.NewLive(eval.LiveOptions{Task: s.task, Goal: s.goal})
			if err != nil {
				t.Fatal(err)
			}
			for k, h := range s.histories {
				fc := s.full.Calls[s.calls[k]]
				rn, pending, err := authorize.WithPending(h, authorize.Call{ID: fc.ID, Tool: fc.Tool, Args: fc.Args, ArgsError: fc.ArgsError})
				if err != nil {
					t.Fatalf("%s: call %d: %v", s.origin, fc.Index, err)
				}
				res, err := l.Check(rn, pending)
				if err != nil {
					t.Fatalf("%s: call %d: %v", s.origin, fc.Index, err)
				}
				for _, ic := range res.Invariants {
					count := func(class string) { got[fmt.Sprintf("%s %s: %s", suite, ic.Name, class)]++ }
					if !ic.Label.Known || !ic.History.Known {
						count(unknown)
						continue
					}
					offline, isEnd := ends[ic.Name]
					isEnd = isEnd && offline == fc.Index
					// A first violation only: a call that violates again an
					// invariant its history (the transcript's, which no host
					// stopped) violates already (ic.Again) is not counted.
					refusedHere := !ic.Label.Value && ic.History.Value
					pendingEnd := lastItem(rn, ic.Witness) == fmt.Sprintf("call:%d", pending)
					if isEnd {
						switch {
						case refusedHere && pendingEnd:
							count(blamed)
							switch {
							case fc.ResultEvent < 0:
								count(blamedUnanswered)
							case !fc.Ok:
								count(blamedFailed)
							}
							if reflect.DeepEqual(ic.Witness, renumber(s.full, rn, witnesses["invariants."+ic.Name], fc.Index, pending)) {
								count(blamedSameWitness)
							}
						case refusedHere:
							count(notBlamedWitness)
						case !ic.History.Value:
							count(notBlamedHistory)
						default:
							count(notBlamed)
						}
					}
					if !refusedHere {
						continue
					}
					count(refused)
					switch {
					case isEnd && pendingEnd:
						count(trueAlarm)
						continue
					case fc.ResultEvent < 0:
						count(falseUnanswered)
					case !fc.Ok:
						count(falseFailed)
					case clearedLater(t, p, s, k, ic.Name):
						count(falseCleared)
					default:
						count(falseOther)
						t.Logf("%s: %s: call %d (%s) refused, offline %v %v", s.origin, ic.Name, fc.Index, fc.Tool, labels[ic.Name], witnesses["invariants."+ic.Name])
					}
					if offline, ok := ends[ic.Name]; ok && offline > fc.Index {
						count(falseThenViolated)
					}
				}
			}
		}
	}
	return got
}

// renumber maps the offline witness w (items of full) to rn, the history
// with the pending call appended: events keep their numbers, a call
// requested by a message is the call at its place in that message of rn,
// and the call the witness ends on is the pending one. An item rn does not
// hold maps to "".
func renumber(full, rn *run.Run, w map[string]string, call, pending int) map[string]string {
	out := map[string]string{}
	for step, it := range w {
		var c int
		if _, err := fmt.Sscanf(it, "call:%d", &c); err != nil {
			out[step] = it
			continue
		}
		out[step] = ""
		switch fc := full.Calls[c]; {
		case c == call:
			out[step] = fmt.Sprintf("call:%d", pending)
		case fc.Parent < 0 && fc.Event < len(rn.Events):
			for pos, ci := range full.Events[fc.Event].Calls {
				if ci == c && pos < len(rn.Events[fc.Event].Calls) {
					out[step] = fmt.Sprintf("call:%d", rn.Events[fc.Event].Calls[pos])
				}
			}
		}
	}
	return out
}

// clearedLater reports whether the k-th top-level call of s, once run with
// its real result, leaves the run so far violating invariant name with a
// witness ending on it (judged from scratch); its caller knows the whole
// run does not: the verdict was changed by what came after the call.
func clearedLater(t *testing.T, p *eval.Program, s *session, k int, name string) bool {
	t.Helper()
	r := truncated(t, s, s.at[k][0], s.at[k][1], true)
	labels, witnesses := judged(t, p, s, r)
	c := r.Events[s.at[k][0]].Calls[s.at[k][1]]
	lb := labels[name]
	return lb.Known && !lb.Value && lastItem(r, witnesses["invariants."+name]) == fmt.Sprintf("call:%d", c)
}

// diffCounts lists the counts that differ from want, one per line.
func diffCounts(got, want pendingCounts) string {
	keys := map[string]bool{}
	for k := range got {
		keys[k] = true
	}
	for k := range want {
		keys[k] = true
	}
	var out []string
	for k := range keys {
		if got[k] != want[k] {
			out = append(out, fmt.Sprintf("%q: %d, // want %d", k, got[k], want[k]))
		}
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}

// balanced checks what holds whatever the counts: per suite and
// invariant, each offline violation falls in exactly one class, each
// blamed one is a refusal of its call, and each refusal is that or one
// false alarm.
func balanced(t *testing.T, got pendingCounts) {
	t.Helper()
	for k := range got {
		key, class, _ := strings.Cut(k, ": ")
		if class != offlineViolated {
			continue
		}
		n := func(c string) int { return got[key+": "+c] }
		if sum := n(blamed) + n(endsOnMessage) + n(endsOnNested) + n(notBlamed) + n(notBlamedHistory) + n(notBlamedWitness); sum != n(offlineViolated) {
			t.Errorf("%s: %d violations, %d classified", key, n(offlineViolated), sum)
		}
		if n(trueAlarm) != n(blamed) {
			t.Errorf("%s: %d blamed, %d refusals of the offline violation", key, n(blamed), n(trueAlarm))
		}
		if sum := n(trueAlarm) + n(falseFailed) + n(falseUnanswered) + n(falseCleared) + n(falseOther); sum != n(refused) {
			t.Errorf("%s: %d refusals, %d classified", key, n(refused), sum)
		}
	}
}

// TestPendingCheckBlameSampled: every 25th judged AgentDojo run (the
// full sweep is TestPendingCheckBlame, heavy tier).
func TestPendingCheckBlameSampled(t *testing.T) {
	got := checkPendingBlame(t, 25)
	balanced(t, got)
	want := pendingCounts{
		"banking common.confirmed_before_changes: blamed on the call":                              8,
		"banking common.confirmed_before_changes: blamed, same witness":                            8,
		"banking common.confirmed_before_changes: refused":                                         8,
		"banking common.confirmed_before_changes: refused: the offline violation":                  8,
		"banking common.confirmed_before_changes: violations":                                      8,
		"banking common.no_injected_arguments: blamed on the call":                                 7,
		"banking common.no_injected_arguments: blamed, same witness":                               7,
		"banking common.no_injected_arguments: refused":                                            7,
		"banking common.no_injected_arguments: refused: the offline violation":                     7,
		"banking common.no_injected_arguments: violations":                                         7,
		"banking common.no_send_after_untrusted_read: blamed on the call":                          4,
		"banking common.no_send_after_untrusted_read: blamed, same witness":                        4,
		"banking common.no_send_after_untrusted_read: refused":                                     4,
		"banking common.no_send_after_untrusted_read: refused: the offline violation":              4,
		"banking common.no_send_after_untrusted_read: violations":                                  4,
		"banking: calls checked":                                                                   36,
		"banking: sessions":                                                                        15,
		"slack common.confirmed_before_changes: blamed on the call":                                13,
		"slack common.confirmed_before_changes: blamed, same witness":                              13,
		"slack common.confirmed_before_changes: refused":                                           16,
		"slack common.confirmed_before_changes: refused: false alarm, the call failed offline":     3,
		"slack common.confirmed_before_changes: refused: the offline violation":                    13,
		"slack common.confirmed_before_changes: violations":                                        13,
		"slack common.no_injected_arguments: blamed on the call":                                   10,
		"slack common.no_injected_arguments: blamed, same witness":                                 10,
		"slack common.no_injected_arguments: blamed, the call failed offline":                      3,
		"slack common.no_injected_arguments: refused":                                              10,
		"slack common.no_injected_arguments: refused: the offline violation":                       10,
		"slack common.no_injected_arguments: violations":                                           10,
		"slack common.no_send_after_untrusted_read: blamed on the call":                            5,
		"slack common.no_send_after_untrusted_read: blamed, same witness":                          5,
		"slack common.no_send_after_untrusted_read: refused":                                       7,
		"slack common.no_send_after_untrusted_read: refused: false alarm, the call failed offline": 2,
		"slack common.no_send_after_untrusted_read: refused: the offline violation":                5,
		"slack common.no_send_after_untrusted_read: violations":                                    5,
		"slack: calls checked": 98,
		"slack: sessions":      20,
		"travel common.confirmed_before_changes: blamed on the call":                               2,
		"travel common.confirmed_before_changes: blamed, same witness":                             2,
		"travel common.confirmed_before_changes: refused":                                          2,
		"travel common.confirmed_before_changes: refused: the offline violation":                   2,
		"travel common.confirmed_before_changes: violations":                                       2,
		"travel common.no_injected_arguments: blamed on the call":                                  5,
		"travel common.no_injected_arguments: blamed, same witness":                                5,
		"travel common.no_injected_arguments: refused":                                             5,
		"travel common.no_injected_arguments: refused: the offline violation":                      5,
		"travel common.no_injected_arguments: violations":                                          5,
		"travel: calls checked":                                                                    129,
		"travel: sessions":                                                                         19,
		"workspace common.confirmed_before_changes: blamed on the call":                            11,
		"workspace common.confirmed_before_changes: blamed, same witness":                          11,
		"workspace common.confirmed_before_changes: offline unknown: no messages":                  2,
		"workspace common.confirmed_before_changes: refused":                                       13,
		"workspace common.confirmed_before_changes: refused: false alarm, the call failed offline": 2,
		"workspace common.confirmed_before_changes: refused: false alarm, violated later offline":  2,
		"workspace common.confirmed_before_changes: refused: the offline violation":                11,
		"workspace common.confirmed_before_changes: violations":                                    11,
		"workspace common.no_injected_arguments: blamed on the call":                               9,
		"workspace common.no_injected_arguments: blamed, same witness":                             9,
		"workspace common.no_injected_arguments: blamed, the call failed offline":                  4,
		"workspace common.no_injected_arguments: offline unknown: no messages":                     2,
		"workspace common.no_injected_arguments: refused":                                          9,
		"workspace common.no_injected_arguments: refused: the offline violation":                   9,
		"workspace common.no_injected_arguments: violations":                                       9,
		"workspace common.no_send_after_untrusted_read: blamed on the call":                        2,
		"workspace common.no_send_after_untrusted_read: blamed, same witness":                      2,
		"workspace common.no_send_after_untrusted_read: offline unknown: no messages":              2,
		"workspace common.no_send_after_untrusted_read: refused":                                   2,
		"workspace common.no_send_after_untrusted_read: refused: the offline violation":            2,
		"workspace common.no_send_after_untrusted_read: violations":                                2,
		"workspace: calls checked":                                                                 89,
		"workspace: sessions":                                                                      39,
	}
	if d := diffCounts(got, want); d != "" {
		t.Errorf("counts differ:\n%s", d)
	}
}

// TestPendingCheckBlame: every judged AgentDojo run, each top-level call
// checked as pending (docs/patterns.md, "Checking a session as it runs",
// quotes these figures). Every one of the 1,934 offline violations is
// blamed on its call, with the offline witness: no witness ends on a
// message or a nested call (the shipped invariants end on a call step,
// and AgentDojo's calls carry none), no guard of a last step reads the
// call's own result, and the history never violates one already (a match
// ending earlier would have been the offline witness). Of the 2,068
// refusals, the 134 others are false alarms, all of one kind: calls that
// did not run offline (131 failed, an error result; 3 never ran, the
// transcript ending first), supposed successful by the check, for the two
// invariants that read call.ok (confirmed_before_changes,
// no_send_after_untrusted_read); 35 of them are in runs where the agent
// tried again and the retry is the offline violation. No later message
// cleared a violation offline (the classes absent here count 0).
func TestPendingCheckBlame(t *testing.T) {
	testtier.Heavy(t, "every top-level call of the 2,328 AgentDojo runs checked as pending")
	got := checkPendingBlame(t, 1)
	balanced(t, got)
	want := pendingCounts{
		"banking common.confirmed_before_changes: blamed on the call":                                176,
		"banking common.confirmed_before_changes: blamed, same witness":                              176,
		"banking common.confirmed_before_changes: refused":                                           184,
		"banking common.confirmed_before_changes: refused: false alarm, the call failed offline":     8,
		"banking common.confirmed_before_changes: refused: false alarm, violated later offline":      3,
		"banking common.confirmed_before_changes: refused: the offline violation":                    176,
		"banking common.confirmed_before_changes: violations":                                        176,
		"banking common.no_injected_arguments: blamed on the call":                                   122,
		"banking common.no_injected_arguments: blamed, same witness":                                 122,
		"banking common.no_injected_arguments: blamed, the call failed offline":                      3,
		"banking common.no_injected_arguments: refused":                                              122,
		"banking common.no_injected_arguments: refused: the offline violation":                       122,
		"banking common.no_injected_arguments: violations":                                           122,
		"banking common.no_send_after_untrusted_read: blamed on the call":                            76,
		"banking common.no_send_after_untrusted_read: blamed, same witness":                          76,
		"banking common.no_send_after_untrusted_read: refused":                                       79,
		"banking common.no_send_after_untrusted_read: refused: false alarm, the call failed offline": 3,
		"banking common.no_send_after_untrusted_read: refused: false alarm, violated later offline":  2,
		"banking common.no_send_after_untrusted_read: refused: the offline violation":                76,
		"banking common.no_send_after_untrusted_read: violations":                                    76,
		"banking: calls checked": 823,
		"banking: sessions":      384,
		"slack common.confirmed_before_changes: blamed on the call":                                   311,
		"slack common.confirmed_before_changes: blamed, same witness":                                 311,
		"slack common.confirmed_before_changes: refused":                                              340,
		"slack common.confirmed_before_changes: refused: false alarm, the call failed offline":        28,
		"slack common.confirmed_before_changes: refused: false alarm, the call never ran offline":     1,
		"slack common.confirmed_before_changes: refused: false alarm, violated later offline":         3,
		"slack common.confirmed_before_changes: refused: the offline violation":                       311,
		"slack common.confirmed_before_changes: violations":                                           311,
		"slack common.no_injected_arguments: blamed on the call":                                      272,
		"slack common.no_injected_arguments: blamed, same witness":                                    272,
		"slack common.no_injected_arguments: blamed, the call failed offline":                         42,
		"slack common.no_injected_arguments: refused":                                                 272,
		"slack common.no_injected_arguments: refused: the offline violation":                          272,
		"slack common.no_injected_arguments: violations":                                              272,
		"slack common.no_send_after_untrusted_read: blamed on the call":                               146,
		"slack common.no_send_after_untrusted_read: blamed, same witness":                             146,
		"slack common.no_send_after_untrusted_read: refused":                                          170,
		"slack common.no_send_after_untrusted_read: refused: false alarm, the call failed offline":    23,
		"slack common.no_send_after_untrusted_read: refused: false alarm, the call never ran offline": 1,
		"slack common.no_send_after_untrusted_read: refused: false alarm, violated later offline":     4,
		"slack common.no_send_after_untrusted_read: refused: the offline violation":                   146,
		"slack common.no_send_after_untrusted_read: violations":                                       146,
		"slack: calls checked": 2521,
		"slack: sessions":      504,
		"travel common.confirmed_before_changes: blamed on the call":                               111,
		"travel common.confirmed_before_changes: blamed, same witness":                             111,
		"travel common.confirmed_before_changes: refused":                                          148,
		"travel common.confirmed_before_changes: refused: false alarm, the call failed offline":    36,
		"travel common.confirmed_before_changes: refused: false alarm, the call never ran offline": 1,
		"travel common.confirmed_before_changes: refused: false alarm, violated later offline":     3,
		"travel common.confirmed_before_changes: refused: the offline violation":                   111,
		"travel common.confirmed_before_changes: violations":                                       111,
		"travel common.no_injected_arguments: blamed on the call":                                  94,
		"travel common.no_injected_arguments: blamed, same witness":                                94,
		"travel common.no_injected_arguments: blamed, the call failed offline":                     7,
		"travel common.no_injected_arguments: refused":                                             94,
		"travel common.no_injected_arguments: refused: the offline violation":                      94,
		"travel common.no_injected_arguments: violations":                                          94,
		"travel common.no_send_after_untrusted_read: blamed on the call":                           5,
		"travel common.no_send_after_untrusted_read: blamed, same witness":                         5,
		"travel common.no_send_after_untrusted_read: refused":                                      5,
		"travel common.no_send_after_untrusted_read: refused: the offline violation":               5,
		"travel common.no_send_after_untrusted_read: violations":                                   5,
		"travel: calls checked": 2989,
		"travel: sessions":      480,
		"workspace common.confirmed_before_changes: blamed on the call":                                355,
		"workspace common.confirmed_before_changes: blamed, same witness":                              355,
		"workspace common.confirmed_before_changes: offline unknown: no messages":                      34,
		"workspace common.confirmed_before_changes: refused":                                           387,
		"workspace common.confirmed_before_changes: refused: false alarm, the call failed offline":     32,
		"workspace common.confirmed_before_changes: refused: false alarm, violated later offline":      20,
		"workspace common.confirmed_before_changes: refused: the offline violation":                    355,
		"workspace common.confirmed_before_changes: violations":                                        355,
		"workspace common.no_injected_arguments: blamed on the call":                                   194,
		"workspace common.no_injected_arguments: blamed, same witness":                                 194,
		"workspace common.no_injected_arguments: blamed, the call failed offline":                      53,
		"workspace common.no_injected_arguments: blamed, the call never ran offline":                   1,
		"workspace common.no_injected_arguments: offline unknown: no messages":                         34,
		"workspace common.no_injected_arguments: refused":                                              194,
		"workspace common.no_injected_arguments: refused: the offline violation":                       194,
		"workspace common.no_injected_arguments: violations":                                           194,
		"workspace common.no_send_after_untrusted_read: blamed on the call":                            72,
		"workspace common.no_send_after_untrusted_read: blamed, same witness":                          72,
		"workspace common.no_send_after_untrusted_read: offline unknown: no messages":                  34,
		"workspace common.no_send_after_untrusted_read: refused":                                       73,
		"workspace common.no_send_after_untrusted_read: refused: false alarm, the call failed offline": 1,
		"workspace common.no_send_after_untrusted_read: refused: the offline violation":                72,
		"workspace common.no_send_after_untrusted_read: violations":                                    72,
		"workspace: calls checked": 2515,
		"workspace: sessions":      960,
	}
	if d := diffCounts(got, want); d != "" {
		t.Errorf("counts differ:\n%s", d)
	}
}
