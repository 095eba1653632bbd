contract "fmt" {
  version = "0.1.0"
}
threat_model {}
source "s" {
  format = "openai-messages"
  task   = "'t'"
  condition = "'m'"
}
task "t" {
  prompt = "x"
  utility = "lists.range(40).fold(s, output, i, '%s%s'.format([s, s])).size() == 0"
}
