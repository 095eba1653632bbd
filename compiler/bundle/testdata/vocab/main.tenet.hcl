# A contract whose bundle holds every pattern instruction and every
# parameter type kind, nested: TestDisassembleGolden prints it.

contract "kinds" {
  version = "1"
}

threat_model {}

registry { operations = ["read", "send"] }

tool "search" {
  operation = "read"
  params    = { q = string, n = optional(int), items = list(object({ a = string, b = optional(double), c = map(list(bool)) })), any_thing = any, m = map(int), l = list(any) }
}

tool "send" {
  operation = "send"
  resource  = "to"
  params    = { to = string, body = optional(string) }
}

grant "default" {
  allow "read" { resources = ["*"] }
}

task "answer" {
  utility = "output.contains('42')"
}

invariant "shape" {
  severity = "high"
  step "read" { call = "search" }
  step "send" { call = "send" }
  step "u" { role = "user" }
  match = "^ u (read | !send){2,3} _* send? $"
}

source "s" {
  format    = "openai-messages"
  task      = "meta.task"
  condition = "meta.agent"
}
