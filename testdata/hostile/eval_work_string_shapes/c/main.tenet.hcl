contract "c" {
  version     = "1"
  cost_budget = 1000000000000000
}

threat_model {}

registry { operations = ["send"] }

tool "send" {
  operation = "send"
  params    = { to = string }
}

# Each task repeats one operation on a 4 MB text a million times (num:
# a hundred thousand, the most its constant charge allows).
task "compare_short" {
  utility = "lists.range(1000000).all(i, output != 'x')"
}
task "contains_empty" {
  utility = "lists.range(1000000).all(i, output.contains(''))"
}
task "conversion" {
  utility = "lists.range(1000000).all(i, int(output) > 0 || true)"
}
task "in_list" {
  utility = "lists.range(1000000).all(i, !(output in [events[0].content]))"
}
task "in_map" {
  utility = "lists.range(1000000).all(i, !(calls[0].args.to in calls[0].args))"
}
task "lower_ascii" {
  utility = "lists.range(1000000).all(i, output.lowerAscii() != '')"
}
task "matches" {
  utility = "lists.range(1000000).all(i, output.matches('^a'))"
}
task "num" {
  utility = "lists.range(100000).all(i, num(output) > 0.0 || true)"
}
task "size_dyn" {
  utility = "lists.range(1000000).all(i, size(tools.send[0].args.to) > 0)"
}

source "s" {
  format    = "openai-messages"
  task      = "meta.task"
  condition = "meta.agent"
}
