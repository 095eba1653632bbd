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
	// 3: what --unknown bounds reports, kept: a rate the unknown labels
	// change has no value, but its least and greatest values over the
	// assignments of the unknowns (each with its fraction) and how many
	// unknown labels it reads; and inputs whose bytes tenet could not read
	// again (a pipe) have a NULL hash and size, not '' and 0. SQLite cannot
	// drop NOT NULL from a column: inputs is rebuilt.
	`
ALTER TABLE metrics ADD COLUMN unknown INTEGER NOT NULL DEFAULT 0; -- unknown labels the rate reads
ALTER TABLE metrics ADD COLUMN maybe_null INTEGER NOT NULL DEFAULT 0; -- some assignment empties a conditional rate's subset
ALTER TABLE metrics ADD COLUMN bound_low REAL;      -- the least value over the assignments; NULL when none
ALTER TABLE metrics ADD COLUMN bound_low_num REAL;
ALTER TABLE metrics ADD COLUMN bound_low_den REAL;
ALTER TABLE metrics ADD COLUMN bound_high REAL;     -- the greatest
ALTER TABLE metrics ADD COLUMN bound_high_num REAL;
ALTER TABLE metrics ADD COLUMN bound_high_den REAL;
CREATE TABLE inputs_v3 (
	evaluation_id INTEGER NOT NULL REFERENCES evaluations(id) ON DELETE CASCADE,
	position INTEGER NOT NULL,
	path     TEXT    NOT NULL,
	sha256   TEXT,    -- hex; NULL when tenet did not have the bytes (a pipe)
	size     INTEGER, -- bytes; NULL likewise
	PRIMARY KEY (evaluation_id, position)
);
INSERT INTO inputs_v3 SELECT evaluation_id, position, path,
	CASE WHEN sha256 = '' THEN NULL ELSE sha256 END,
	CASE WHEN sha256 = '' THEN NULL ELSE size END
	FROM inputs;
DROP TABLE inputs;
ALTER TABLE inputs_v3 RENAME TO inputs;
`,
	// 4: a contract's version is NULL when the recording command did not
	// know it (tenet report without --contract: runs files name the
	// contract and bundle, not the version), '' only when the contract has
	// none. Before, both were ''; tenet report never knew a version, so
	// its '' become NULL. contracts is rebuilt (SQLite cannot drop NOT
	// NULL), with its indexes.
	`
CREATE TABLE contracts_v4 (
	evaluation_id INTEGER NOT NULL REFERENCES evaluations(id) ON DELETE CASCADE,
	name    TEXT NOT NULL,
	version TEXT, -- NULL when unknown, '' when the contract has none
	bundle  TEXT NOT NULL, -- sha256:<hex>, '' for labels from elsewhere
	PRIMARY KEY (evaluation_id, name, bundle)
);
INSERT INTO contracts_v4 SELECT c.evaluation_id, c.name,
	CASE WHEN c.version = '' AND e.command = 'report' THEN NULL ELSE c.version END,
	c.bundle
	FROM contracts c JOIN evaluations e ON e.id = c.evaluation_id;
DROP TABLE contracts;
ALTER TABLE contracts_v4 RENAME TO contracts;
CREATE INDEX contracts_by_name ON contracts(name, evaluation_id);
CREATE INDEX contracts_by_bundle ON contracts(bundle, evaluation_id);
`,
}
