contract "c" {
  version = "1"
}

threat_model {}

contract "again" {}

task "t" {
  utility = "true"
  utility = "false"
}

task "t" {
  utility = "true"
}
