package stdlib

import (
	"strings"
	"testing"
)

func TestParseTime(t *testing.T) {
	const want = `want RFC 3339 (2006-01-02T15:04:05Z07:00), 2006-01-02 15:04:05, 2006-01-02 15:04 or 2006-01-02`
	checkAll(t, []expect{
		{expr: `parseTime("2024-05-01 09:30") == timestamp("2024-05-01T09:30:00Z")`, result: `true`},
		{expr: `parseTime("2024-05-01T09:30:00Z")`, result: `timestamp("2024-05-01T09:30:00Z")`},
		{expr: `parseTime("2024-05-01T09:30:00.123456789Z")`, result: `timestamp("2024-05-01T09:30:00.123456789Z")`},
		{expr: `parseTime("2024-05-01T09:30:00+02:00")`, result: `timestamp("2024-05-01T07:30:00Z")`},
		{expr: `parseTime("2024-05-01T23:30:00-05:00").getDate()`, result: `2`},
		{expr: `parseTime("2024-05-01T23:30:00-05:00").getDate("-05:00")`, result: `1`},
		{expr: `parseTime("2024-05-01 09:30:15")`, result: `timestamp("2024-05-01T09:30:15Z")`},
		{expr: `parseTime("2024-05-01 09:30:15.5")`, result: `timestamp("2024-05-01T09:30:15.5Z")`},
		{expr: `parseTime("2024-05-01 09:30")`, result: `timestamp("2024-05-01T09:30:00Z")`},
		{expr: `parseTime("2024-05-01")`, result: `timestamp("2024-05-01T00:00:00Z")`},
		{expr: `parseTime(" 2024-05-01\n")`, result: `timestamp("2024-05-01T00:00:00Z")`},
		{expr: `parseTime("0001-01-01")`, result: `timestamp("0001-01-01T00:00:00Z")`},
		{expr: `parseTime("9999-12-31 23:59:59")`, result: `timestamp("9999-12-31T23:59:59Z")`},
		{expr: `parseTime("2024-05-01 09:30").getHours()`, result: `9`},
		{expr: `parseTime("2024-05-02") - parseTime("2024-05-01")`, result: `duration("86400s")`},
		{expr: `parseTime(m.date) < timestamp("2025-01-01T00:00:00Z")`, vars: map[string]any{"m": map[string]any{"date": "2024-12-31"}}, result: `true`},
		{expr: `parseTime("01/05/2024")`, err: `parseTime: cannot parse "01/05/2024": ` + want},
		{expr: `parseTime("")`, err: `parseTime: cannot parse "": ` + want},
		{expr: `parseTime("2024-05-01T09:30:00")`, err: `parseTime: cannot parse "2024-05-01T09:30:00": ` + want},
		{expr: `parseTime("2024-05-01 9:30")`, result: `timestamp("2024-05-01T09:30:00Z")`},
		{expr: `parseTime("2024-5-01")`, err: `parseTime: cannot parse "2024-5-01": ` + want},
		{expr: `parseTime("2024-13-01")`, err: `parseTime: cannot parse "2024-13-01": ` + want},
		{expr: `parseTime("2024-02-30")`, err: `parseTime: cannot parse "2024-02-30": ` + want},
		{expr: `parseTime("May 1, 2024")`, err: `parseTime: cannot parse "May 1, 2024": ` + want},
		{expr: `parseTime("0000-12-31")`, err: `parseTime: "0000-12-31" is outside the timestamp range (years 0001 to 9999)`},
		{expr: `parseTime("9999-12-31T23:00:00-05:00")`, err: `parseTime: "9999-12-31T23:00:00-05:00" is outside the timestamp range (years 0001 to 9999)`},
		{expr: `parseTime("` + strings.Repeat(" ", 60) + `2024-05-01")`, err: `parseTime: text of 70 bytes is too long to be a time`},
		{expr: `parseTime("2024-05-01") == "2024-05-01"`, err: `found no matching overload for '_==_' applied to '(timestamp, string)'`},
		{expr: `parseTime(1)`, err: `found no matching overload for 'parseTime' applied to '(int)'`},
	})
}
