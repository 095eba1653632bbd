package stdlib

import (
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"

	"github.com/tenetlang/tenet/stdlib/regexcost"
)

// trackMatches charges matches(s, re) regexcost.Work(len(s) in bytes, re's
// program size).
func trackMatches(c *regexcost.Sizes, args []ref.Val) *uint64 {
	x := uint64(1)
	if len(args) == 2 {
		n, _ := strLen(args[0])
		if re, ok := args[1].(types.String); ok {
			x = regexcost.Work(n, c.Size(string(re)))
		}
	}
	return &x
}
