contract "c" {
  version = "1"
}

threat_model {}

use "." {
  as = "me"
}

task "t" {
  utility = "true"
}
