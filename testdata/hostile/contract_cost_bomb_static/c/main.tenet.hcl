contract "c" {
  version = "1"
}

threat_model {}

task "t" {
  utility = "events.all(a, events.all(b, events.all(c, a.content + b.content != c.content)))"
}
