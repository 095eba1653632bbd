package stdlib

import (
	"fmt"
	"strings"
	"time"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/cost"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
)

// overloadParseTime is the overload id of parseTime.
const overloadParseTime = "tenet_parsetime_string"

// maxTimeText is the longest string (in bytes, before trimming) parseTime
// reads; it keeps parseTime's cost constant.
const maxTimeText = 64

// The layouts parseTime accepts, tried in this order.
const (
	layoutRFC3339 = time.RFC3339
	layoutSeconds = "2006-01-02 15:04:05"
	layoutMinutes = "2006-01-02 15:04"
	layoutDate    = "2006-01-02"
)

// The range of google.protobuf.Timestamp, as Unix seconds.
const (
	minTimestampSeconds = -62135596800 // 0001-01-01T00:00:00Z
	maxTimestampSeconds = 253402300799 // 9999-12-31T23:59:59Z
)

// parseTime parses a date or a date and time into a timestamp.
//
//	parseTime(string) -> google.protobuf.Timestamp
//
// After trimming ASCII white space the text must match one of
//
//	2006-01-02T15:04:05Z07:00  RFC 3339, with a zone (Z or ±hh:mm)
//	2006-01-02 15:04:05        taken as UTC
//	2006-01-02 15:04           taken as UTC
//	2006-01-02                 midnight UTC
//
// Seconds may carry a fraction (".5", up to nanoseconds) in both layouts with
// seconds, and the hour may have one digit, as Go's time.Parse allows.
//
// Errors: any other text fails with
// `parseTime: cannot parse "<text>": want RFC 3339 (2006-01-02T15:04:05Z07:00), 2006-01-02 15:04:05, 2006-01-02 15:04 or 2006-01-02`;
// a time outside years 0001 to 9999 (after conversion to UTC) with
// `parseTime: "<text>" is outside the timestamp range (years 0001 to 9999)`;
// a text longer than 64 bytes with "parseTime: text of <n> bytes is too long to be a time".
//
// Example:
//
//	parseTime("2024-05-01 09:30") == timestamp("2024-05-01T09:30:00Z") // true
//
// Cost: constant.
func parseTime(text ref.Val) ref.Val {
	s := string(text.(types.String))
	if len(s) > maxTimeText {
		return types.NewErrFromString(fmt.Sprintf("parseTime: text of %d bytes is too long to be a time", len(s)))
	}
	t := strings.Trim(s, asciiSpace)
	for _, layout := range [...]string{layoutRFC3339, layoutSeconds, layoutMinutes, layoutDate} {
		parsed, err := time.Parse(layout, t)
		if err != nil {
			continue
		}
		if sec := parsed.Unix(); sec < minTimestampSeconds || sec > maxTimestampSeconds {
			return types.NewErrFromString(fmt.Sprintf("parseTime: %s is outside the timestamp range (years 0001 to 9999)", quoteShort(s)))
		}
		return types.Timestamp{Time: parsed.UTC()}
	}
	return types.NewErrFromString(fmt.Sprintf("parseTime: cannot parse %s: want RFC 3339 (%s), %s, %s or %s",
		quoteShort(s), layoutRFC3339, layoutSeconds, layoutMinutes, layoutDate))
}

func parseTimeSpec() spec {
	d := FunctionDoc{
		Name:       "parseTime",
		Kind:       "function",
		Signatures: []Signature{{Overload: overloadParseTime, Text: "parseTime(string) -> google.protobuf.Timestamp"}},
		Summary:    "Parses a date, or a date and time, in RFC 3339 or a common layout into a timestamp.",
		Semantics: []string{
			"After trimming ASCII white space the text must match one of: RFC 3339 with a zone (`2006-01-02T15:04:05Z07:00`, zone `Z` or `±hh:mm`); `2006-01-02 15:04:05`; `2006-01-02 15:04`; `2006-01-02` (midnight). Layouts without a zone are taken as UTC.",
			"Seconds may carry a fraction (up to nanoseconds); as with Go's time.Parse, the hour may have one digit. The timestamp is the instant the text denotes; compare it with timestamp(...) literals or other timestamps, and read fields with getHours() and friends (UTC unless given a zone).",
		},
		Errors: []string{
			"`parseTime: cannot parse \"<text>\": want RFC 3339 (2006-01-02T15:04:05Z07:00), 2006-01-02 15:04:05, 2006-01-02 15:04 or 2006-01-02` for any other text.",
			"`parseTime: \"<text>\" is outside the timestamp range (years 0001 to 9999)` for a time outside google.protobuf.Timestamp's range (after conversion to UTC).",
			"`parseTime: text of <n> bytes is too long to be a time` for a text longer than 64 bytes.",
		},
		Examples: []Example{
			{Expr: `parseTime("2024-05-01 09:30") == timestamp("2024-05-01T09:30:00Z")`, Result: "true"},
			{Expr: `parseTime("2024-05-01T09:30:00+02:00")`, Result: `timestamp("2024-05-01T07:30:00Z")`},
			{Expr: `parseTime("2024-05-01 09:30:15.5")`, Result: `timestamp("2024-05-01T09:30:15.5Z")`},
			{Expr: `parseTime(" 2024-05-01\n")`, Result: `timestamp("2024-05-01T00:00:00Z")`},
			{Expr: `parseTime("2024-05-01 09:30").getHours()`, Result: "9"},
			{Expr: `parseTime("01/05/2024")`, Error: `parseTime: cannot parse "01/05/2024": want RFC 3339 (2006-01-02T15:04:05Z07:00), 2006-01-02 15:04:05, 2006-01-02 15:04 or 2006-01-02`},
			{Expr: `parseTime("0000-12-31")`, Error: `parseTime: "0000-12-31" is outside the timestamp range (years 0001 to 9999)`},
		},
		Cost: "Constant: 1 plus a string scan of at most 64 characters.",
	}
	return spec{
		doc: d,
		decl: cel.Function("parseTime", cel.FunctionDocs(d.Summary),
			cel.Overload(overloadParseTime, []*cel.Type{cel.StringType}, cel.TimestampType,
				cel.OverloadExamples(examplesOf(d)...),
				cel.UnaryBinding(parseTime))),
		models: []cost.OverloadModel{
			cost.Overload(overloadParseTime,
				cost.EvalCost(cost.Sum(cost.Const(cost.CallCost),
					cost.StringScan(cost.Min(cost.Length(cost.Arg(0)), cost.Const(maxTimeText)))))),
		},
	}
}
