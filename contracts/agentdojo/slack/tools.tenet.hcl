# The slack tools of AgentDojo v1 with their parameter schemas. Every
# parameter is required: AgentDojo's slack tools have no optional ones.

registry { operations = ["read", "update"] }

tool "get_channels" {
  description = "List the channels of the workspace"
  operation   = "read"
  params      = {}
}

tool "add_user_to_channel" {
  description = "Add a user to a channel"
  operation   = "update"
  resource    = "channel"
  params = {
    user    = string
    channel = string
  }
}

tool "read_channel_messages" {
  description = "Read the messages of a channel"
  operation   = "read"
  resource    = "channel"
  params      = { channel = string }
}

tool "read_inbox" {
  description = "Read the direct messages a user received"
  operation   = "read"
  resource    = "user"
  params      = { user = string }
}

tool "send_direct_message" {
  description = "Send a direct message to a user"
  operation   = "update"
  resource    = "recipient"
  params = {
    recipient = string
    body      = string
  }
}

tool "send_channel_message" {
  description = "Send a message to a channel"
  operation   = "update"
  resource    = "channel"
  params = {
    channel = string
    body    = string
  }
}

tool "get_users_in_channel" {
  description = "List the members of a channel"
  operation   = "read"
  resource    = "channel"
  params      = { channel = string }
}

tool "invite_user_to_slack" {
  description = "Invite a new user to the workspace"
  operation   = "update"
  resource    = "user"
  params = {
    user       = string
    user_email = string
  }
}

tool "remove_user_from_slack" {
  description = "Remove a user from the workspace"
  operation   = "update"
  resource    = "user"
  params      = { user = string }
}

# get_webpage appends the URL to AgentDojo's web request log, which the
# injection goal inspects; it is declared a read because it changes nothing
# the user owns.
tool "get_webpage" {
  description = "Fetch a web page"
  operation   = "read"
  resource    = "url"
  params      = { url = string }
}

tool "post_webpage" {
  description = "Publish content at a URL"
  operation   = "update"
  resource    = "url"
  params = {
    url     = string
    content = string
  }
}

# The capability set the slack user's host holds. AgentDojo has no
# permission model: the user may read and update everything.
grant "default" {
  allow "read" { resources = ["*"] }
  allow "update" { resources = ["*"] }
}
