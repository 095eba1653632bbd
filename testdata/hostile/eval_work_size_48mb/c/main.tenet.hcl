contract "c" {
  version     = "1"
  cost_budget = 1000000000000000
}

threat_model {}

task "answer" {
  utility = "lists.range(1000000).all(i, size(output) > 0)"
}

source "s" {
  format    = "openai-messages"
  task      = "meta.task"
  condition = "meta.agent"
}
