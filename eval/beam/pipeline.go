package beampipe

import (
	"context"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	// The filesystems an input glob and the outputs may name.
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/s3"
)

func init() {
	register.DoFn4x1[context.Context, fileio.FileMetadata, func(Record), func(Fact), error](&frameFn{})
	register.DoFn3x0[Record, func(string, []byte), func(Fact)](&judgeFn{})
	register.DoFn4x1[context.Context, string, func(*[]byte) bool, func(Shard), error](&shardFn{})
	register.DoFn4x1[context.Context, []byte, func(*Shard) bool, func(*Fact) bool, error](&reportFn{})
	register.Emitter1[Record]()
	register.Emitter1[Fact]()
	register.Emitter1[Shard]()
	register.Emitter2[string, []byte]()
	register.Iter1[[]byte]()
	register.Iter1[Shard]()
	register.Iter1[Fact]()
}

// Build adds the evaluation to s:
//
//	match (fileio.MatchFiles on o.Input)
//	→ frame (frameFn: records of each file)
//	→ reshuffle (the records of one large file spread over the workers)
//	→ judge (judgeFn: the bundles loaded once per worker; runs lines keyed
//	  by (contract, condition), Facts for the rest)
//	→ group by (contract, condition) → shards (shardFn: sorted runs files)
//	→ report (reportFn: one worker; the shards read back in key order into
//	  the Document, written to o.Report as JSON).
//
// The options are checked first (the bundles loaded, their sources, format and
// grant resolved): an error then means nothing was added.
func Build(s beam.Scope, o Options) error {
	format, err := o.check()
	if err != nil {
		return err
	}
	files := fileio.MatchFiles(s.Scope("match"), o.Input, fileio.MatchEmptyDisallow())
	recs, frameFacts := beam.ParDo2(s.Scope("frame"), &frameFn{Format: format}, files)
	recs = beam.Reshuffle(s.Scope("spread"), recs)
	judgedRuns, judgeFacts := beam.ParDo2(s.Scope("judge"), &judgeFn{Opt: o}, recs)
	groups := beam.GroupByKey(s.Scope("group"), judgedRuns)
	shards := beam.ParDo(s.Scope("shards"), &shardFn{Out: o.Out, RunID: o.RunID}, groups)
	facts := beam.Flatten(s.Scope("facts"), frameFacts, judgeFacts)
	beam.ParDo0(s.Scope("report"), &reportFn{Opt: o}, beam.Impulse(s),
		beam.SideInput{Input: shards}, beam.SideInput{Input: facts})
	return nil
}
