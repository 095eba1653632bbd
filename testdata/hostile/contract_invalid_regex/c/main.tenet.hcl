contract "c" {
  version = "1"
}

threat_model {}

task "t" {
  utility = "output.matches('(')"
}

task "u" {
  utility = "output.matches('((a{1000}){1000}){1000}')"
}
