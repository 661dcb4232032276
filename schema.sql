-- Prophecy database schema.
--
-- This file is embedded in prophecyd at build time. It is a sequence of
-- migrations; each begins with a line "-- migration N" and is applied once,
-- in order, inside one transaction, when PRAGMA user_version < N. Never edit
-- a migration that has shipped: add a new one below.
--
-- Conventions: INTEGER PRIMARY KEY ids; names are TEXT, unique where the
-- product says so; times are REAL seconds; timestamps are ISO 8601 UTC text.
-- Child rows that are only ever read with their parent (a run's inputs,
-- metrics and kernels) are WITHOUT ROWID tables clustered on the parent id,
-- which gives the per-run lookup for free instead of a separate index
-- (an extra index on kernels(run_id) costs ~40 % of ingest, FACTS.md).

-- migration 1
CREATE TABLE applications (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE,
    description TEXT NOT NULL DEFAULT '',
    demo        INTEGER NOT NULL DEFAULT 0,
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

CREATE TABLE executables (
    id         INTEGER PRIMARY KEY,
    app_id     INTEGER NOT NULL REFERENCES applications(id),
    name       TEXT NOT NULL,
    compiler   TEXT NOT NULL DEFAULT '',
    flags      TEXT NOT NULL DEFAULT '',
    version    TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    UNIQUE (app_id, name)
);

CREATE TABLE systems (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE,
    description TEXT NOT NULL DEFAULT '',
    processor   TEXT NOT NULL DEFAULT '',
    cores       INTEGER,
    network     TEXT NOT NULL DEFAULT '',
    metadata    TEXT NOT NULL DEFAULT '{}',   -- free-form JSON object
    demo        INTEGER NOT NULL DEFAULT 0,
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

-- One execution. app_id is denormalised from the executable so that the
-- application page pages through its runs by (app_id, id) without a join.
CREATE TABLE runs (
    id         INTEGER PRIMARY KEY,
    uid        TEXT UNIQUE,                    -- client-chosen id; repeats are not stored twice
    app_id     INTEGER NOT NULL REFERENCES applications(id),
    exe_id     INTEGER NOT NULL REFERENCES executables(id),
    system_id  INTEGER NOT NULL REFERENCES systems(id),
    nprocs     INTEGER NOT NULL CHECK (nprocs >= 1),
    runtime    REAL NOT NULL CHECK (runtime >= 0),
    started_at TEXT,
    submitter  TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL
);
-- Model queries select by executable, system and processor count and read the
-- runtime: covering, so an aggregate never touches the table (FACTS.md: 5 ms
-- instead of 49 ms for 10 % of 1M runs).
CREATE INDEX runs_by_config ON runs (exe_id, system_id, nprocs, runtime);
-- Application pages and filters page through runs in id order.
CREATE INDEX runs_by_app ON runs (app_id);
CREATE INDEX runs_by_system ON runs (system_id);

CREATE TABLE run_inputs (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    name   TEXT NOT NULL,
    value  REAL NOT NULL,
    PRIMARY KEY (run_id, name)
) WITHOUT ROWID;
-- "runs where N = 1000" and fits over an input axis.
CREATE INDEX run_inputs_by_value ON run_inputs (name, value);

CREATE TABLE run_metrics (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    name   TEXT NOT NULL,
    value  REAL NOT NULL,
    PRIMARY KEY (run_id, name)
) WITHOUT ROWID;

CREATE TABLE kernels (
    run_id  INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    seq     INTEGER NOT NULL,                  -- order within the run, from 0
    name    TEXT NOT NULL,
    time    REAL NOT NULL CHECK (time >= 0),
    calls   INTEGER NOT NULL DEFAULT 1 CHECK (calls >= 0),
    metrics TEXT,                              -- JSON object or NULL
    PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;

CREATE TABLE system_benchmarks (
    id         INTEGER PRIMARY KEY,
    system_id  INTEGER NOT NULL REFERENCES systems(id),
    name       TEXT NOT NULL,                  -- e.g. MPISR, MPIBC, ADDM
    args       TEXT NOT NULL DEFAULT '{}',     -- JSON object, e.g. {"L":1024,"P":2}
    time       REAL NOT NULL CHECK (time >= 0),
    stat       TEXT NOT NULL DEFAULT '',       -- min, median, mean, ...
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE INDEX system_benchmarks_by_name ON system_benchmarks (system_id, name);

-- name is the parameter's name (ADDM, MPISR); args its formal arguments,
-- comma-separated ("L"), empty for a constant.
CREATE TABLE system_parameters (
    system_id  INTEGER NOT NULL REFERENCES systems(id),
    name       TEXT NOT NULL,
    args       TEXT NOT NULL DEFAULT '',
    expression TEXT NOT NULL,
    source     TEXT NOT NULL DEFAULT '',
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    PRIMARY KEY (system_id, name)
);

CREATE TABLE templates (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE,
    app_id      INTEGER NOT NULL REFERENCES applications(id),
    kernel      TEXT NOT NULL DEFAULT '',      -- '' = the whole application
    expression  TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

-- A chain of adjacent kernels measured alone and together at one configuration.
CREATE TABLE couplings (
    id         INTEGER PRIMARY KEY,
    app_id     INTEGER NOT NULL REFERENCES applications(id),
    system_id  INTEGER NOT NULL REFERENCES systems(id),
    nprocs     INTEGER NOT NULL CHECK (nprocs >= 1),
    inputs     TEXT NOT NULL DEFAULT '{}',     -- JSON object of the configuration
    kernels    TEXT NOT NULL,                  -- JSON array of kernel names
    alone      TEXT NOT NULL,                  -- JSON array of times, one per kernel
    together   REAL NOT NULL CHECK (together >= 0),
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE INDEX couplings_by_app ON couplings (app_id, system_id);

CREATE TABLE models (
    id         INTEGER PRIMARY KEY,
    method     TEXT NOT NULL CHECK (method IN ('fit', 'parameterize', 'couple')),
    app_id     INTEGER REFERENCES applications(id),
    formula    TEXT NOT NULL DEFAULT '',
    request    TEXT NOT NULL,                  -- the JSON request that built it
    result     TEXT NOT NULL,                  -- the JSON answer (model, statistics)
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

CREATE TABLE tokens (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL UNIQUE,
    hash       BLOB NOT NULL,                  -- SHA-256 of the token; the token itself is never stored
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    revoked_at TEXT
);

-- migration 2
-- One row per configuration of an application (executable, system, nprocs
-- and the exact inputs) with the count, sum, min and max of its runtimes and
-- its latest run. Kept by db_runs_insert in the same transaction as the run,
-- so the dashboard's scaling plots, run counts and kernel breakdowns read a
-- few rows per configuration instead of every run (an application page over
-- 100,000 runs stays within milliseconds). `inputs` is the canonical JSON
-- object of the run's inputs, keys in name order, as SQLite's
-- json_group_object writes it (the same expression fills it on both paths).
CREATE TABLE run_configs (
    id          INTEGER PRIMARY KEY,
    app_id      INTEGER NOT NULL REFERENCES applications(id),
    exe_id      INTEGER NOT NULL REFERENCES executables(id),
    system_id   INTEGER NOT NULL REFERENCES systems(id),
    nprocs      INTEGER NOT NULL,
    inputs      TEXT NOT NULL,
    runs        INTEGER NOT NULL,
    sum_runtime REAL NOT NULL,
    min_runtime REAL NOT NULL,
    max_runtime REAL NOT NULL,
    last_run_id INTEGER NOT NULL,
    UNIQUE (app_id, exe_id, system_id, nprocs, inputs)
);
INSERT INTO run_configs (app_id, exe_id, system_id, nprocs, inputs, runs, sum_runtime,
                         min_runtime, max_runtime, last_run_id)
SELECT app_id, exe_id, system_id, nprocs, inputs, count(*), sum(runtime), min(runtime),
       max(runtime), max(id)
FROM (SELECT r.id, r.app_id, r.exe_id, r.system_id, r.nprocs, r.runtime,
             (SELECT coalesce(json_group_object(name, value), '{}') FROM
                 (SELECT name, value FROM run_inputs i WHERE i.run_id = r.id
                  ORDER BY name)) AS inputs
      FROM runs r)
GROUP BY app_id, exe_id, system_id, nprocs, inputs;
-- The application page's runs table pages through one application's runs
-- sorted by runtime or processors; covering (with the filter columns), so a
-- deep page skips index entries without touching the table.
CREATE INDEX runs_page_runtime ON runs (app_id, runtime, exe_id, system_id);
CREATE INDEX runs_page_nprocs ON runs (app_id, nprocs, exe_id, system_id);

-- migration 3
-- Issue 14: history, comparison and regression detection (SPEC §11).
--
-- Provenance of a run: the commit and branch it was built from and free
-- key = value tags. ("commit" is an SQL keyword, hence the vcs_ prefix.)
ALTER TABLE runs ADD COLUMN vcs_commit TEXT;
ALTER TABLE runs ADD COLUMN vcs_branch TEXT;
-- The run's configuration (run_configs): a series is one configuration's runs
-- in time order, read from one covering index range instead of a scan of the
-- application's runs.
ALTER TABLE runs ADD COLUMN config_id INTEGER REFERENCES run_configs(id);
UPDATE runs SET config_id = (
    SELECT c.id FROM run_configs c
    WHERE c.app_id = runs.app_id AND c.exe_id = runs.exe_id
      AND c.system_id = runs.system_id AND c.nprocs = runs.nprocs
      AND c.inputs = (SELECT coalesce(json_group_object(name, value), '{}') FROM
                        (SELECT name, value FROM run_inputs i WHERE i.run_id = runs.id
                         ORDER BY name)));
CREATE INDEX runs_series ON runs (config_id, coalesce(started_at, created_at), id, runtime,
                                 vcs_commit);
CREATE INDEX runs_by_commit ON runs (vcs_commit) WHERE vcs_commit IS NOT NULL;
CREATE INDEX runs_by_branch ON runs (vcs_branch) WHERE vcs_branch IS NOT NULL;

CREATE TABLE run_tags (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    key    TEXT NOT NULL,
    value  TEXT NOT NULL,
    PRIMARY KEY (run_id, key)
) WITHOUT ROWID;
CREATE INDEX run_tags_by_value ON run_tags (key, value);

-- Saved models may be named and tied to a system.
ALTER TABLE models ADD COLUMN name TEXT;
ALTER TABLE models ADD COLUMN system_id INTEGER REFERENCES systems(id);

-- Templates are scoped to their application: two applications may each have
-- a template of one name (the UNIQUE(name) of migration 1 cannot be dropped
-- in place, so the table is rebuilt with its rows and ids).
CREATE TABLE templates_scoped (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL,
    app_id      INTEGER NOT NULL REFERENCES applications(id),
    kernel      TEXT NOT NULL DEFAULT '',
    expression  TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    UNIQUE (app_id, name)
);
INSERT INTO templates_scoped SELECT id, name, app_id, kernel, expression, description,
                                    created_at FROM templates;
DROP TABLE templates;
ALTER TABLE templates_scoped RENAME TO templates;
CREATE INDEX templates_by_name ON templates (name);

-- A watch: a saved model (model_id) or a statistical test (test, threshold,
-- window) over the runs of one application and system; exe_id, nprocs and
-- inputs NULL match any value. y is "runtime", "metric:NAME" or "kernel:NAME".
-- For a model watch the selection columns are the model's own.
CREATE TABLE watches (
    id         INTEGER PRIMARY KEY,
    model_id   INTEGER REFERENCES models(id),
    app_id     INTEGER NOT NULL REFERENCES applications(id),
    exe_id     INTEGER REFERENCES executables(id),
    system_id  INTEGER REFERENCES systems(id),
    nprocs     INTEGER,
    inputs     TEXT,                           -- JSON object of fixed inputs, or NULL
    y          TEXT NOT NULL DEFAULT 'runtime',
    test       TEXT,                           -- zscore|ttest|percent|iqr, NULL for a model
    threshold  REAL,
    history    INTEGER,                        -- window: runs looked back on
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE INDEX watches_by_config ON watches (app_id, nprocs);

-- Every judgement a watch made of a run (the prediction ledger for model
-- watches): the band the value had to fall in and the verdict. Clustered on
-- (run_id, watch_id) without a rowid: the judgements of a new run append at
-- the right edge of one b-tree, so judging adds about one page per commit
-- whatever the number of watches (an index per watch would add one page per
-- judgement). Reads by watch (the ledger, the watch list's counts) scan it.
CREATE TABLE judgements (
    run_id    INTEGER NOT NULL REFERENCES runs(id),
    watch_id  INTEGER NOT NULL REFERENCES watches(id),
    x         REAL,                            -- the model's x at the run, NULL for a test
    value     REAL NOT NULL,
    expected  REAL NOT NULL,
    lo        REAL NOT NULL,
    hi        REAL NOT NULL,
    score     REAL NOT NULL DEFAULT 0,
    ready     INTEGER NOT NULL,
    out       INTEGER NOT NULL,
    direction INTEGER NOT NULL,
    PRIMARY KEY (run_id, watch_id)
) WITHOUT ROWID;

-- A run judged out raises one alert per judgement.
CREATE TABLE alerts (
    id         INTEGER PRIMARY KEY,
    run_id     INTEGER NOT NULL,
    watch_id   INTEGER NOT NULL,
    state      TEXT NOT NULL DEFAULT 'open'
               CHECK (state IN ('open', 'acknowledged', 'false_positive', 'resolved')),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (run_id, watch_id),
    FOREIGN KEY (run_id, watch_id) REFERENCES judgements (run_id, watch_id)
);
CREATE INDEX alerts_by_state ON alerts (state, id);

-- migration 4
-- A run's MPI trace (SPEC §13): the per-rank files as the recorder wrote them
-- (formats/trace.h, 48 bytes an event: compact, and read back by the same
-- checked reader), one row per rank, with the trace's bounds on the parent.
-- The analyses are computed once when the trace arrives and kept as their
-- JSON answer and their SVG chart, so pages and API reads never recompute.
CREATE TABLE traces (
    run_id     INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
    nranks     INTEGER NOT NULL CHECK (nranks >= 1),
    nevents    INTEGER NOT NULL CHECK (nevents >= 0),
    span       REAL NOT NULL CHECK (span >= 0),
    dropped    INTEGER NOT NULL DEFAULT 0,
    bytes      INTEGER NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE trace_ranks (
    run_id INTEGER NOT NULL REFERENCES traces(run_id) ON DELETE CASCADE,
    rank   INTEGER NOT NULL,
    data   BLOB NOT NULL,
    PRIMARY KEY (run_id, rank)
) WITHOUT ROWID;
CREATE TABLE trace_analyses (
    run_id INTEGER NOT NULL REFERENCES traces(run_id) ON DELETE CASCADE,
    name   TEXT NOT NULL,
    answer TEXT NOT NULL,   -- the JSON answer of GET /api/v1/runs/{id}/trace/NAME
    svg    TEXT NOT NULL,   -- its chart, /plots/run-{id}-NAME.svg
    PRIMARY KEY (run_id, name)
) WITHOUT ROWID;

-- migration 5
-- What the application read (GET /api/v1/applications/{name}) lists besides
-- the configurations: each application's kernel names with their record
-- counts, and its metric names. Kept by triggers in the run's transaction, so
-- the read is a few rows instead of a walk over every run's kernels (seconds
-- at 1,000,000 runs). The triggers follow inserts; deleting a run or an
-- application (SPEC §11) updates both tables in the same transaction
-- (db/sqlite/history.c). first_seq orders the kernels as the runs do.
CREATE TABLE app_kernels (
    app_id    INTEGER NOT NULL REFERENCES applications(id),
    name      TEXT NOT NULL,
    records   INTEGER NOT NULL,
    first_seq INTEGER NOT NULL,
    PRIMARY KEY (app_id, name)
) WITHOUT ROWID;
INSERT INTO app_kernels (app_id, name, records, first_seq)
SELECT r.app_id, k.name, count(*), min(k.seq) FROM kernels k JOIN runs r ON r.id = k.run_id
GROUP BY r.app_id, k.name;
CREATE TRIGGER app_kernels_add AFTER INSERT ON kernels BEGIN
    INSERT INTO app_kernels (app_id, name, records, first_seq)
    SELECT app_id, NEW.name, 1, NEW.seq FROM runs WHERE id = NEW.run_id
    ON CONFLICT (app_id, name) DO UPDATE SET records = records + 1,
        first_seq = min(first_seq, excluded.first_seq);
END;
CREATE TABLE app_metrics (
    app_id INTEGER NOT NULL REFERENCES applications(id),
    name   TEXT NOT NULL,
    PRIMARY KEY (app_id, name)
) WITHOUT ROWID;
INSERT INTO app_metrics (app_id, name)
SELECT DISTINCT r.app_id, m.name FROM run_metrics m JOIN runs r ON r.id = m.run_id;
CREATE TRIGGER app_metrics_add AFTER INSERT ON run_metrics BEGIN
    INSERT OR IGNORE INTO app_metrics (app_id, name)
    SELECT app_id, NEW.name FROM runs WHERE id = NEW.run_id;
END;
-- The application page filtered by system pages through (system_id, app_id)
-- in id order without touching the table; it replaces runs_by_system, whose
-- every use it serves (a prefix), so ingest keeps the same number of indexes.
DROP INDEX runs_by_system;
CREATE INDEX runs_by_system_app ON runs (system_id, app_id);

-- migration 6
-- A watch's judgements by watch (issue 14): deleting a watch and the ledger
-- of a model read one range of this index instead of scanning every
-- judgement, and the watch list's counts (judged, out per watch) read the
-- index alone, in watch order. It holds (watch_id, out, run_id), so judging
-- a run adds one entry per judgement in each watch's range. Alerts get an
-- index by watch for the watch delete.
CREATE INDEX judgements_by_watch ON judgements (watch_id, out);
CREATE INDEX alerts_by_watch ON alerts (watch_id);
-- A series (issue 14) reads one configuration's range of runs_series, but
-- SQLite does not read an indexed expression's value from the index, so
-- every point also visited its run's table page: at scale a configuration's
-- runs lie on as many pages as it has runs. With the two columns of the
-- expression in the index the read never leaves it (same number of indexes
-- on runs; each entry grows by the two times).
DROP INDEX runs_series;
CREATE INDEX runs_series ON runs (config_id, coalesce(started_at, created_at), id, runtime,
                                 vcs_commit, started_at, created_at);

-- migration 7
-- Migration 6's index of judgements by watch put each judgement of a run in
-- its watch's range: with 100 watches covering a run, storing it dirtied 100
-- index pages (single-run ingest 4.6x slower than with no watch, against
-- 1.9x without the index; bench_ingest --watches 100 --server). It goes; the
-- judgements stay clustered by run (one page per commit whatever the number
-- of watches). The ledger of a model reads its watches' judgements that have
-- an x (a model watch's judgement of a run with the model's x: every one the
-- ledger lists) through this partial index, which statistical watches (x is
-- NULL) never touch. The watch list's counts come from watch_counts, which
-- judging a run updates beside its judgements (one small table: a page or
-- two per commit) and deleting a judgement decrements; a watch's delete scans
-- the judgements.
DROP INDEX judgements_by_watch;
CREATE INDEX judgements_by_model_watch ON judgements (watch_id) WHERE x IS NOT NULL;
CREATE TABLE watch_counts (
    watch_id INTEGER PRIMARY KEY REFERENCES watches(id),
    judged   INTEGER NOT NULL,
    out      INTEGER NOT NULL
);
INSERT INTO watch_counts (watch_id, judged, out)
SELECT watch_id, count(*), sum(out) FROM judgements GROUP BY watch_id;
CREATE TRIGGER watch_counts_forget AFTER DELETE ON judgements BEGIN
    UPDATE watch_counts SET judged = judged - 1, out = out - OLD.out
    WHERE watch_id = OLD.watch_id;
END;

-- migration 8
-- A run's time, coalesce(started_at, created_at), as integer milliseconds
-- since 1970-01-01T00:00:00Z (common/isotime.h, set by db_runs_insert).
-- Series and windows ordered by the text, and started_at may carry an
-- offset from UTC or a fraction: "2026-01-02T01:00:00+02:00" (23:00 UTC on
-- the 1st) sorted after "2026-01-01T23:30:00Z". The integer orders by the
-- instant, and the series index holds one 8-byte key instead of the
-- expression and its two texts (a 100,000-point series decoded two texts a
-- point). SQLite's julianday reads the same forms except offsets beyond
-- 14 hours and a leap second (:60), both NULL there: the offset is taken off
-- by hand and :60 read as :59 plus one second, as the C parser reads them
-- (unit.test_history_migration checks the two agree).
ALTER TABLE runs ADD COLUMN at_ms INTEGER;
UPDATE runs SET at_ms = (
    SELECT CAST(round((julianday(replace(l, ':60', ':59')) - 2440587.5) * 86400000)
                AS INTEGER) + 1000 * (instr(l, ':60') > 0) - o
    FROM (SELECT CASE WHEN substr(x, -6, 1) IN ('+', '-') THEN substr(x, 1, length(x) - 6)
                      ELSE x END AS l,
                 CASE substr(x, -6, 1) WHEN '+' THEN 1 WHEN '-' THEN -1 ELSE 0 END *
                     (CAST(substr(x, -5, 2) AS INTEGER) * 3600000 +
                      CAST(substr(x, -2, 2) AS INTEGER) * 60000) AS o
          FROM (SELECT coalesce(started_at, created_at) AS x)));
DROP INDEX runs_series;
CREATE INDEX runs_series ON runs (config_id, at_ms, id, runtime, vcs_commit);

-- migration 9
-- A counter that every change of a watch moves (insert, update, delete, and
-- so an application's or a model's delete too), so that the ingest hook keeps
-- the watch set in memory and reads it again only when the counter moved
-- (core/watch.c): a run no longer queries the watches that cover it. No row
-- until the first change (the version is then 0); prophecyd copy rebuilds it.
CREATE TABLE watch_version (
    one INTEGER PRIMARY KEY CHECK (one = 1),
    n   INTEGER NOT NULL
);
CREATE TRIGGER watch_version_insert AFTER INSERT ON watches BEGIN
    INSERT INTO watch_version (one, n) VALUES (1, 1)
    ON CONFLICT (one) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER watch_version_update AFTER UPDATE ON watches BEGIN
    INSERT INTO watch_version (one, n) VALUES (1, 1)
    ON CONFLICT (one) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER watch_version_delete AFTER DELETE ON watches BEGIN
    INSERT INTO watch_version (one, n) VALUES (1, 1)
    ON CONFLICT (one) DO UPDATE SET n = n + 1;
END;

-- migration 10
-- A configuration's runtime series packed into chunks of up to 1,024 points
-- in time order (db/sqlite/series.c has the format): a series of 100,000
-- runs reads about a hundred values instead of stepping 100,000 index rows.
-- A cache of runs_series, never the only copy: the chunks always cover a
-- prefix of the configuration's points (all points up to the last chunk's
-- (last_at, last_id)), the rest is read from runs_series, and every change
-- of a run that could alter a chunk drops that chunk and the ones after it:
-- a run given its configuration (db_summary_add_run, which every stored run
-- goes through; no trigger there, it cost each stored run ~10 µs), a run's
-- delete, and a change of its time, runtime or commit (triggers, off the
-- ingest path). A series read that meets a long unpacked rest packs it.
CREATE TABLE series_chunks (
    config_id INTEGER NOT NULL,
    last_at   INTEGER NOT NULL,
    last_id   INTEGER NOT NULL,
    n         INTEGER NOT NULL,
    points    BLOB NOT NULL,
    PRIMARY KEY (config_id, last_at, last_id)
) WITHOUT ROWID;
CREATE TRIGGER series_chunks_update
AFTER UPDATE OF at_ms, runtime, vcs_commit ON runs BEGIN
    DELETE FROM series_chunks WHERE config_id = OLD.config_id
        AND (last_at, last_id) >= (OLD.at_ms, OLD.id);
    DELETE FROM series_chunks WHERE config_id = NEW.config_id
        AND (last_at, last_id) >= (NEW.at_ms, NEW.id);
END;
CREATE TRIGGER series_chunks_delete AFTER DELETE ON runs
WHEN OLD.config_id IS NOT NULL BEGIN
    DELETE FROM series_chunks WHERE config_id = OLD.config_id
        AND (last_at, last_id) >= (OLD.at_ms, OLD.id);
END;
-- The watch list's counts without a write per judged run: on SQLite
-- watch_counts holds the judgements of runs up to watch_counts_upto.run_id,
-- the list counts those of later runs when it is read, and the writer folds
-- them in every few thousand judgements (db/sqlite/history.c). Run ids grow
-- in commit order with one writer at a time, which is what makes "later
-- runs" the unfolded ones; a judgement of a run at or below the mark (an id
-- SQLite handed out again after the newest runs were deleted) is counted at
-- once as before. The delete trigger takes back only what was counted.
CREATE TABLE watch_counts_upto (
    one    INTEGER PRIMARY KEY CHECK (one = 1),
    run_id INTEGER NOT NULL
);
INSERT INTO watch_counts_upto (one, run_id)
SELECT 1, coalesce(max(run_id), 0) FROM judgements;
DROP TRIGGER watch_counts_forget;
CREATE TRIGGER watch_counts_forget AFTER DELETE ON judgements
WHEN OLD.run_id <= (SELECT run_id FROM watch_counts_upto) BEGIN
    UPDATE watch_counts SET judged = judged - 1, out = out - OLD.out
    WHERE watch_id = OLD.watch_id;
END;

-- migration 11
-- A run's judgements in one row (issue 14: judging a run against 100
-- watches may add at most 10 % to single-run ingest). One row per judgement
-- was about 60 bytes and one b-tree insert each: with 100 watches covering
-- every run, storing them cost more than storing the run itself (+75 % to
-- single-run ingest, 48 % of it inside SQLite and 42 % writing the pages).
-- run_judgements holds each judged run's judgements packed into one blob
-- (db/codec.c: each distinct verdict once, then every watch's id and
-- the verdict it reached; 100 watches asking four questions take ~370
-- bytes). The ledger, the series, the alerts and the counts decode it; copy
-- presents it as the judgements table PostgreSQL keeps. This step's C part
-- packs the existing judgements and drops the table (db/sqlite/db.c).
--
-- A deleted watch's judgements stay in the packed rows (rewriting every
-- row at a delete would cost a scan of them all) and readers skip watch ids
-- that no longer exist; watch ids are therefore never handed out twice:
-- watch_ids keeps the highest ever used, and a new watch takes the next.
-- Alerts lose their foreign key to judgements (the table goes) and keep
-- their own unique (run_id, watch_id).
CREATE TABLE run_judgements (
    run_id INTEGER PRIMARY KEY REFERENCES runs(id),
    data   BLOB NOT NULL
);
CREATE TABLE watch_ids (
    one  INTEGER PRIMARY KEY CHECK (one = 1),
    last INTEGER NOT NULL
);
INSERT INTO watch_ids (one, last)
SELECT 1, max(coalesce((SELECT max(id) FROM watches), 0),
              coalesce((SELECT max(watch_id) FROM judgements), 0));
CREATE TRIGGER watch_ids_keep AFTER INSERT ON watches BEGIN
    UPDATE watch_ids SET last = max(last, NEW.id);
END;
CREATE TABLE alerts_packed (
    id         INTEGER PRIMARY KEY,
    run_id     INTEGER NOT NULL REFERENCES runs(id),
    watch_id   INTEGER NOT NULL REFERENCES watches(id),
    state      TEXT NOT NULL DEFAULT 'open'
               CHECK (state IN ('open', 'acknowledged', 'false_positive', 'resolved')),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (run_id, watch_id)
);
INSERT INTO alerts_packed (id, run_id, watch_id, state, created_at, updated_at)
SELECT id, run_id, watch_id, state, created_at, updated_at FROM alerts;
DROP TABLE alerts;
ALTER TABLE alerts_packed RENAME TO alerts;
CREATE INDEX alerts_by_state ON alerts (state, id);
CREATE INDEX alerts_by_watch ON alerts (watch_id);

-- migration 12
-- Confirmation and alert groups (SPEC §17). A statistical watch may carry
-- confirm = K: a run judged out raises its alert as 'suspected', which
-- becomes 'open' once K more consecutive runs of its configuration are out
-- (confirmations counts them) and 'resolved' (reason 'not confirmed') when
-- the next run is inside. The alerts one commit raises form one group
-- (alert_groups: one row per commit, or per run for a run without one),
-- triaged together; ratio is the alerted value over the expected one, kept
-- at insert so the group list reads no judgement. The CHECK on state
-- changes, so the table is rebuilt (SQLite cannot alter a constraint).
ALTER TABLE watches ADD COLUMN confirm INTEGER;
CREATE TABLE alert_groups (
    id         INTEGER PRIMARY KEY,
    vcs_commit TEXT,                           -- the commit, or NULL:
    run_id     INTEGER,                        -- the one run without a commit
    created_at TEXT NOT NULL
);
CREATE UNIQUE INDEX alert_groups_by_commit ON alert_groups (vcs_commit)
    WHERE vcs_commit IS NOT NULL;
CREATE UNIQUE INDEX alert_groups_by_run ON alert_groups (run_id) WHERE run_id IS NOT NULL;
INSERT INTO alert_groups (vcs_commit, run_id, created_at)
SELECT r.vcs_commit, NULL, min(al.created_at) FROM alerts al JOIN runs r ON r.id = al.run_id
WHERE r.vcs_commit IS NOT NULL GROUP BY r.vcs_commit ORDER BY min(al.id);
INSERT INTO alert_groups (vcs_commit, run_id, created_at)
SELECT NULL, al.run_id, min(al.created_at) FROM alerts al JOIN runs r ON r.id = al.run_id
WHERE r.vcs_commit IS NULL GROUP BY al.run_id ORDER BY min(al.id);
CREATE TABLE alerts_grouped (
    id            INTEGER PRIMARY KEY,
    run_id        INTEGER NOT NULL REFERENCES runs(id),
    watch_id      INTEGER NOT NULL REFERENCES watches(id),
    state         TEXT NOT NULL DEFAULT 'open'
                  CHECK (state IN ('suspected', 'open', 'acknowledged', 'false_positive',
                                   'resolved')),
    reason        TEXT,
    confirmations INTEGER NOT NULL DEFAULT 0,
    group_id      INTEGER REFERENCES alert_groups(id),
    ratio         REAL,
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL,
    UNIQUE (run_id, watch_id)
);
INSERT INTO alerts_grouped (id, run_id, watch_id, state, group_id, created_at, updated_at)
SELECT al.id, al.run_id, al.watch_id, al.state,
       coalesce((SELECT g.id FROM alert_groups g WHERE g.vcs_commit = r.vcs_commit),
                (SELECT g.id FROM alert_groups g WHERE g.run_id = al.run_id)),
       al.created_at, al.updated_at
FROM alerts al JOIN runs r ON r.id = al.run_id;
DROP TABLE alerts;
ALTER TABLE alerts_grouped RENAME TO alerts;
CREATE INDEX alerts_by_state ON alerts (state, id);
CREATE INDEX alerts_by_watch ON alerts (watch_id);
CREATE INDEX alerts_by_group ON alerts (group_id, id);

-- migration 13
-- A run may have no time of its own (SPEC §16: a file with metrics or
-- kernels but no time metric, such as an Extra-P file whose metric is
-- `metr`): runs.runtime becomes NULL there, and a configuration counts its
-- timed runs (timed) beside all of them (runs), its min and max NULL until
-- one is timed. SQLite cannot drop a NOT NULL in place and a rebuild of runs
-- would cascade into its children under foreign keys, so the constraint is
-- taken out of the stored table text (SQLite's documented way for removing a
-- NOT NULL: the file format does not change); the step's C part then moves
-- the schema version so that every connection reads the tables again
-- (db/sqlite/db.c). The column goes in first: ADD COLUMN edits the text at
-- the offset it parsed.
ALTER TABLE run_configs ADD COLUMN timed INTEGER NOT NULL DEFAULT 0;
UPDATE run_configs SET timed = runs;
PRAGMA writable_schema = ON;
UPDATE sqlite_master
SET sql = replace(sql, 'runtime    REAL NOT NULL CHECK (runtime >= 0)',
                  'runtime    REAL CHECK (runtime >= 0)')
WHERE type = 'table' AND name = 'runs';
UPDATE sqlite_master
SET sql = replace(replace(sql, 'min_runtime REAL NOT NULL', 'min_runtime REAL'),
                  'max_runtime REAL NOT NULL', 'max_runtime REAL')
WHERE type = 'table' AND name = 'run_configs';
PRAGMA writable_schema = OFF;

-- migration 14
-- A kernel may have no time (SPEC §16: a file whose metrics are visits,
-- bytes or counts, with no time metric): kernels.time becomes NULL there
-- instead of a made-up 0. As in migration 13, the NOT NULL is taken out of
-- the stored table text (SQLite's documented way for removing a NOT NULL: the
-- file format, the rows and the WITHOUT ROWID key do not change), which
-- costs nothing where a rebuild would copy every kernel of every run and
-- drop app_kernels_add with the table; the step's C part moves the schema
-- version so that every connection reads the table again, then gives no
-- time to the kernels importers stored as 0 s for files without a time
-- metric (db/sqlite/db.c, SQL_KERNELS_UNTIMED).
PRAGMA writable_schema = ON;
UPDATE sqlite_master
SET sql = replace(sql, 'time    REAL NOT NULL CHECK (time >= 0)',
                  'time    REAL CHECK (time >= 0)')
WHERE type = 'table' AND name = 'kernels';
PRAGMA writable_schema = OFF;

-- migration 15
-- The scaling-law watch (SPEC §17): a watch whose test is 'scaling' fits
-- the law over x (nprocs or an input) of each new commit's runs and of its
-- baseline's ('branch:B' or 'commit:C'), and compares their predictions at
-- target; its threshold is the least change of that prediction (a ratio
-- less 1) called a change. A commit raises one alert per watch, which keeps
-- what the laws say at the target, refined as the commit's runs arrive:
-- both formulas, the commit's prediction and the baseline's with its
-- interval (alerts.ratio is the one over the other).
ALTER TABLE watches ADD COLUMN x TEXT;
ALTER TABLE watches ADD COLUMN target REAL;
ALTER TABLE watches ADD COLUMN baseline TEXT;
ALTER TABLE alerts ADD COLUMN target REAL;
ALTER TABLE alerts ADD COLUMN formula TEXT;
ALTER TABLE alerts ADD COLUMN baseline_formula TEXT;
ALTER TABLE alerts ADD COLUMN predicted REAL;
ALTER TABLE alerts ADD COLUMN baseline_predicted REAL;
ALTER TABLE alerts ADD COLUMN baseline_lo REAL;
ALTER TABLE alerts ADD COLUMN baseline_hi REAL;
-- The alert-groups list (GET /api/v1/alert-groups, 10,000 alerts within
-- 20 ms): each alert keeps its run's configuration, and one index holds
-- every column the list reads, in the order it lists them, so the list is
-- one backward range of it with no row of alerts or runs read.
ALTER TABLE alerts ADD COLUMN config_id INTEGER;
UPDATE alerts SET config_id = (SELECT r.config_id FROM runs r WHERE r.id = alerts.run_id);
CREATE INDEX alerts_group_list ON alerts (group_id, id, state, config_id, ratio);

-- migration 16
-- PostgreSQL only (schema_pg.sql: app_kernels and app_metrics kept by the
-- store instead of a trigger per row); nothing changes here, where the
-- triggers cost little. The number is taken so that one schema version
-- means the same on both engines.

-- migration 17
-- Issue 30: a page reached by offset (an old ?page=N link) without walking
-- the offset. run_tally counts an application's runs in segments that are
-- contiguous in each order of its runs table (db/summary.h), per executable
-- and system, so that the position of a page is found by summing a few
-- thousand counts and then walking inside one segment (db/tally.c):
--   kind 0, id order: k = id >> 12 (a block of 4,096 ids), blk 0;
--   kind 1, nprocs order: k = nprocs, blk = id >> 12;
--   kind 2, runtime order, timed runs: k = the runtime cut to 9 significant
--     bits (256 segments an octave; k is also the least runtime of its
--     segment), blk 0;
--   kind 3, runtime order, runs without a runtime: k 0, blk = id >> 12.
-- Kept by the store (db_runs_insert, db_run_delete, db_app_delete) in the
-- transaction that changes the runs, a batch's counts summed before they are
-- written; nothing changes a stored run's application, executable, system,
-- nprocs or runtime. The backfill computes the runtime's cut as
-- db_tally_runtime_key does: floor(x * 2^(8-E)) * 2^(E-8), E the exponent of
-- x (log2 corrected by exact powers of two), 0 below 2^-900.
CREATE TABLE run_tally (
    app_id    INTEGER NOT NULL,
    kind      INTEGER NOT NULL,
    k         REAL NOT NULL,
    exe_id    INTEGER NOT NULL,
    system_id INTEGER NOT NULL,
    blk       INTEGER NOT NULL,
    runs      INTEGER NOT NULL,
    PRIMARY KEY (app_id, kind, k, exe_id, system_id, blk)
) WITHOUT ROWID;
INSERT INTO run_tally (app_id, kind, k, exe_id, system_id, blk, runs)
SELECT app_id, 0, id >> 12, exe_id, system_id, 0, count(*) FROM runs
GROUP BY app_id, id >> 12, exe_id, system_id;
INSERT INTO run_tally (app_id, kind, k, exe_id, system_id, blk, runs)
SELECT app_id, 1, nprocs, exe_id, system_id, id >> 12, count(*) FROM runs
GROUP BY app_id, nprocs, exe_id, system_id, id >> 12;
INSERT INTO run_tally (app_id, kind, k, exe_id, system_id, blk, runs)
SELECT app_id, 2, k, exe_id, system_id, 0, count(*) FROM
    (SELECT app_id, exe_id, system_id,
            CASE WHEN runtime < pow(2.0, -900) THEN 0.0
                 ELSE floor(runtime * pow(2.0, 8 - e)) * pow(2.0, e - 8) END AS k
     FROM (SELECT app_id, exe_id, system_id, runtime,
                  e0 - (pow(2.0, e0) > runtime) + (pow(2.0, e0 + 1) <= runtime) AS e
           FROM (SELECT app_id, exe_id, system_id, runtime,
                        CAST(floor(log2(max(runtime, pow(2.0, -900)))) AS INTEGER) AS e0
                 FROM runs WHERE runtime IS NOT NULL)))
GROUP BY app_id, k, exe_id, system_id;
INSERT INTO run_tally (app_id, kind, k, exe_id, system_id, blk, runs)
SELECT app_id, 3, 0, exe_id, system_id, id >> 12, count(*) FROM runs
WHERE runtime IS NULL GROUP BY app_id, exe_id, system_id, id >> 12;

-- migration 18
-- A kernel's call count may be unknown (SPEC §16: Extra-P, Caliper and
-- HPCToolkit files, Extra-P experiments and CUBE profiles without visits
-- count no calls): kernels.calls becomes NULL there instead of a made-up 0
-- (or 1). As in migration 14, the NOT NULL is taken out of the stored table
-- text (the file format, the rows and the key do not change); the step's C
-- part moves the schema version so that every connection reads the table
-- again, then takes the made-up counts of the kernels those importers stored
-- (db/sqlite/db.c, SQL_KERNELS_UNCOUNTED). Runs sent through the API keep
-- what they said.
PRAGMA writable_schema = ON;
UPDATE sqlite_master
SET sql = replace(sql, 'calls   INTEGER NOT NULL DEFAULT 1 CHECK (calls >= 0)',
                  'calls   INTEGER DEFAULT 1 CHECK (calls >= 0)')
WHERE type = 'table' AND name = 'kernels';
PRAGMA writable_schema = OFF;

-- migration 19
-- app_kernels and app_metrics kept by the store (db/sqlite/runs.c, one
-- upsert a name per insert call, its application's id known) instead of the
-- triggers of migration 5, which read the run again for each kernel and
-- metric row and ran a trigger program: about 40 of 140 us of store CPU a
-- run of 10 kernels and 2 metrics. As on PostgreSQL since migration 16.
DROP TRIGGER IF EXISTS app_kernels_add;
DROP TRIGGER IF EXISTS app_metrics_add;

-- migration 20
-- A system benchmark's series (SPEC §16, OSU): `label`, the words that tell
-- it from another series of the same name (an OSU log's line before each of
-- its tables, "Testing Same CCX", where the tables of one test differ by
-- it), and `test`, the tool's name of the test that measured it
-- (osu_latency); '' where the source gave none, as for every row stored
-- before:
--     label TEXT NOT NULL DEFAULT '', test TEXT NOT NULL DEFAULT ''
-- SQLite's ADD COLUMN has no IF NOT EXISTS, and the migrations from 17 on
-- bear running again over their own result (a database stepped back to 16
-- runs them again), so the step's C part adds each column the table lacks
-- (db/sqlite/db.c, SQL_BENCH_SERIES). Constant defaults: nothing is rewritten.

-- migration 21
-- The version of the trace analyses each stored trace's answers and charts
-- were computed by (core/trace.h RUN_TRACE_VERSION): they are computed once
-- when a trace arrives, so a database written by an older prophecyd kept the
-- older answers and charts for good. `prophecyd serve` computes again, from
-- the stored rank files, every trace stored with an older version
-- (core/trace_renew.c); 0 for every trace stored before:
--     analysed INTEGER NOT NULL DEFAULT 0
-- As in migration 20, the step's C part adds the column where traces lacks
-- it (db/sqlite/db.c, SQL_TRACES_ANALYSED). Constant default: nothing is
-- rewritten.
