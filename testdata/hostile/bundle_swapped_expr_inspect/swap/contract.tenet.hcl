# Two tasks: "answer" is strict, "lenient" always passes. The case swaps
# answer's compiled utility for lenient's, keeping answer's text.

contract "swap" {
  version = "1"
}

threat_model {}

registry { operations = ["read", "send"] }

task "answer" {
  utility = "output.contains('42')"
}

task "lenient" {
  utility = "true"
}

source "s" {
  format    = "openai-messages"
  task      = "meta.task"
  condition = "meta.agent"
}
