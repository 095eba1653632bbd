contract "c" {
  run_cost_limit = 1e400
  cost_budget    = 99999999999999999999999999
}

threat_model {
  attempt_budget = -1
}

task "t" {
  utility = "true"
}
