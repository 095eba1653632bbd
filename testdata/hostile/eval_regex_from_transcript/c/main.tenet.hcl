contract "c" {
  version = "1"
}

threat_model {}

registry { operations = ["read"] }

tool "search" {
  operation = "read"
  params    = { q = string, pattern = optional(string) }
}

task "answer" {
  step "q" {
    call = "search"
    when = "args.q.matches(args.pattern)"
  }
  match = "q"
}

source "s" {
  format    = "openai-messages"
  task      = "meta.task"
  condition = "meta.agent"
}
