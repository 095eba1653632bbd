contract "c" {
  version = "1"
}

threat_model {}

task "answer" {
  utility = "output.matches('(')"
}

invariant "big" {
  severity = "low"
  assert   = "!output.matches('((a{1000}){1000}){1000}')"
}

source "s" {
  format    = "openai-messages"
  task      = "meta.task"
  condition = "meta.agent"
}
