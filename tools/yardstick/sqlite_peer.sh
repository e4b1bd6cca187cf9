#!/usr/bin/env bash
# Plain-SQLite peer for healthlog: the same jobs done the strongest way a user
# would with only the sqlite3 CLI (all work in C; no Python in the timed path).
#
#   sqlite_peer.sh ingest    DB FILE.ndjson        append events (seq = line number)
#   sqlite_peer.sh query     DB TYPE ANCHOR LIMIT  anchored query of one type
#   sqlite_peer.sh replay    DB ANCHOR             everything after ANCHOR, all types
#   sqlite_peer.sh aggregate DB TYPE               per-day (UTC) stats of `value`, CSV
#
# Schema: samples holds live samples, deleted holds delete events carrying the
# deleted sample's type/start/end/source. seq is global across both tables and
# strictly increasing (line number, 1-based, continuing across ingests).
# The peer trusts its input (valid event lines, as gen.py writes them);
# it does no validation.
set -euo pipefail

SQLITE=${SQLITE:-sqlite3}

die() { echo "sqlite_peer.sh: $*" >&2; exit 2; }
is_int() { [[ $1 =~ ^[0-9]+$ ]]; }
is_type() { [[ $1 =~ ^[A-Za-z0-9_]+$ ]]; }   # HealthKit identifiers only: safe to splice into SQL

# SQL for the next anchor, computed without materialising the result:
# if LIMIT > 0 and at least LIMIT rows exist past ANCHOR, the seq of the
# LIMIT-th one (an index-only walk of the (type, seq) indexes); otherwise the
# max seq in the store. $1 = extra WHERE condition (type filter or "1").
next_anchor_sql() {
  local where=$1 anchor=$2 limit=$3
  local maxseq="max(coalesce((SELECT max(seq) FROM samples),0), coalesce((SELECT max(seq) FROM deleted),0))"
  if (( limit > 0 )); then
    echo "SELECT 'next-anchor: ' || coalesce(
            (SELECT seq FROM (SELECT seq FROM samples WHERE $where AND seq > $anchor
                              UNION ALL
                              SELECT seq FROM deleted WHERE $where AND seq > $anchor
                              ORDER BY seq LIMIT 1 OFFSET $((limit - 1)))),
            $maxseq);"
  else
    echo "SELECT 'next-anchor: ' || $maxseq;"
  fi
}

# Rows past ANCHOR as JSON lines, merged in seq order. Live samples are the
# stored line with op/uuid normalised and seq added (keeps workout and
# correlation fields); deleted objects are built with json_object.
# The ORDER BY/LIMIT sit on the compound inside the subquery: SQLite then
# merges the two (type, seq) index ranges ("MERGE (UNION ALL)") and streams
# rows in order; an outer ORDER BY would sort everything in a temp B-tree.
rows_sql() {
  local where=$1 anchor=$2 limit=$3
  local lim=""; (( limit > 0 )) && lim="LIMIT $limit"
  cat <<SQL
SELECT j FROM (
  SELECT seq, json_set(body, '\$.op', 'add', '\$.uuid', uuid, '\$.seq', seq) AS j
    FROM samples WHERE $where AND seq > $anchor
  UNION ALL
  SELECT seq, CASE WHEN source IS NULL
              THEN json_object('op','delete','uuid',uuid,'type',type,'start',start,'end',end,'seq',seq)
              ELSE json_object('op','delete','uuid',uuid,'type',type,'start',start,'end',end,'source',source,'seq',seq)
              END
    FROM deleted WHERE $where AND seq > $anchor
  ORDER BY seq $lim);
SQL
}

cmd=${1:-}; shift || true
case $cmd in
ingest)
  [[ $# -eq 2 ]] || die "usage: ingest DB FILE.ndjson"
  db=$1 file=$2
  [[ -r $file ]] || die "cannot read $file"
  [[ $file != *\"* ]] || die "file name must not contain a double quote"
  # 1. .import the raw lines into a TEMP staging table (rowid = line number):
  #    ascii mode with \x1f as the (never occurring) column separator and \n as
  #    the row separator, so each line lands verbatim in one column.
  # 2. set-based SQL: adds -> samples, deletes -> deleted (joined to the
  #    sample they delete), then drop deleted rows from samples.
  # All inside one transaction; indexes are built after the bulk insert.
  "$SQLITE" -batch -bail "$db" <<SQL
.output /dev/null
PRAGMA page_size=16384;
PRAGMA journal_mode=WAL;
PRAGMA synchronous=NORMAL;
CREATE TABLE IF NOT EXISTS samples(seq INTEGER PRIMARY KEY, uuid TEXT, type TEXT, start TEXT, end TEXT,
  value, unit TEXT, source TEXT, device TEXT, metadata TEXT, body TEXT);
CREATE TABLE IF NOT EXISTS deleted(seq INTEGER PRIMARY KEY, uuid TEXT, type TEXT, start TEXT, end TEXT, source TEXT);
BEGIN;
CREATE TEMP TABLE raw(line TEXT);
.mode ascii
.separator "\037" "\n"
.import --schema temp "$file" raw
CREATE TEMP TABLE base AS SELECT max(coalesce((SELECT max(seq) FROM samples),0),
                                     coalesce((SELECT max(seq) FROM deleted),0)) AS b;
INSERT INTO samples
  SELECT (SELECT b FROM base) + rowid, upper(json_extract(line,'\$.uuid')), json_extract(line,'\$.type'),
         json_extract(line,'\$.start'), coalesce(json_extract(line,'\$.end'), json_extract(line,'\$.start')),
         json_extract(line,'\$.value'), json_extract(line,'\$.unit'), json_extract(line,'\$.source'),
         json_extract(line,'\$.device'), json_extract(line,'\$.metadata'), line
    FROM raw WHERE coalesce(json_extract(line,'\$.op'),'add') = 'add';
-- uuid UNIQUE: built once after the bulk insert (a sorted build), then
-- maintained incrementally by later ingests.
CREATE UNIQUE INDEX IF NOT EXISTS samples_uuid ON samples(uuid);
INSERT INTO deleted
  SELECT (SELECT b FROM base) + r.rowid, s.uuid, s.type, s.start, s.end, s.source
    FROM raw r JOIN samples s ON s.uuid = upper(json_extract(r.line,'\$.uuid'))
   WHERE instr(r.line, 'delete') > 0              -- cheap prefilter: skip parsing add lines
     AND json_extract(r.line,'\$.op') = 'delete';
DELETE FROM samples WHERE uuid IN (SELECT uuid FROM deleted WHERE seq > (SELECT b FROM base));
CREATE INDEX IF NOT EXISTS samples_type_seq ON samples(type, seq);
CREATE INDEX IF NOT EXISTS deleted_type_seq ON deleted(type, seq);
COMMIT;
SQL
  ;;
query)
  [[ $# -eq 4 ]] || die "usage: query DB TYPE ANCHOR LIMIT"
  db=$1 type=$2 anchor=$3 limit=$4
  is_type "$type" || die "bad type: $type"
  is_int "$anchor" && is_int "$limit" || die "ANCHOR and LIMIT must be non-negative integers"
  where="type = '$type'"
  "$SQLITE" -batch -bail -readonly "$db" <<SQL
.mode list
$(rows_sql "$where" "$anchor" "$limit")
.output stderr
$(next_anchor_sql "$where" "$anchor" "$limit")
SQL
  ;;
replay)
  [[ $# -eq 2 ]] || die "usage: replay DB ANCHOR"
  db=$1 anchor=$2
  is_int "$anchor" || die "ANCHOR must be a non-negative integer"
  "$SQLITE" -batch -bail -readonly "$db" <<SQL
.mode list
$(rows_sql 1 "$anchor" 0)
.output stderr
$(next_anchor_sql 1 "$anchor" 0)
SQL
  ;;
aggregate)
  [[ $# -eq 2 ]] || die "usage: aggregate DB TYPE"
  db=$1 type=$2
  is_type "$type" || die "bad type: $type"
  # date() converts "+01:00"-style offsets to UTC, so day = the UTC day of start.
  "$SQLITE" -batch -bail -readonly "$db" <<SQL
.mode csv
.headers on
SELECT date(start) AS day, count(*) AS count, sum(value) AS sum, avg(value) AS avg,
       min(value) AS min, max(value) AS max
  FROM samples WHERE type = '$type' GROUP BY day ORDER BY day;
SQL
  ;;
*)
  die "usage: sqlite_peer.sh ingest|query|replay|aggregate ... (see header)"
  ;;
esac
