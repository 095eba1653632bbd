contract "join" {
  version     = "0.1.0"
  cost_budget = 1000000000000000
}
threat_model {}
source "s" {
  format = "openai-messages"
  task   = "'t'"
  condition = "'m'"
}
task "t" {
  prompt = "x"
  utility = "lists.range(300000).map(i, output).join().size() == 0"
}
