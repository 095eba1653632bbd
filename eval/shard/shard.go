// Package shard splits an evaluation's runs into n shards by a stable hash
// of their case identity (docs/scale-out.md, "Sharding"), so that n
// machines each judge a deterministic 1/n of the records and their runs
// files merge into what one machine would have written.
//
// A run's shard is decided by its contract, condition and task: a task's
// benign runs and its security cases (runs.Key's Goal), with their
// attempts, repetitions and attacks (Attempt, Repetition, Attack), all
// fall in one shard, so attempt aggregation and attack aggregation, which
// combine exactly those runs, never need two shards, and neither does a
// security case's secure utility, which reads its task's benign runs
// (docs/metrics.md). The goal is left out for that last reason: with it,
// a case and its task's benign run could be in two shards, and neither
// shard could compute the case's metrics.
// The condition is the base one: a run judged under a profile (tenet eval
// --profile NAME, condition "C+NAME") falls in the shard of the same run
// without it (condition C), so that the runs a profile's flip counts pair
// (docs/language.md, "profile") are in one shard too (Base).
// The hash is SHA-256 (fixed by its specification, not by Go's version)
// over the parts as each one's length (uvarint) then its bytes; its first 8 bytes,
// big-endian, modulo n, plus 1, are the shard. Nothing else enters it — not
// the worker count, the file order or map order — and TestStable pins it.
// (FNV-1a, cheaper, was tried and refused: its low bits are a parity of
// the input's bytes, so with n = 2 the eight runs of examples/quickstart
// all fell in one shard.)
package shard

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"

	"github.com/tenetlang/tenet/eval/runs"
)

// MaxCount bounds n: more shards than this is a typo rather than a plan
// (each shard reads every file).
const MaxCount = 100000

// Shard is shard Index of Count (1 ≤ Index ≤ Count). The zero value, like
// 1/1, is the whole: every run.
type Shard struct {
	Index, Count int
}

// Whole reports whether s takes every run (the zero value, or n = 1).
func (s Shard) Whole() bool { return s.Count <= 1 }

// String is "i/n", as --shard takes it; "" for the zero value.
func (s Shard) String() string {
	if s.Count == 0 {
		return ""
	}
	return strconv.Itoa(s.Index) + "/" + strconv.Itoa(s.Count)
}

// Parse reads "i/n" (decimal, 1 ≤ i ≤ n ≤ MaxCount). The error says what
// is wrong and what is wanted.
func Parse(text string) (Shard, error) {
	bad := func(why string) (Shard, error) {
		return Shard{}, fmt.Errorf("%s; want i/n with 1 ≤ i ≤ n ≤ %d (e.g. 2/3: the second of three shards)", why, MaxCount)
	}
	i, n, ok := strings.Cut(text, "/")
	if !ok {
		return bad("no /")
	}
	index, err1 := number(i)
	count, err2 := number(n)
	// A negative number is one out of range, said so.
	if v, err := strconv.Atoi(i); err1 != nil && err == nil && v < 1 {
		return bad(fmt.Sprintf("shard %d does not exist (shards count from 1)", v))
	}
	if v, err := strconv.Atoi(n); err2 != nil && err == nil && v < 1 {
		return bad("the count must be at least 1")
	}
	switch {
	case err1 != nil:
		return bad("shard index " + strconv.Quote(i) + " is not a number")
	case err2 != nil:
		return bad("shard count " + strconv.Quote(n) + " is not a number")
	case count < 1:
		return bad("the count must be at least 1")
	case count > MaxCount:
		return bad("too many shards")
	case index < 1 || index > count:
		return bad(fmt.Sprintf("shard %d does not exist among %d (shards count from 1)", index, count))
	}
	return Shard{Index: index, Count: count}, nil
}

// Set parses text into s (Parse): a Shard is a command-line flag's value
// (tenet eval --shard), its errors the flag's.
func (s *Shard) Set(text string) error {
	v, err := Parse(text)
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// Type names the flag's value in help texts.
func (s *Shard) Type() string { return "i/n" }

// number is a decimal count of at most 9 digits: no sign, no space.
func number(s string) (int, error) {
	if s == "" || len(s) > 9 || strings.Trim(s, "0123456789") != "" {
		return 0, strconv.ErrSyntax
	}
	return strconv.Atoi(s)
}

// Hash is the stable hash of a run's task identity: the first 8 bytes
// (big-endian) of the SHA-256 of the contract, condition and task of k,
// each as its length (uvarint) then its bytes (so that no two keys' parts
// run into one another). Goal, attack, attempt and repetition are left
// out on purpose (the package comment says why).
func Hash(k runs.Key) uint64 {
	var b []byte
	for _, part := range []string{k.Contract, k.Condition, k.Task} {
		b = binary.AppendUvarint(b, uint64(len(part)))
		b = append(b, part...)
	}
	sum := sha256.Sum256(b)
	return binary.BigEndian.Uint64(sum[:8])
}

// Of is the shard (1..count) of a run with key k among count shards; 1
// when count ≤ 1.
func Of(k runs.Key, count int) int {
	if count <= 1 {
		return 1
	}
	return int(Hash(k)%uint64(count)) + 1
}

// Base is the key a run's shard is decided on: k, judged under the
// profile named profile ("" for none), with the "+"+profile its
// condition was given (eval.Program.WithProfile) taken off again. The
// caller knows the profile (it judged the run under it), so nothing is
// guessed from the condition's text.
func Base(k runs.Key, profile string) runs.Key {
	if profile != "" {
		if c, ok := strings.CutSuffix(k.Condition, "+"+profile); ok {
			k.Condition = c
		}
	}
	return k
}

// Owns reports whether the run with key k is s's to judge (k's condition
// the base one: Base).
func (s Shard) Owns(k runs.Key) bool {
	return s.Whole() || Of(k, s.Count) == s.Index
}
