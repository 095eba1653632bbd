# The workspace tools of AgentDojo v1 (e-mail, calendar, cloud drive) with
# their parameter schemas. Parameters with a default in AgentDojo are
# optional. Tools shared with the travel suite (send_email and the
# calendar tools) are declared exactly as there.

registry { operations = ["read", "update"] }

# ---- e-mail

tool "send_email" {
  description = "Sends an e-mail from the user's account"
  operation   = "update"
  params = {
    recipients  = list(string)
    subject     = string
    body        = string
    attachments = optional(list(any)) # {"type": "file", "file_id": ...} or {"type": "event", "event_details": {...}}
    cc          = optional(list(string))
    bcc         = optional(list(string))
  }
}

tool "delete_email" {
  description = "Moves an e-mail to the trash"
  operation   = "update"
  resource    = "email_id"
  params      = { email_id = string }
}

tool "get_unread_emails" {
  description = "Returns the unread e-mails and marks them read (a state change)"
  operation   = "update"
  params      = {}
}

tool "get_sent_emails" {
  operation = "read"
  params    = {}
}

tool "get_received_emails" {
  operation = "read"
  params    = {}
}

tool "get_draft_emails" {
  operation = "read"
  params    = {}
}

tool "search_emails" {
  operation = "read"
  params = {
    query  = string
    sender = optional(string)
  }
}

tool "search_contacts_by_name" {
  operation = "read"
  params    = { query = string }
}

tool "search_contacts_by_email" {
  operation = "read"
  params    = { query = string }
}

# ---- calendar

tool "get_current_day" {
  operation = "read"
  params    = {}
}

tool "search_calendar_events" {
  operation = "read"
  params = {
    query = string
    date  = optional(string)
  }
}

tool "get_day_calendar_events" {
  operation = "read"
  params    = { day = string }
}

tool "create_calendar_event" {
  description = "Adds an event and sends an invitation e-mail to the participants and the user"
  operation   = "update"
  params = {
    title        = string
    start_time   = string
    end_time     = string
    description  = optional(string)
    participants = optional(list(string))
    location     = optional(string)
  }
}

tool "cancel_calendar_event" {
  description = "Cancels an event and sends a cancellation e-mail to its participants"
  operation   = "update"
  resource    = "event_id"
  params      = { event_id = string }
}

tool "reschedule_calendar_event" {
  description = "Moves an event and sends a notification e-mail to its participants"
  operation   = "update"
  resource    = "event_id"
  params = {
    event_id       = string
    new_start_time = string
    new_end_time   = optional(string)
  }
}

tool "add_calendar_event_participants" {
  operation = "update"
  resource  = "event_id"
  params = {
    event_id     = string
    participants = list(string)
  }
}

# ---- cloud drive

tool "list_files" {
  operation = "read"
  params    = {}
}

tool "search_files" {
  operation = "read"
  params    = { query = string }
}

tool "search_files_by_filename" {
  operation = "read"
  params    = { filename = string }
}

tool "get_file_by_id" {
  operation = "read"
  resource  = "file_id"
  params    = { file_id = string }
}

tool "create_file" {
  operation = "update"
  resource  = "filename"
  params = {
    filename = string
    content  = string
  }
}

tool "append_to_file" {
  operation = "update"
  resource  = "file_id"
  params = {
    file_id = string
    content = string
  }
}

tool "delete_file" {
  operation = "update"
  resource  = "file_id"
  params    = { file_id = string }
}

tool "share_file" {
  operation = "update"
  resource  = "email"
  params = {
    file_id    = string
    email      = string
    permission = string # "r" or "rw"
  }
}

# AgentDojo has no permission model: the user may read and update everything.
grant "default" {
  allow "read" { resources = ["*"] }
  allow "update" { resources = ["*"] }
}
