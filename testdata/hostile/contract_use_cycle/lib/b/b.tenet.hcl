use "../a" {}
