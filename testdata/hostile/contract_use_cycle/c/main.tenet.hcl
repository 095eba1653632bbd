contract "c" {
  version = "1"
}

threat_model {}

use "../lib/a" {}

task "t" {
  utility = "true"
}
