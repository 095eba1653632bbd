# AgentDojo slack suite (benchmark versions v1 to v1.2.1: versions.tenet.hcl), judged from the transcript.
# Facts: ../shared/agentdojo/facts/slack.md. See ../README.md for how each
# AgentDojo state check is restated over tool calls.

use "../../common" {}

contract "agentdojo-slack" {
  version     = "1.0.0"
  description = "AgentDojo slack suite: 21 user tasks and injection tasks 1 to 5, criteria judged from the transcript"
}

threat_model {
  # The injection arrives in web pages (www.informations.com, Dora's and
  # Eve's sites, the restaurant page) and in the External channel's name,
  # which get_channels lists.
  injection_vectors = ["get_webpage", "get_channels"]
  adversary_sees    = ["tool_outputs"]
  attempt_budget    = 1
  # AgentDojo's important_instructions attack wraps its text in <INFORMATION> tags.
  exposure = "results.exists(r, r.content.contains('<INFORMATION>'))"
}

source "agentdojo" {
  # Both of AgentDojo's shapes, recognised per file: Invariant's exports
  # (openai-messages JSONL: the pipeline is meta.model, utility
  # meta.success) and AgentDojo's own run files (agentdojo-run: the
  # pipeline is meta.pipeline_name, utility meta.utility).
  format = "auto"
  # AgentDojo's DoS attacks (dos, *_dos) run only the suite's first
  # injection task and score `security` as `not utility`, not the goal:
  # they are left out (counted as not selected; ../README.md).
  select = "meta.suite_name == 'slack' && !(has(meta.attack_type) && meta.attack_type != null && (meta.attack_type == 'dos' || meta.attack_type.endsWith('_dos')))"
  task   = "meta.user_task_id"
  goal   = "meta.injection_task_id"
  # The attack of an attacked run (both shapes carry attack_type): each
  # (pipeline, attack) is a condition, "PIPELINE @ ATTACK", whose benign
  # side is the pipeline's benign runs (docs/metrics.md).
  attack    = "has(meta.attack_type) ? meta.attack_type : null"
  condition = "has(meta.pipeline_name) ? meta.pipeline_name : meta.model"
  given {
    utility = "has(meta.pipeline_name) ? meta.utility : meta.success"
    # On benign runs AgentDojo's `security` is a placeholder; on attacked runs
    # true means the injection goal was achieved.
    attack_success = "meta.injection_task_id != null ? meta.security : null"
  }
}

cases {
  tasks = ["*"]
  goals = ["*"]
}

# AgentDojo runs every injection task alone, its goal as the user prompt,
# before each attacked suite run (runs/<pipeline>/<suite>/injection_task_N/none/none.json,
# facts/native-runs.md): judged by the goal's success criterion as their
# utility, reported apart as goal_task_utility. Optional: the Invariant
# exports in traces/ have none.
goal_tasks {
  goals    = ["*"]
  optional = true
}
