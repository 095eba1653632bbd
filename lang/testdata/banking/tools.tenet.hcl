tool "send_money" {
  description = "Sends money to a recipient."
  operation   = "update"
  resource    = "recipient"
  params = {
    recipient = string
    amount    = number
    subject   = string
    date      = optional(string)
  }
}

tool "read_file" {
  operation = "read"
  params = {
    file_path = string
  }
}

tool "update_scheduled_transaction" {
  operation = "update"
  params = {
    id        = int
    recipient = optional(string)
    recurring = optional(bool)
    tags      = list(map(string))
    meta      = object({ source = string, score = optional(double), extra = any })
  }
}

tool "get_balance" {
  operation = "read"
}
