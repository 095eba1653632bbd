package history

// migrations are the schema's steps, in order: migrations[i] brings a
// database from version i to i+1 (PRAGMA user_version). A step is never
// edited once released; a change of schema is a new step at the end.
// docs/history.md describes every table and column.
var migrations = []string{
	// 1: the evaluations and what they hold.
	`
CREATE TABLE evaluations (
	id        INTEGER PRIMARY KEY AUTOINCREMENT,
	recorded  TEXT    NOT NULL, -- RFC 3339, UTC, nanoseconds
	command   TEXT    NOT NULL, -- eval or report
	version   TEXT    NOT NULL, -- the compiler version of the report
	git_commit TEXT   NOT NULL, -- '' when unknown
	dirty     INTEGER NOT NULL, -- 1: the work tree had changes
	exit_code INTEGER NOT NULL,
	runs      INTEGER NOT NULL  -- rows in runs for this evaluation
);
CREATE TABLE contracts (
	evaluation_id INTEGER NOT NULL REFERENCES evaluations(id) ON DELETE CASCADE,
	name    TEXT NOT NULL,
	version TEXT NOT NULL,
	bundle  TEXT NOT NULL, -- sha256:<hex>, '' for labels from elsewhere
	PRIMARY KEY (evaluation_id, name, bundle)
);
CREATE TABLE inputs (
	evaluation_id INTEGER NOT NULL REFERENCES evaluations(id) ON DELETE CASCADE,
	position INTEGER NOT NULL,
	path     TEXT    NOT NULL,
	sha256   TEXT    NOT NULL, -- hex; '' when the input could not be read again (a pipe)
	size     INTEGER NOT NULL,
	PRIMARY KEY (evaluation_id, position)
);
CREATE TABLE conditions (
	evaluation_id INTEGER NOT NULL REFERENCES evaluations(id) ON DELETE CASCADE,
	contract  TEXT NOT NULL,
	condition TEXT NOT NULL, -- as reports show it: pipeline, or "pipeline @ attack"
	errors    TEXT NOT NULL, -- why its metrics were not computed, one line each; '' when they were
	PRIMARY KEY (evaluation_id, contract, condition)
);
CREATE TABLE metrics (
	evaluation_id INTEGER NOT NULL REFERENCES evaluations(id) ON DELETE CASCADE,
	contract  TEXT NOT NULL,
	condition TEXT NOT NULL,
	name      TEXT NOT NULL, -- as the JSON report spells it: targeted_asr, ...
	known     INTEGER NOT NULL, -- 1: the rate has one value
	value     REAL,             -- NULL unless known
	num       REAL,
	den       REAL,
	low       REAL,             -- the 95% Wilson interval; NULL when none
	high      REAL,
	PRIMARY KEY (evaluation_id, contract, condition, name)
);
CREATE TABLE gates (
	evaluation_id INTEGER NOT NULL REFERENCES evaluations(id) ON DELETE CASCADE,
	position    INTEGER NOT NULL,
	contract    TEXT    NOT NULL,
	gate        TEXT    NOT NULL,
	condition   TEXT    NOT NULL,
	requirement TEXT    NOT NULL,
	passed      INTEGER NOT NULL,
	no_runs     INTEGER NOT NULL,
	reason      TEXT    NOT NULL,
	PRIMARY KEY (evaluation_id, position)
);
CREATE TABLE runs (
	evaluation_id INTEGER NOT NULL REFERENCES evaluations(id) ON DELETE CASCADE,
	seq        INTEGER NOT NULL, -- 0-based, key order
	contract   TEXT    NOT NULL,
	condition  TEXT    NOT NULL,
	attack     TEXT    NOT NULL,
	task       TEXT    NOT NULL,
	goal       TEXT    NOT NULL, -- '' for a benign run
	attempt    INTEGER NOT NULL,
	repetition INTEGER NOT NULL,
	bundle     TEXT    NOT NULL,
	utility        TEXT NOT NULL, -- true, false, unknown, or '' (absent)
	attack_success TEXT NOT NULL,
	side_effect    TEXT NOT NULL,
	line       TEXT    NOT NULL, -- the run's runs-file line (docs/runs-format.md)
	PRIMARY KEY (evaluation_id, seq)
);
CREATE INDEX contracts_by_name ON contracts(name, evaluation_id);
CREATE INDEX contracts_by_bundle ON contracts(bundle, evaluation_id);
CREATE INDEX conditions_by_name ON conditions(condition, evaluation_id);
`,
	// 2: a free-text note per evaluation, and runs found by case across
	// evaluations (history diff pairs them).
	`
ALTER TABLE evaluations ADD COLUMN note TEXT NOT NULL DEFAULT '';
CREATE INDEX runs_by_case ON runs(contract, condition, attack, task, goal);
`,
}
