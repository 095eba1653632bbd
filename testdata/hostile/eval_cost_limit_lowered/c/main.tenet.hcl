contract "c" {
  version        = "1"
  run_cost_limit = 100
}

threat_model {}

task "answer" {
  utility = "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map(x, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map(y, x * y)).size() > 0"
}

source "s" {
  format    = "openai-messages"
  task      = "meta.task"
  condition = "meta.agent"
}
