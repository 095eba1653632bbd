contract "reps" {}

threat_model {}

task "answer" {
  utility = "output.contains('42')"
}

source "s" {
  format     = "openai-messages"
  task       = "meta.task"
  condition  = "meta.agent"
  repetition = "meta.rep"
}
