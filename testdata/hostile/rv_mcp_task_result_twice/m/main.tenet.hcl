contract "m" {
  version = "1"
}

threat_model {}

registry { operations = ["read", "send"] }

tool "get_balance" {
  operation = "read"
  params    = {}
}

tool "send_money" {
  operation = "send"
  params    = { recipient = string, amount = number }
}

grant "default" {
  allow "read" { resources = ["*"] }
}

task "pay" {
  utility = "calls.exists(c, c.tool == 'send_money' && c.ok)"
}

source "s" {
  format    = "mcp"
  task      = "'pay'"
  condition = "has(meta.clientInfo) ? meta.clientInfo.name : 'anon'"
}
