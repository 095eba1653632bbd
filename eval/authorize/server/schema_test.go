package server_test

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/tenetlang/tenet/eval/authorize/server"
	"github.com/tenetlang/tenet/eval/authorize/session"
)

const schemaFile = "../../../docs/authorize.schema.json"

func def(t *testing.T, c *jsonschema.Compiler, name string) *jsonschema.Schema {
	t.Helper()
	sch, err := c.Compile(schemaFile + "#/$defs/" + name)
	if err != nil {
		t.Fatalf("compile %s: %v", name, err)
	}
	return sch
}

func validate(t *testing.T, sch *jsonschema.Schema, body string) error {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(body))
	if err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	return sch.Validate(v)
}

// TestSchema sends real requests to the handler and validates both
// bodies against docs/authorize.schema.json: each request against its
// endpoint's request definition, each response against its endpoint's
// response definition (200) or ErrorResponse.
func TestSchema(t *testing.T) {
	c := jsonschema.NewCompiler()
	h := newHarness(t, mailEngine(t, readThenSend{}, session.Closed), server.Config{})
	errSchema := def(t, c, "ErrorResponse")
	read := `{"name":"read_inbox","arguments":{}}`
	for _, tc := range []struct {
		method, path, req, reqDef, respDef string
	}{
		{"POST", "/v1/authorize", `{"grant":"reader","call":` + read + `,"session":"r1"}`, "AuthorizeRequest", "AuthorizeResponse"},
		{"POST", "/v1/authorize", `{"grant":"reader","call":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"send_email","arguments":{"to":"eve"}}}}`, "AuthorizeRequest", "AuthorizeResponse"},
		{"POST", "/v1/authorize", `{"grant":"assistant","call":{"type":"tool_use","id":"t","name":"send_email","input":{"to":3}}}`, "AuthorizeRequest", "AuthorizeResponse"},
		{"POST", "/v1/authorize", `{"grant":"assistant","call":{"type":"function","id":"c","function":{"name":"nope","arguments":"{}"}}}`, "AuthorizeRequest", "AuthorizeResponse"},
		{"POST", "/v1/sessions/s1/calls", `{"grant":"assistant","task":"t","offset":0,"messages":[` + userMsg + `,` + readCall + `,` + readReply + `],"call":` + sendBob + `}`, "SessionCallRequest", "SessionCallResponse"},
		{"POST", "/v1/sessions/s1/calls", `{"offset":3,"messages":[],"call":{"name":"read_inbox","arguments":{"x":{"name":"send_email","arguments":{"to":"bob"}}}}}`, "SessionCallRequest", "SessionCallResponse"},
		{"POST", "/v1/sessions/s1/calls", `{"offset":9,"call":` + read + `}`, "SessionCallRequest", ""},
		{"POST", "/v1/sessions/s2/calls", `{"grant":"reader","messages":[` + userMsg + `,` + readCall + `],"call":{"id":"r1","name":"read_inbox","arguments":{}}}`, "SessionCallRequest", "SessionCallResponse"},
		{"POST", "/v1/sessions/s3/calls", `{"grant":"reader","messages":[` + userMsg + `,` + readCall + `],"call":` + read + `}`, "SessionCallRequest", ""},
		{"POST", "/v1/authorize", `{"grant":"nobody","call":` + read + `}`, "AuthorizeRequest", ""},
		{"GET", "/v1/bundle", ``, "", "BundleResponse"},
		{"GET", "/health", ``, "", "HealthResponse"},
		{"GET", "/v1/nothing", ``, "", ""},
	} {
		if tc.reqDef != "" {
			if err := validate(t, def(t, c, tc.reqDef), tc.req); err != nil {
				t.Errorf("request %s does not fit %s: %v", tc.req, tc.reqDef, err)
			}
		}
		status, body := h.do(tc.method, tc.path, "application/json", tc.req)
		sch := errSchema
		if tc.respDef != "" {
			if status != 200 {
				t.Errorf("%s %s: %d %s", tc.method, tc.path, status, body)
				continue
			}
			sch = def(t, c, tc.respDef)
		} else if status == 200 {
			t.Errorf("%s %s: 200, want an error", tc.method, tc.path)
		}
		if err := validate(t, sch, body); err != nil {
			t.Errorf("response %s does not fit: %v", body, err)
		}
	}
	// The schema can refuse: a misspelt member, a call of no shape, a
	// response with a code the API does not have.
	for _, tc := range []struct{ def, body string }{
		{"AuthorizeRequest", `{"cal":` + read + `}`},
		{"SessionCallRequest", `{"call":{"tool":"x"}}`},
		{"SessionCallRequest", `{"offset":-1,"call":` + read + `}`},
		{"ErrorResponse", `{"error":"x","code":"teapot"}`},
	} {
		if validate(t, def(t, c, tc.def), tc.body) == nil {
			t.Errorf("%s accepts %s", tc.def, tc.body)
		}
	}
}

// TestSchemaErrorCodes: the schema's list of codes is the API's.
func TestSchemaErrorCodes(t *testing.T) {
	data, err := os.ReadFile(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Defs struct {
			ErrorResponse struct {
				Properties struct {
					Code struct {
						Enum []string `json:"enum"`
					} `json:"code"`
				} `json:"properties"`
			} `json:"ErrorResponse"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	var codes []string
	for _, c := range server.Codes() {
		codes = append(codes, string(c))
	}
	if got := doc.Defs.ErrorResponse.Properties.Code.Enum; !slices.Equal(got, codes) {
		t.Errorf("schema codes %v\n   API codes %v", got, codes)
	}
}
