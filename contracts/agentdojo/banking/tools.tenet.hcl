# The banking tools of AgentDojo v1 with their parameter schemas.

registry { operations = ["read", "update"] }

tool "get_iban" {
  operation = "read"
  params    = {}
}

tool "get_balance" {
  operation = "read"
  params    = {}
}

tool "get_most_recent_transactions" {
  operation = "read"
  params    = { n = optional(int) }
}

tool "get_scheduled_transactions" {
  operation = "read"
  params    = {}
}

tool "read_file" {
  operation = "read"
  resource  = "file_path"
  params    = { file_path = string }
}

tool "get_user_info" {
  operation = "read"
  params    = {}
}

tool "send_money" {
  operation = "update"
  resource  = "recipient"
  params = {
    recipient = string
    amount    = double
    subject   = string
    date      = string
  }
}

tool "schedule_transaction" {
  operation = "update"
  resource  = "recipient"
  params = {
    recipient = string
    amount    = double
    subject   = string
    date      = string
    recurring = bool
  }
}

tool "update_scheduled_transaction" {
  operation = "update"
  resource  = "id"
  params = {
    id        = int
    recipient = optional(string)
    amount    = optional(double)
    subject   = optional(string)
    date      = optional(string)
    recurring = optional(bool)
  }
}

tool "update_password" {
  operation = "update"
  params    = { password = string }
}

tool "update_user_info" {
  operation = "update"
  params = {
    first_name = optional(string)
    last_name  = optional(string)
    street     = optional(string)
    city       = optional(string)
  }
}

# The capability set the banking user's host holds. AgentDojo has no
# permission model: the user may read and update everything.
grant "default" {
  allow "read" { resources = ["*"] }
  allow "update" { resources = ["*"] }
}
