contract "c" {
  version = "1"
}

threat_model {}

task "t" {
  step "a" { role = "user" }
  match = "((a{100}){100}){100}"
}
