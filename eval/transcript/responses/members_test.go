package responses

import (
	"encoding/json"
	"testing"
)

// fullResponse is a Response object with every top-level member the
// OpenAI Python SDK's Response type has (src/openai/types/responses/
// response.py), with values of the shapes the API returns, plus the
// members live responses carry beyond the type (tool_usage, billing,
// frequency_penalty, presence_penalty, store; Azure's content_filters).
func fullResponse() map[string]any {
	var m map[string]any
	err := json.Unmarshal([]byte(`{
	"id": "resp_9", "object": "response", "created_at": 1760000000, "completed_at": 1760000003,
	"status": "completed", "error": null, "incomplete_details": null, "background": false,
	"instructions": "Be brief.", "model": "gpt-demo", "metadata": {"task": "t1"},
	"input": [{"role": "user", "content": "Weather in Oslo?"}],
	"output": [{"type": "message", "id": "msg_9", "role": "assistant", "status": "completed",
		"content": [{"type": "output_text", "text": "Rainy.", "annotations": [], "logprobs": []}]}],
	"parallel_tool_calls": true, "max_tool_calls": null, "max_output_tokens": null,
	"temperature": 1.0, "top_p": 1.0, "top_logprobs": 0, "truncation": "disabled",
	"tool_choice": "auto", "tools": [{"type": "web_search", "search_context_size": "medium"}],
	"previous_response_id": null, "conversation": {"id": "conv_9"},
	"prompt": {"id": "pmpt_9", "version": "2", "variables": {"city": {"type": "input_text", "text": "Oslo"}}},
	"prompt_cache_key": null, "prompt_cache_retention": null,
	"prompt_cache_options": {"mode": "implicit", "ttl": "30m"},
	"reasoning": {"effort": "low", "summary": null}, "safety_identifier": null,
	"service_tier": "default", "store": true, "user": null,
	"text": {"format": {"type": "text"}, "verbosity": "medium"},
	"moderation": {"input": {"type": "moderation_result", "flagged": false, "model": "omni-moderation",
		"categories": {"violence": false}, "category_scores": {"violence": 0.001},
		"category_applied_input_types": {"violence": ["text"]}},
		"output": {"type": "error", "code": "timeout", "message": "moderation timed out"}},
	"usage": {"input_tokens": 12, "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0},
		"output_tokens": 3, "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 15},
	"tool_usage": {"web_search": {"num_requests": 1}, "image_gen": {"input_tokens": 0, "output_tokens": 0, "total_tokens": 0}},
	"billing": {"payer": "developer"}, "frequency_penalty": 0.0, "presence_penalty": 0.0,
	"content_filters": [{"blocked": false, "source_type": "prompt", "content_filter_offsets": {"check_offset": 0, "start_offset": 0, "end_offset": 40},
		"content_filter_results": {"violence": {"filtered": false, "severity": "safe"}, "jailbreak": {"filtered": false, "detected": false}}}]
	}`), &m)
	if err != nil {
		panic(err)
	}
	return m
}

// TestResponseMembers reads a Response object holding every member a
// real one has: none of them is a call (tool_usage counts the built-in
// tools' requests, max_tool_calls and parallel_tool_calls are settings,
// moderation holds input and output verdicts, not items). Before, the
// reader refused tool_usage as a call shape.
func TestResponseMembers(t *testing.T) {
	data, _ := json.Marshal(fullResponse())
	rn := decodeOK(t, string(data))
	events, calls := summary(rn)
	check(t, "events", events, []string{"system|Be brief.|||false||", "user|Weather in Oslo?|||false||", "assistant|Rainy.|||false||"})
	check(t, "calls", calls, []string(nil))
	check(t, "meta", rn.Meta, map[string]any{"task": "t1"})
	check(t, "record tool_usage", rn.Record["tool_usage"].(map[string]any)["web_search"], map[string]any{"num_requests": 1.0})
}
