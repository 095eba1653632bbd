contract "c" {}

threat_model {}

use "../lib" {}
