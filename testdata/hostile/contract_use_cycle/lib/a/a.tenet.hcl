use "../b" {}
