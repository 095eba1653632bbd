contract "c" {
  version        = "1"
  run_cost_limit = 1000000000000
}

threat_model {}

registry { operations = ["read", "send"] }

tool "search" {
  operation = "read"
  params    = { q = string, pattern = optional(string) }
}

tool "send" {
  operation = "send"
  params    = { to = string, body = string }
}

task "answer" {
  step "x" { call = "search" }
  step "y" { call = "search" }
  step "z" {
    call = "send"
    when = "args.body == x.args.q + y.args.q"
  }
  match = "x _* y _* z"
}

source "s" {
  format    = "openai-messages"
  task      = "meta.task"
  condition = "meta.agent"
}
