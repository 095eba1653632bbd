contract "c" {
  version     = "1"
  cost_budget = 1000000000000000
}

threat_model {}

# m[k] hashes its 4 MB key k and compares it with m's key, byte by byte:
# cel-go plans the index as a qualifier and charges it 1, which no
# runtime charge can change.
task "answer" {
  utility = "cel.bind(m, {events[0].content: 1}, lists.range(1000000).all(i, m[events[1].content] == 1))"
}

invariant "after" {
  severity = "low"
  assert   = "size(output) > 0"
}

source "s" {
  format    = "openai-messages"
  task      = "meta.task"
  condition = "meta.agent"
}
