package bundle

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"reflect"

	"github.com/fxamacker/cbor/v2"
)

// envelope is the CBOR value that follows Magic. Integer keys keep it small
// and make the format version readable before anything else is trusted.
type envelope struct {
	// Format is unsigned and 64 bits wide, so that any version a future
	// tenet may write is read and named rather than refused as corrupt.
	Format  uint64 `cbor:"1,keyasint"`
	SHA256  []byte `cbor:"2,keyasint"`
	Payload []byte `cbor:"3,keyasint"`
	// Signatures (sign.go) sign the bundle id, not the envelope, so an
	// unsigned and a signed build of one contract have the same id and
	// the same payload bytes. Omitted when empty: an unsigned bundle is
	// byte for byte what it was before signing existed.
	Signatures []signature `cbor:"4,keyasint,omitempty"`
}

// encMode is RFC 8949 core deterministic encoding: sorted map keys, shortest
// forms, no indefinite lengths. Same Bundle value → same bytes.
func encMode() cbor.EncMode {
	m, err := cbor.CoreDetEncOptions().EncMode()
	if err != nil {
		panic(err) // static options: cannot fail
	}
	return m
}

// decMode refuses anything the encoder cannot produce (duplicate keys,
// indefinite lengths, unknown fields) so a tampered payload is not
// silently reinterpreted.
func decMode() cbor.DecMode {
	m, err := cbor.DecOptions{
		DupMapKey:         cbor.DupMapKeyEnforcedAPF,
		IndefLength:       cbor.IndefLengthForbidden,
		ExtraReturnErrors: cbor.ExtraDecErrorUnknownField,
		DefaultMapType:    reflect.TypeOf(map[string]any(nil)),
		MaxNestedLevels:   64,
	}.DecMode()
	if err != nil {
		panic(err) // static options: cannot fail
	}
	return m
}

// Encode returns the bundle file bytes and the bundle id ("sha256:<hex>").
// The header's FormatVersion is set to FormatVersion.
func Encode(b *Bundle) ([]byte, string, error) {
	b.Header.FormatVersion = FormatVersion
	payload, err := encMode().Marshal(b)
	if err != nil {
		return nil, "", fmt.Errorf("encoding bundle: %w", err)
	}
	sum := sha256.Sum256(payload)
	env, err := encMode().Marshal(envelope{Format: FormatVersion, SHA256: sum[:], Payload: payload})
	if err != nil {
		return nil, "", fmt.Errorf("encoding bundle envelope: %w", err)
	}
	out := make([]byte, 0, len(Magic)+len(env))
	out = append(append(out, Magic...), env...)
	return out, ID(sum[:]), nil
}

// ID renders a payload digest as a bundle id.
func ID(sum []byte) string { return "sha256:" + hex.EncodeToString(sum) }

// MaxFileBytes bounds the size of a bundle file tenet reads: 64 MiB, some
// hundreds of times the largest bundle of a shipped contract. The CLI
// refuses a larger file before reading it.
const MaxFileBytes = 64 << 20

// ErrNotBundle is returned (wrapped) when data does not start with Magic.
var ErrNotBundle = errors.New("not a tenet bundle (bad magic bytes)")

// Decode verifies and decodes a bundle file, returning it and its id.
// It checks, in order: the magic bytes, the envelope, the format version,
// the sha256 of the payload, every signature the envelope carries (against
// the public key recorded with it), and only then decodes the payload.
// Every failure is an error saying which check failed. Decode does not say
// whom to trust: that is Policy's job, with the signers DecodeSigned returns.
func Decode(data []byte) (*Bundle, string, error) {
	b, id, _, err := DecodeSigned(data)
	return b, id, err
}

// DecodeSigned is Decode that also returns the bundle's signers, in the
// envelope's order (none for an unsigned bundle). Each signature has been
// verified against its own public key; whether that key is trusted is
// for Policy.Check to say.
func DecodeSigned(data []byte) (*Bundle, string, []Signer, error) {
	if !bytes.HasPrefix(data, []byte(Magic)) {
		if len(data) == 0 {
			return nil, "", nil, fmt.Errorf("%w: the file is empty", ErrNotBundle)
		}
		if len(data) < len(Magic) && bytes.HasPrefix([]byte(Magic), data) {
			return nil, "", nil, fmt.Errorf("bundle is truncated: %d bytes, less than its magic", len(data))
		}
		return nil, "", nil, ErrNotBundle
	}
	var env envelope
	rest, err := decMode().UnmarshalFirst(data[len(Magic):], &env)
	if err != nil {
		return nil, "", nil, fmt.Errorf("bundle is truncated or corrupt: %v", err)
	}
	if len(rest) > 0 {
		// The envelope is whole and more follows it: something was
		// appended to a bundle (or two files joined), which "truncated or
		// corrupt" would misname. The bytes are not read as part of it.
		n := fmt.Sprintf("%d trailing bytes", len(rest))
		if len(rest) == 1 {
			n = "1 trailing byte"
		}
		return nil, "", nil, fmt.Errorf("bundle has %s after its end (at byte %d of %d): bytes were appended to the bundle file", n, len(data)-len(rest), len(data))
	}
	if env.Format != FormatVersion {
		if env.Format > FormatVersion {
			return nil, "", nil, fmt.Errorf("bundle format version %d is newer than this tenet reads (%d): use a newer tenet or rebuild the bundle", env.Format, FormatVersion)
		}
		return nil, "", nil, fmt.Errorf("bundle format version %d is not supported (this tenet reads %d): rebuild the bundle", env.Format, FormatVersion)
	}
	sum := sha256.Sum256(env.Payload)
	if !bytes.Equal(sum[:], env.SHA256) {
		return nil, "", nil, fmt.Errorf("bundle is corrupt: sha256 of its payload is %s, but it records %s", ID(sum[:]), ID(env.SHA256))
	}
	signers, err := verifySignatures(ID(sum[:]), env.Signatures)
	if err != nil {
		return nil, "", nil, err
	}
	// The envelope must be the one encoding tenet writes, so that what
	// decodes re-encodes to the same bytes (an explicit null or empty
	// signature list, for one, would not).
	if canon, err := encMode().Marshal(env); err != nil || !bytes.Equal(canon, data[len(Magic):]) {
		return nil, "", nil, fmt.Errorf("bundle envelope is not in the deterministic encoding tenet writes: it was not written by tenet")
	}
	var b Bundle
	if err := decMode().Unmarshal(env.Payload, &b); err != nil {
		return nil, "", nil, fmt.Errorf("bundle payload does not decode: %v", err)
	}
	if b.Header.FormatVersion != FormatVersion {
		return nil, "", nil, fmt.Errorf("bundle payload says format version %d, envelope says %d", b.Header.FormatVersion, env.Format)
	}
	if err := b.Validate(); err != nil {
		return nil, "", nil, fmt.Errorf("bundle is inconsistent: %v", err)
	}
	return &b, ID(sum[:]), signers, nil
}

// Validate checks that every expression index in the bundle is in range and
// every expression is in the environment its use requires, so that eval can
// index without further checks.
func (b *Bundle) Validate() error {
	n := len(b.Exprs)
	check := func(what string, i int, optional bool) error {
		if i == NoExpr && optional {
			return nil
		}
		if i < 0 || i >= n {
			return fmt.Errorf("%s refers to expression %d of %d", what, i, n)
		}
		return nil
	}
	var errs []error
	add := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	add(check("threat model exposure", b.Manifest.ThreatModel.Exposure, true))
	for i, e := range b.Exprs {
		add(validUnmetered(i, e, b.Plan.RunCostLimit))
	}
	if len(b.Decls.Scopes) == 0 || b.Decls.Scopes[0].Path != "" {
		errs = append(errs, fmt.Errorf("the first scope must be the contract's own (path \"\")"))
	}
	errs = append(errs, b.validProfiles()...)
	npreds := 0
	for _, t := range b.Decls.Tools {
		for _, f := range t.Params {
			errs = append(errs, validType("tool "+t.Name+" parameter "+f.Name, f.Type)...)
		}
	}
	for _, sc := range b.Decls.Scopes {
		for _, p := range sc.Predicates {
			add(check("predicate "+p.Name, p.Expr, p.Pattern != NoExpr))
			if p.Pattern != NoExpr && (p.Pattern < 0 || p.Pattern >= len(b.Plan.Patterns)) {
				errs = append(errs, fmt.Errorf("predicate %s refers to pattern %d", p.Name, p.Pattern))
			}
			npreds++
		}
	}
	for _, r := range b.Plan.Predicates {
		if r.Scope < 0 || r.Scope >= len(b.Decls.Scopes) || r.Pred < 0 || r.Pred >= len(b.Decls.Scopes[r.Scope].Predicates) {
			errs = append(errs, fmt.Errorf("plan refers to predicate %d of scope %d", r.Pred, r.Scope))
		}
	}
	if len(b.Plan.Predicates) != npreds {
		errs = append(errs, fmt.Errorf("plan orders %d predicates, %d declared", len(b.Plan.Predicates), npreds))
	}
	for i, e := range b.Exprs {
		if e.Scope < 0 || e.Scope >= len(b.Decls.Scopes) && len(b.Decls.Scopes) > 0 {
			errs = append(errs, fmt.Errorf("expression %d refers to scope %d of %d", i, e.Scope, len(b.Decls.Scopes)))
		}
	}
	crit := func(what string, c Criterion) {
		add(check(what, c.Expr, true))
		for _, u := range c.Patterns {
			if u.Pattern < 0 || u.Pattern >= len(b.Plan.Patterns) {
				errs = append(errs, fmt.Errorf("%s refers to pattern %d of %d", what, u.Pattern, len(b.Plan.Patterns)))
			}
		}
		if c.Expr == NoExpr && len(c.Patterns) == 0 {
			errs = append(errs, fmt.Errorf("%s has neither an expression nor a pattern", what))
		}
	}
	variants := func(what string, vs []VariantPlan) {
		for _, v := range vs {
			add(check(what+" variant "+v.Name+" when", v.When, false))
			add(check(what+" variant "+v.Name, v.Expr, false))
		}
	}
	for _, t := range b.Plan.Tasks {
		crit("task "+t.ID, t.Utility)
		variants("task "+t.ID, t.Variants)
	}
	for _, g := range b.Plan.Goals {
		crit("goal "+g.ID, g.Success)
		variants("goal "+g.ID, g.Variants)
	}
	for _, s := range b.Plan.SideEffects {
		crit("side effect "+s.Name, s.When)
	}
	for i, pt := range b.Plan.Patterns {
		what := fmt.Sprintf("pattern %d (%s)", i, pt.Owner)
		if pt.Scope < 0 || pt.Scope >= len(b.Decls.Scopes) {
			errs = append(errs, fmt.Errorf("%s refers to scope %d", what, pt.Scope))
		}
		for _, st := range pt.Steps {
			add(check(what+" step "+st.Name, st.When, true))
			for _, r := range st.Refs {
				if r < 0 || r >= len(pt.Steps) {
					errs = append(errs, fmt.Errorf("%s step %s refers to step %d", what, st.Name, r))
				}
			}
		}
		for _, k := range pt.Keyed {
			if k < 0 || k >= len(pt.Steps) {
				errs = append(errs, fmt.Errorf("%s keys step %d", what, k))
			}
		}
		errs = append(errs, validProgram(what, pt)...)
	}
	for _, inv := range b.Plan.Invariants {
		crit("invariant "+inv.Name, inv.Holds)
	}
	for _, f := range b.Plan.Failures {
		crit("failure "+f.Name, f.When)
	}
	for _, g := range b.Plan.Gates {
		for _, r := range g.Require {
			add(check("gate "+g.Name, r, false))
		}
	}
	for _, s := range b.Plan.Sources {
		what := "source " + s.Name
		add(check(what+" select", s.Select, true))
		add(check(what+" task", s.Task, false))
		add(check(what+" goal", s.Goal, true))
		add(check(what+" condition", s.Condition, false))
		add(check(what+" attempt", s.Attempt, true))
		add(check(what+" repetition", s.Repetition, true))
		if s.Attack != nil {
			add(check(what+" attack", *s.Attack, false))
		}
		add(check(what+" given.utility", s.Given.Utility, true))
		add(check(what+" given.attack_success", s.Given.AttackSuccess, true))
		add(check(what+" given.side_effect", s.Given.SideEffect, true))
	}
	return errors.Join(errs...)
}

// validProgram checks that every jump lands inside the program, every step
// operand names a step, and the program can end in a match: eval then runs
// it without bounds checks.
func validProgram(what string, pt PatternPlan) []error {
	var errs []error
	n := len(pt.Program)
	hasMatch := false
	for pc, in := range pt.Program {
		target := func(x int) {
			if x < 0 || x >= n {
				errs = append(errs, fmt.Errorf("%s: instruction %d jumps to %d of %d", what, pc, x, n))
			}
		}
		// One case per Op (TestEveryOp checks there is one).
		switch in.Op {
		case OpStep, OpNot:
			if in.X < 0 || in.X >= len(pt.Steps) {
				errs = append(errs, fmt.Errorf("%s: instruction %d names step %d of %d", what, pc, in.X, len(pt.Steps)))
			}
		case OpSplit:
			target(in.X)
			target(in.Y)
		case OpJmp:
			target(in.X)
		case OpMatch:
			hasMatch = true
		case OpAny, OpBol, OpEol:
		default:
			errs = append(errs, fmt.Errorf("%s: instruction %d has unknown op %s", what, pc, in.Op))
		}
	}
	if !hasMatch {
		errs = append(errs, fmt.Errorf("%s: the program has no match instruction", what))
	}
	return errs
}

// validType checks that a parameter type and its element and member types
// have kinds, so that no check of an argument meets a type it cannot
// decide (a decoded bundle has them; a Bundle built in memory may not).
func validType(what string, t Type) []error {
	if !t.Kind.Valid() {
		return []error{fmt.Errorf("%s has type kind %s", what, t.Kind)}
	}
	var errs []error
	if t.Elem != nil {
		errs = append(errs, validType(what+" element", *t.Elem)...)
	}
	for _, f := range t.Fields {
		errs = append(errs, validType(what+"."+f.Name, f.Type)...)
	}
	return errs
}

// validUnmetered checks what eval relies on in an expression's unmetered
// bounds: only criterion and step expressions, at most one per rung, each
// below the run cost limit, not decreasing with the rung (eval.Load also
// recomputes them: compiler/costbound).
func validUnmetered(i int, e Expr, limit uint64) error {
	if len(e.Unmetered) == 0 {
		return nil
	}
	if e.Env != "criterion" && e.Env != "step" {
		return fmt.Errorf("expression %d (%s env) has unmetered bounds", i, e.Env)
	}
	if len(e.Unmetered) > len(SizeRungs) {
		return fmt.Errorf("expression %d has %d unmetered bounds, more than the %d size rungs", i, len(e.Unmetered), len(SizeRungs))
	}
	for k, c := range e.Unmetered {
		if c >= limit || (k > 0 && c < e.Unmetered[k-1]) {
			return fmt.Errorf("expression %d: unmetered bound %d at size %d is not below the run cost limit %d or decreases", i, c, SizeRungs[k], limit)
		}
	}
	return nil
}
