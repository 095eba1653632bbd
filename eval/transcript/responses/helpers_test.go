package responses

import (
	"fmt"
	"strconv"
)

func bstr(b bool) string { return strconv.FormatBool(b) }
func itoa(i int) string  { return strconv.Itoa(i) }
func jsonish(m map[string]any) string {
	return fmt.Sprint(m)
}
