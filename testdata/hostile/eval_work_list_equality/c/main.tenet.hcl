contract "c" {
  version     = "1"
  cost_budget = 1000000000000000
}

threat_model {}

task "answer" {
  utility = "cel.bind(a, [events[0].content], cel.bind(b, [events[1].content], lists.range(1000000).all(i, a == b)))"
}

source "s" {
  format    = "openai-messages"
  task      = "meta.task"
  condition = "meta.agent"
}
