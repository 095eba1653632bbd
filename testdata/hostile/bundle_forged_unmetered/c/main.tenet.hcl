contract "c" {
  version     = "1"
  cost_budget = 1000000000000000
}

threat_model {}

task "answer" {
  utility = "events.all(a, events.all(b, events.all(c, a.content + b.content != c.content)))"
}

source "s" {
  format    = "openai-messages"
  task      = "meta.task"
  condition = "meta.agent"
}
