package runs

import (
	"strings"
	"testing"
)

// TestExcerptField: the optional excerpt reads back as written, and an
// excerpt out of its bounds or shape is refused with what is wrong.
func TestExcerptField(t *testing.T) {
	base := `{"condition":"m","task":"t","goal":null,"attempt":1,"repetition":1,"labels":{"utility":true}`
	recs, err := Read("runs.jsonl", strings.NewReader(base+`,"excerpt":{"call:0":"send_money(x=1) → ok","event:12":"user: hi"}}`+"\n"+strings.Replace(base, `"t"`, `"u"`, 1)+"}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := recs[0].Excerpt; len(got) != 2 || got["call:0"] != "send_money(x=1) → ok" || got["event:12"] != "user: hi" {
		t.Errorf("excerpt %q", got)
	}
	if recs[1].Excerpt != nil {
		t.Errorf("a record without excerpt reads as %q, want nil", recs[1].Excerpt)
	}
	var b strings.Builder
	if err := Write(&b, recs[:1]); err != nil {
		t.Fatal(err)
	}
	if want := base + `,"excerpt":{"call:0":"send_money(x=1) → ok","event:12":"user: hi"}}` + "\n"; b.String() != want {
		t.Errorf("written\n%s\nwant\n%s", b.String(), want)
	}
	for _, c := range []struct{ excerpt, want string }{
		{`{"step":"x"}`, `excerpt item "step", want "event:N" or "call:N"`},
		{`{"call:1":3}`, `excerpt.call:1 is a number, want a string`},
		{`{"call:1":null}`, `excerpt.call:1 is null, want a string`},
		{`["call:1"]`, `field excerpt is an array, want an object`},
		{`{"call:1":"` + strings.Repeat("x", MaxExcerptText+1) + `"}`, `excerpt.call:1 is 321 bytes, above the maximum of 320 (runs.MaxExcerptText)`},
	} {
		_, err := Read("runs.jsonl", strings.NewReader(base+`,"excerpt":`+c.excerpt+"}\n"))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("excerpt %.60s: error %v, want %q", c.excerpt, err, c.want)
		}
	}
	ex := map[string]string{}
	for i := range MaxExcerptItems + 1 {
		ex["event:"+strings.Repeat("1", i+1)] = "x"
	}
	r := recs[1]
	r.Excerpt = ex
	if err := r.Validate(); err == nil || !strings.Contains(err.Error(), "excerpt has 17 items, above the maximum of 16") {
		t.Errorf("17 items: %v", err)
	}
	r.Excerpt = map[string]string{"call:1": "\xff"}
	if err := Encodable(r); err == nil || !strings.Contains(err.Error(), "excerpt.call:1 is not valid UTF-8") {
		t.Errorf("invalid UTF-8: %v", err)
	}
}
