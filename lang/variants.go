package lang

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/tenetlang/tenet/lang/diag"
)

// withVariants adds the variant block to a criterion block's schema.
func withVariants(blocks []hcl.BlockHeaderSchema) []hcl.BlockHeaderSchema {
	return append(append([]hcl.BlockHeaderSchema(nil), blocks...), hcl.BlockHeaderSchema{Type: "variant", LabelNames: []string{"name"}})
}

// variants decodes the variant blocks of a task or goal; attr names the
// criterion attribute a variant replaces (LabelUtility or "success").
func (d *decoder) variants(c *hcl.BodyContent, attr string) []*Variant {
	schema := &hcl.BodySchema{Attributes: attrs([]string{"when", attr})}
	var out []*Variant
	seen := map[string]hcl.Range{}
	for _, b := range c.Blocks {
		if b.Type != "variant" {
			continue
		}
		vc := d.content(b.Body, schema)
		v := &Variant{
			Name:      d.label(b, "name", false),
			When:      d.criterion(vc.Attributes["when"]),
			Criterion: d.criterion(vc.Attributes[attr]),
			Range:     b.DefRange,
		}
		if prev, dup := seen[v.Name.Value]; dup && v.Name.Value != "" {
			d.errorf(diag.DuplicateName, b.DefRange, "Duplicate variant",
				"This block already has a variant %q at %s; each variant needs a distinct name.", v.Name.Value, at(prev))
			continue
		}
		seen[v.Name.Value] = b.DefRange
		out = append(out, v)
	}
	return out
}
