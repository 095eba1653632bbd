contract "c" {}

threat_model {}

task "answer" {
  utility = "output.contains('42')"
}

source "s" {
  format    = "openai-messages"
  task      = "meta.task"
  condition = "meta.agent"
}

test "piped" {
  transcript = "t.jsonl"
  task       = "answer"
  expect = {
    utility = true
  }
}
