contract "c" {
  version     = "1"
  cost_budget = 1000000000000000
}

threat_model {}

# Each task compares the elements of lists of two equal 4 MB strings, a
# million times.
task "distinct" {
  utility = "cel.bind(a, [events[0].content, events[1].content], lists.range(1000000).all(i, size(a.distinct()) == 1))"
}
task "has_any" {
  utility = "cel.bind(a, [events[0].content], cel.bind(b, [events[1].content], lists.range(1000000).all(i, a.hasAny(b))))"
}
task "sets_contains" {
  utility = "cel.bind(a, [events[0].content], cel.bind(b, [events[1].content], lists.range(1000000).all(i, sets.contains(a, b))))"
}
task "sort" {
  utility = "cel.bind(a, [events[0].content, events[1].content], lists.range(1000000).all(i, size(a.sort()) == 2))"
}

source "s" {
  format    = "openai-messages"
  task      = "meta.task"
  condition = "meta.agent"
}
