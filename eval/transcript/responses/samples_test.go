package responses

import (
	"bufio"
	"os"
	"testing"
)

func sampleLines(t *testing.T) []string {
	t.Helper()
	f, err := os.Open("testdata/samples.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return lines
}

// TestSamples reads the samples built from openai-python's types and the
// API reference's examples: each record's events and calls exactly.
func TestSamples(t *testing.T) {
	lines := sampleLines(t)
	if len(lines) != 6 {
		t.Fatalf("%d sample lines, want 6", len(lines))
	}
	rn, skip, msg := Decode([]byte(lines[0]))
	check(t, "header", []any{rn == nil, skip, msg}, []any{true, true, ""})

	// A Response object: reasoning, a web search the platform ran, the
	// answer with a citation.
	rn = decodeOK(t, lines[1])
	events, calls := summary(rn)
	check(t, "response events", events, []string{
		"assistant||||false||",
		"assistant||||false||",
		"assistant|A river was cleaned up.|||false||",
	})
	check(t, "response calls", calls, []string{
		"ws_01|web_search_call|map[action:map[query:positive news today type:search]]|true||||1|1|0|",
	})
	check(t, "response output", rn.Output, "A river was cleaned up.")
	check(t, "reasoning summary kept", rn.Events[0].Blocks[0].(map[string]any)["summary"].([]any)[0].(map[string]any)["text"], "The user wants news; search the web.")

	// A request logged with its response: two calls requested, none ran.
	rn = decodeOK(t, lines[2])
	events, calls = summary(rn)
	check(t, "request events", events, []string{
		"user|What is the weather in Paris and in Oslo?|||false||",
		"assistant||||false||",
		"assistant||||false||",
	})
	check(t, "request calls", calls, []string{
		"call_a|get_weather|map[city:Paris]|false||||-1|1|0|",
		"call_b|get_weather|map[city:Oslo]|false||||-1|2|0|",
	})
	check(t, "request meta", rn.Meta, map[string]any{"task": "weather"})

	// The conversation as items: results out of order, matched by call_id.
	rn = decodeOK(t, lines[3])
	events, calls = summary(rn)
	check(t, "items events", events, []string{
		"user|What is the weather in Paris and in Oslo?|||false||",
		"assistant||||false||",
		"assistant||||false||",
		"tool|Oslo: 2C|call_b|get_weather|false||",
		"tool|Paris: 14C|call_a|get_weather|false||",
		"assistant|Paris 14C, Oslo 2C.|||false||",
	})
	check(t, "items calls", calls, []string{
		"call_a|get_weather|map[city:Paris]|true||Paris: 14C||4|1|0|",
		"call_b|get_weather|map[city:Oslo]|true||Oslo: 2C||3|2|0|",
	})

	// Computer, local shell and custom tools: outputs by call_id (the
	// local shell output names the call by id); a harness's error field.
	rn = decodeOK(t, lines[4])
	_, calls = summary(rn)
	check(t, "client tools", calls, []string{
		"call_c1|computer_call|map[action:map[button:left type:click x:156 y:50] pending_safety_checks:[]]|true||||2|1|0|",
		"call_s1|local_shell_call|map[action:map[command:[ls -l] env:map[] timeout_ms:1000 type:exec]]|true||{\"stdout\": \"a.txt\"}||4|3|0|",
		"call_p1|code_exec|map[input:print(1)]|false||Traceback: boom|NameError|6|5|0|",
	})

	// MCP and the platform's tools; a refusal is the answer's text.
	rn = decodeOK(t, lines[5])
	events, calls = summary(rn)
	check(t, "mcp events", events, []string{
		"system|Use the dice server.|||false||",
		"developer|Be brief.|||false||",
		"user|Roll 2d4+1, then run the sum script.|||false||",
		"system||||false||",
		"assistant||||false||",
		"user||||false||",
		"assistant||||false||",
		"assistant||||false||",
		"assistant||||false||",
		"assistant||||false||",
		"assistant|I can't show that image.|||false||",
	})
	check(t, "mcp calls", calls, []string{
		"mcp_1|roll|map[diceRollExpression:2d4 + 1]|true||4||6|6|0|",
		"mcp_2|roll|map[]|false|||server unavailable|7|7|0|",
		"ci_1|code_interpreter_call|map[code:print(2+2) container_id:cntr_1]|true||4||8|8|0|",
		"ig_1|image_generation_call|map[]|false|the image_generation_call has status \"generating\": whether it ran is unknown|||9|9|0|",
	})
	check(t, "mcp output", rn.Output, "I can't show that image.")
}

// TestInstructionsItemsAndNested: instructions given as items (a prompt
// template's, as a Response object echoes them), OpenAI's "functions."
// prefix, and a call nested in a function_call's arguments.
func TestInstructionsItemsAndNested(t *testing.T) {
	rn := decodeOK(t, `{"instructions": [{"type": "message", "role": "developer", "content": [{"type": "input_text", "text": "Be careful."}]}], "output": [{"type": "function_call", "call_id": "c1", "name": "functions.run_plan", "arguments": "{\"steps\": [{\"function\": \"send_money\", \"args\": {\"to\": \"attacker\"}}]}"}, {"type": "function_call_output", "call_id": "c1", "output": "done"}]}`)
	events, calls := summary(rn)
	check(t, "events", events, []string{
		"developer|Be careful.|||false||",
		"assistant||||false||",
		"tool|done|c1|run_plan|false||",
	})
	check(t, "calls", calls, []string{
		`c1|run_plan|map[steps:[map[args:map[to:attacker] function:send_money]]]|true||done||2|1|0|the call names the tool "functions.run_plan" (OpenAI's namespace prefix "functions." removed)`,
		"|send_money|map[to:attacker]|false||||-1|1|1|",
	})
	check(t, "parent", rn.Calls[1].Parent, 0)
}
