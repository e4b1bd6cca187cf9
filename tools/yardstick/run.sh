#!/usr/bin/env bash
# Whole healthlog-vs-peers comparison at one size.
#
#   [HEALTHLOG=/path/to/healthlog] ./run.sh [EVENTS]        (default 1000000)
#
# Environment: SEED (1), RUNS (5), WARMUP (1), QUERY_RUNS (50: the millisecond
#              rare-type queries, for every peer, so their medians hold still),
#              WORK (/tmp/healthlog-bench/EVENTS; generated data is cached there),
#              ENCRYPTED (1: every healthlog job again on an encrypted store, opened
#              with a key file; 0 to skip), PAIR_RUNS (1: the two healthlog peers'
#              read jobs alternate, this many runs at a time, see pair_times),
#              HEALTHLOG_BUILD (how the binary was built, for the table's header).
# Needs: python3, sqlite3, hyperfine, lz4, jq; duckdb (pip) for the DuckDB rows.
# Results: a Markdown table (with the machine and load) on stdout, $WORK/results.tsv, hyperfine JSON in $WORK/json/.
set -euo pipefail

BENCH=$(cd "$(dirname "$0")" && pwd)
N=${1:-1000000}
SEED=${SEED:-1} RUNS=${RUNS:-5} WARMUP=${WARMUP:-1} QUERY_RUNS=${QUERY_RUNS:-50} PAIR_RUNS=${PAIR_RUNS:-1}
WORK=${WORK:-/tmp/healthlog-bench/$N}
HR=HKQuantityTypeIdentifierHeartRate     # "HR" in job names
BG=HKQuantityTypeIdentifierBloodGlucose  # "glucose" in job names, the rare type
PAGE=10000

mkdir -p "$WORK/json"
WORK=$(cd "$WORK" && pwd)
DATA=$WORK/events-s$SEED.ndjson
RESULTS=$WORK/results.tsv
LOG=$WORK/run.log
: >"$LOG"
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
q() { printf '%q' "$1"; }   # quote a path for the command strings hyperfine runs
say() { echo "[$(date +%T)] $*" >&2; }

HL=""
if [[ -n ${HEALTHLOG:-} && -x ${HEALTHLOG} && ! -d ${HEALTHLOG} ]]; then
  HEALTHLOG=$(readlink -f "$HEALTHLOG"); export HEALTHLOG; HL=$(q "$HEALTHLOG")
else
  say "note: HEALTHLOG is not set or not executable: healthlog rows skipped"
fi
DUCK=0; python3 -c 'import duckdb' 2>/dev/null && DUCK=1 || say "note: python3 cannot import duckdb: DuckDB rows skipped"

# ---- data -------------------------------------------------------------------
if [[ ! -s $DATA ]]; then
  say "generating $N events (seed $SEED) -> $DATA"
  python3 "$BENCH/gen.py" --events "$N" --seed "$SEED" --out "$DATA.tmp" --types 2>"$WORK/types.txt"
  mv "$DATA.tmp" "$DATA"
fi
# The "90% anchor": the line count of the first ~90% of the log, moved forward
# so that no blood-pressure group (members + correlation, one append) is split.
A90=$(awk -v k=$((N * 9 / 10)) 'NR > k && !/BloodPressureDiastolic|CorrelationTypeIdentifierBloodPressure/ { print NR - 1; exit }' "$DATA")

printf 'job\tpeer\tmedian_s\trows\tevents_per_s\tbytes\tpeak_rss_kb\tnote\n' >"$RESULTS"
record() {  # job peer median rows bytes rss_kb note
  local eps=-
  [[ $3 != - && $4 != - ]] && eps=$(awk -v r="$4" -v t="$3" 'BEGIN { printf "%.0f", (t > 0 ? r / t : 0) }')
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$eps" "$5" "$6" "$7" >>"$RESULTS"
}

# bench JOB PEER PREPARE CMD SINK: time CMD with hyperfine (output to /dev/null,
# PREPARE before every run), then run it once more under /usr/bin/time for peak
# RSS, with stdout to $WORK/last.out (SINK=keep) or counted (SINK=count).
# Sets MEDIAN, RSS_KB, OUT_LINES; returns 1 if the command fails.
bench() {
  local job=$1 peer=$2 prep=$3 cmd=$4 sink=$5
  local js="$WORK/json/${job// /_}__${peer//[^A-Za-z0-9]/_}.json"
  say "$job / $peer: $cmd"
  if [[ -n ${PAIRED[$peer]:-} ]]; then
    MEDIAN=${PAIRED[$peer]}
  else
    local hf=(hyperfine --warmup "$WARMUP" --runs "${JOB_RUNS:-$RUNS}" --export-json "$js")
    [[ -n $prep ]] && hf+=(--prepare "$prep")
    if ! "${hf[@]}" "$cmd" >>"$LOG" 2>&1; then
      say "  FAILED (see $LOG)"; record "$job" "$peer" - - - - "FAILED"; return 1
    fi
    MEDIAN=$(jq -r '.results[0].median' "$js")
  fi
  [[ -n $prep ]] && bash -c "$prep"
  if [[ $sink == keep ]]; then
    /usr/bin/time -f %M -o "$WORK/rss.txt" bash -c "$cmd" >"$WORK/last.out" 2>"$WORK/last.err"
    OUT_LINES=$(wc -l <"$WORK/last.out")
  else
    OUT_LINES=$( (/usr/bin/time -f %M -o "$WORK/rss.txt" bash -c "$cmd" 2>"$WORK/last.err") | wc -l)
  fi
  RSS_KB=$(tail -n 1 "$WORK/rss.txt")
  say "  median $(printf %.3f "$MEDIAN") s, peak RSS $((RSS_KB / 1024)) MB"
}
# pair_times JOB CMD_PLAIN CMD_ENCRYPTED: times a read job's two healthlog peers with their
# runs alternated, PAIR_RUNS at a time (each turn after its own warmup), so that a change
# in the machine's speed during the job, which on a virtual machine comes and goes within
# seconds, falls on both alike; the median of each peer's runs goes to PAIRED, which bench
# then reports instead of timing the peer on its own. Without the encrypted peer, or when
# a command fails, PAIRED stays empty and bench times each peer as it does any other.
declare -A PAIRED=()
pair_times() {
  PAIRED=()
  [[ -n $HL ]] && (( ENCRYPTED )) || return 0
  local job=$1 cmds=("$2" "$3") peers=(healthlog "healthlog encrypted") files=("" "") r i
  local rounds=$(( (${JOB_RUNS:-$RUNS} + PAIR_RUNS - 1) / PAIR_RUNS ))
  say "$job / both healthlog peers, alternated: $rounds turns each of $PAIR_RUNS runs"
  for ((r = 1; r <= rounds; r++)); do
    for i in 0 1; do
      local js="$WORK/json/${job// /_}__${peers[i]//[^A-Za-z0-9]/_}.round$r.json"
      hyperfine --warmup "$WARMUP" --runs "$PAIR_RUNS" --export-json "$js" "${cmds[i]}" >>"$LOG" 2>&1 || return 0
      files[i]+=" $js"
    done
  done
  for i in 0 1; do
    # shellcheck disable=SC2086  # the list of files
    PAIRED[${peers[i]}]=$(jq -s '[.[].results[0].times[]] | sort | if length % 2 == 1 then .[length / 2 | floor] else (.[length / 2 - 1] + .[length / 2]) / 2 end' ${files[i]})
  done
}
duck_note() { sed -n 's/^duckdb \(in-process: .*\)/\1/p' "$WORK/last.err" | tail -n 1; }
disk() { du -scb "$@" 2>/dev/null | tail -n 1 | cut -f1; }
# Sum of the "count" column of a CSV (whatever its position); else data lines.
csv_count() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "count") c = i; next }
                       { s += (c ? $c : 1) } END { print s + 0 }' "$1"; }
declare -A SQLITE_ROWS
note_vs_sqlite() { local s=${SQLITE_ROWS[$1]:-}; [[ -n $s && $s != "$2" ]] && echo "rows differ from sqlite ($s)" || true; }

DB=$WORK/sqlite.db STORE=$WORK/hl.store DDB=$WORK/duck.duckdb ENC=$WORK/hl-encrypted.store
# The encrypted store's key file: every healthlog command finds it in HEALTHLOG_KEY_FILE
# (a plaintext store ignores it), so both stores run the very same commands.
ENCRYPTED=${ENCRYPTED:-1}
[[ -n $HL ]] || ENCRYPTED=0
if (( ENCRYPTED )); then
  export HEALTHLOG_KEY_FILE=$WORK/store.key
  [[ -s $HEALTHLOG_KEY_FILE ]] || { head -c 32 /dev/urandom >"$HEALTHLOG_KEY_FILE"; chmod 600 "$HEALTHLOG_KEY_FILE"; }
fi

# ---- reference sizes and lz4 speed -------------------------------------------
raw=$(stat -c %s "$DATA")
lz=$(lz4 -1 -c "$DATA" | wc -c)
record "size" "ndjson raw" - - "$raw" - "$(wc -l <"$DATA") lines"
record "size" "ndjson lz4 -1" - - "$lz" - "ratio $(awk -v a="$raw" -v b="$lz" 'BEGIN { printf "%.2f", a / b }')"
lzb=$(lz4 -b1 "$DATA" 2>&1 | tr '\r' '\n' | grep 'MB/s ,' | tail -n 1 | sed 's/.*), *//; s/ *,/ \/ /')
record "lz4 -b1" "compress / decompress" - - - - "$lzb"
bench startup "sqlite3 CLI" "" "sqlite3 :memory: 'select 1'" count && record startup "sqlite3 CLI" "$MEDIAN" - - "$RSS_KB" ""
(( DUCK )) && bench startup "python3 + duckdb" "" "python3 -c 'import duckdb; duckdb.connect()'" count &&
  record startup "python3 + duckdb" "$MEDIAN" - - "$RSS_KB" "fixed cost in every DuckDB row"

# ---- ingest --------------------------------------------------------------------
if bench ingest sqlite "rm -f $(q "$DB") $(q "$DB")-wal $(q "$DB")-shm" \
     "$BENCH/sqlite_peer.sh ingest $(q "$DB") $(q "$DATA")" count; then
  record ingest sqlite "$MEDIAN" "$N" "$(disk "$DB" "$DB-wal")" "$RSS_KB" "WAL, synchronous=NORMAL"
fi
if (( DUCK )) && bench ingest "duckdb (load)" "rm -f $(q "$DDB") $(q "$DDB").wal" \
     "python3 $BENCH/duckdb_peer.py load $(q "$DDB") $(q "$DATA")" count; then
  record ingest "duckdb (load)" "$MEDIAN" "$N" "$(disk "$DDB" "$DDB.wal")" "$RSS_KB" "analytics table (live samples, no raw line); $(duck_note)"
fi
if [[ -n $HL ]] && bench ingest healthlog "rm -rf $(q "$STORE")" "$HL --store $(q "$STORE") append $(q "$DATA")" count; then
  record ingest healthlog "$MEDIAN" "$N" "$(disk "$STORE")" "$RSS_KB" ""
fi
if (( ENCRYPTED )) && bench ingest "healthlog encrypted" "rm -rf $(q "$ENC") && $HL --store $(q "$ENC") init --encrypt >/dev/null" \
     "$HL --store $(q "$ENC") append $(q "$DATA")" count; then
  record ingest "healthlog encrypted" "$MEDIAN" "$N" "$(disk "$ENC")" "$RSS_KB" ""
fi

# ---- read jobs ---------------------------------------------------------------------
# The ingests' writeback reaches the disk before any read job is timed, whichever peer wrote last.
sync
# read_job JOB PEER CMD: an output-producing job; rows = output lines.
read_job() {
  local job=$1 peer=$2 cmd=$3
  bench "$job" "$peer" "" "$cmd" count || return 0
  local note=""
  [[ $peer == sqlite ]] && SQLITE_ROWS[$job]=$OUT_LINES || note=$(note_vs_sqlite "$job" "$OUT_LINES")
  record "$job" "$peer" "$MEDIAN" "$OUT_LINES" - "$RSS_KB" "$note"
}
read_job "replay all from 0" sqlite "$BENCH/sqlite_peer.sh replay $(q "$DB") 0"
pair_times "replay all from 0" "$HL --store $(q "$STORE") replay --from 0" "$HL --store $(q "$ENC") replay --from 0"
[[ -n $HL ]] && read_job "replay all from 0" healthlog "$HL --store $(q "$STORE") replay --from 0"
(( ENCRYPTED )) && read_job "replay all from 0" "healthlog encrypted" "$HL --store $(q "$ENC") replay --from 0"

export JOB_RUNS=$QUERY_RUNS
read_job "query glucose from 0" sqlite "$BENCH/sqlite_peer.sh query $(q "$DB") $BG 0 0"
pair_times "query glucose from 0" "$HL --store $(q "$STORE") replay --from 0 --type $BG" "$HL --store $(q "$ENC") replay --from 0 --type $BG"
[[ -n $HL ]] && read_job "query glucose from 0" healthlog "$HL --store $(q "$STORE") replay --from 0 --type $BG"
(( ENCRYPTED )) && read_job "query glucose from 0" "healthlog encrypted" "$HL --store $(q "$ENC") replay --from 0 --type $BG"

read_job "query glucose from 90%" sqlite "$BENCH/sqlite_peer.sh query $(q "$DB") $BG $A90 0"
if [[ -n $HL ]]; then
  # healthlog anchors are opaque: build a second store in two appends (first
  # A90 lines, then the rest) and take the next-anchor after the first one.
  say "healthlog: two-append store for the 90% anchor"
  head -n "$A90" "$DATA" >"$WORK/part1.ndjson"
  tail -n +"$((A90 + 1))" "$DATA" >"$WORK/part2.ndjson"
  peers=(healthlog); (( ENCRYPTED )) && peers+=("healthlog encrypted")
  declare -A TOK
  for peer in "${peers[@]}"; do
    S90=$WORK/hl90${peer#healthlog}.store; S90=${S90// /-}
    rm -rf "$S90"
    [[ $peer == healthlog ]] || "$HEALTHLOG" --store "$S90" init --encrypt >/dev/null
    if "$HEALTHLOG" --store "$S90" append "$WORK/part1.ndjson" >/dev/null &&
       tok=$("$HEALTHLOG" --store "$S90" replay --from 0 --type "$BG" 2>&1 >/dev/null | sed -n 's/^next-anchor: //p' | tail -n 1) &&
       [[ -n $tok ]] && "$HEALTHLOG" --store "$S90" append "$WORK/part2.ndjson" >/dev/null; then
      TOK[$peer]=$tok
    fi
  done
  sync   # both stores' writeback done before either is timed
  PAIRED=()
  [[ -n ${TOK[healthlog]:-} && -n ${TOK[healthlog encrypted]:-} ]] &&
    pair_times "query glucose from 90%" "$HL --store $(q "$WORK/hl90.store") replay --from $(q "${TOK[healthlog]}") --type $BG" \
      "$HL --store $(q "$WORK/hl90-encrypted.store") replay --from $(q "${TOK[healthlog encrypted]}") --type $BG"
  for peer in "${peers[@]}"; do
    S90=$WORK/hl90${peer#healthlog}.store; S90=${S90// /-}
    if [[ -n ${TOK[$peer]:-} ]]; then
      read_job "query glucose from 90%" "$peer" "$HL --store $(q "$S90") replay --from $(q "${TOK[$peer]}") --type $BG"
    else
      say "  could not build the two-append store or read its anchor"; record "query glucose from 90%" "$peer" - - - - FAILED
    fi
  done
  rm -f "$WORK/part1.ndjson" "$WORK/part2.ndjson"
fi
unset JOB_RUNS

# Paged replay: paged.sh prints "pages=P rows=R".
paged_job() {
  local peer=$1 where=$2 job="paged HR limit $PAGE"
  bench "$job" "$peer" "" "$BENCH/paged.sh ${peer%% *} $(q "$where") $HR $PAGE" keep || return 0
  local pages rows note
  pages=$(sed -n 's/^pages=\([0-9]*\) .*/\1/p' "$WORK/last.out")
  rows=$(sed -n 's/.* rows=\([0-9]*\)$/\1/p' "$WORK/last.out")
  [[ $peer == sqlite ]] && { SQLITE_ROWS[$job]=$rows; note=""; } || note=$(note_vs_sqlite "$job" "$rows")
  record "$job" "$peer" "$MEDIAN" "$rows" - "$RSS_KB" "$pages pages${note:+; $note}"
}
paged_job sqlite "$DB"
pair_times "paged HR limit $PAGE" "$BENCH/paged.sh healthlog $(q "$STORE") $HR $PAGE" "$BENCH/paged.sh healthlog $(q "$ENC") $HR $PAGE"
[[ -n $HL ]] && paged_job healthlog "$STORE"
(( ENCRYPTED )) && paged_job "healthlog encrypted" "$ENC"

# Aggregate: rows = samples aggregated (sum of the count column).
agg_job() {
  local peer=$1 cmd=$2 job="aggregate HR per day"
  bench "$job" "$peer" "" "$cmd" keep || return 0
  local rows days note=""
  rows=$(csv_count "$WORK/last.out"); days=$((OUT_LINES - 1))
  [[ $peer == sqlite ]] && SQLITE_ROWS[$job]=$rows || note=$(note_vs_sqlite "$job" "$rows")
  [[ $peer == duckdb* ]] && note="$(duck_note)${note:+; $note}"
  record "$job" "$peer" "$MEDIAN" "$rows" - "$RSS_KB" "$days days${note:+; $note}"
  cp "$WORK/last.out" "$WORK/aggregate-${peer//[^A-Za-z0-9]/_}.csv"
}
agg_job sqlite "$BENCH/sqlite_peer.sh aggregate $(q "$DB") $HR"
if (( DUCK )); then
  agg_job "duckdb (ndjson file)" "python3 $BENCH/duckdb_peer.py file-aggregate $(q "$DATA") $HR"
  agg_job "duckdb (table)" "python3 $BENCH/duckdb_peer.py aggregate $(q "$DDB") $HR"
fi
pair_times "aggregate HR per day" "$HL --store $(q "$STORE") aggregate --type $HR --interval day --format csv" \
  "$HL --store $(q "$ENC") aggregate --type $HR --interval day --format csv"
[[ -n $HL ]] && agg_job healthlog "$HL --store $(q "$STORE") aggregate --type $HR --interval day --format csv"
(( ENCRYPTED )) && agg_job "healthlog encrypted" "$HL --store $(q "$ENC") aggregate --type $HR --interval day --format csv"

# ---- table ---------------------------------------------------------------------
# Markdown, ready for BENCHMARKS.md. "SQLite ÷ this" is the SQLite peer's median over this
# row's median for the same job (above 1: faster than SQLite); compare within one run only.
LOAD_END=$(cut -d' ' -f1-3 /proc/loadavg)
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
os=$(. /etc/os-release 2>/dev/null && echo "${PRETTY_NAME:-}")
duckv=$( ((DUCK)) && python3 -c 'import duckdb; print("DuckDB", duckdb.__version__)' || echo "no DuckDB")
echo
pairing=""
(( ENCRYPTED )) && pairing="; the two healthlog peers' read jobs alternated $PAIR_RUNS run at a time, each turn after its warmup"
echo "$N events (seed $SEED), $RUNS runs + $WARMUP warmup (the rare-type queries $QUERY_RUNS runs)$pairing, $(date -u '+%F %H:%M') UTC"
echo
echo "Machine: ${cpu:-unknown CPU}, $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), ${os:-$(uname -s)} (Linux $(uname -r))."
echo "Tools: sqlite3 $(sqlite3 --version | cut -d' ' -f1), $duckv, $(hyperfine --version), lz4 $(lz4 -V 2>&1 | sed -n 's/.* v\([0-9.]*\).*/\1/p' | head -n 1)${HEALTHLOG_BUILD:+, healthlog $HEALTHLOG_BUILD}."
echo "Load average (1, 5, 15 min): $LOAD_START at the start, $LOAD_END at the end."
echo
awk -F'\t' '
  NR == 1 { next }
  { job[NR] = $1; peer[NR] = $2; med[NR] = $3; rows[NR] = $4; eps[NR] = $5; bytes[NR] = $6; rss[NR] = $7; note[NR] = $8
    if ($2 == "sqlite" && $3 != "-") base[$1] = $3; last = NR }
  END {
    print "| job | peer | median s | SQLite ÷ this | rows | events/s | disk MB | peak RSS MB | note |"
    print "|---|---|---:|---:|---:|---:|---:|---:|---|"
    for (i = 2; i <= last; i++) {
      m = (med[i] == "-" ? "" : sprintf("%.3f", med[i]))
      r = (med[i] != "-" && peer[i] != "sqlite" && (job[i] in base) && med[i] > 0 ? sprintf("%.2f×", base[job[i]] / med[i]) : "")
      mb = (bytes[i] == "-" ? "" : sprintf("%.1f", bytes[i] / 1e6))
      kb = (rss[i] == "-" ? "" : sprintf("%.0f", rss[i] / 1024))
      printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", job[i], peer[i], m, r, (rows[i] == "-" ? "" : rows[i]),
             (eps[i] == "-" ? "" : eps[i]), mb, kb, note[i]
    }
  }' "$RESULTS"
if (( ENCRYPTED )); then
  echo
  echo "The encrypted store beside the plaintext one, in this run (time and disk: encrypted ÷ plaintext, lower is better):"
  echo
  awk -F'\t' '
    NR == 1 { next }
    $2 == "healthlog" && $3 != "-" { plain[$1] = $3; pbytes[$1] = $6; order[++n] = $1 }
    $2 == "healthlog encrypted" && $3 != "-" { enc[$1] = $3; ebytes[$1] = $6 }
    END {
      print "| job | plaintext s | encrypted s | encrypted ÷ plaintext | disk ratio |"
      print "|---|---:|---:|---:|---:|"
      for (i = 1; i <= n; i++) {
        j = order[i]; if (!(j in enc)) continue
        d = (pbytes[j] != "-" && ebytes[j] != "-" && pbytes[j] > 0 ? sprintf("%.3f", ebytes[j] / pbytes[j]) : "")
        printf "| %s | %.3f | %.3f | %.2f× | %s |\n", j, plain[j], enc[j], enc[j] / plain[j], d
      }
    }' "$RESULTS"
fi
echo
echo "HR = $HR, glucose = $BG, 90% anchor = seq $A90; rows = events ingested, lines out or samples aggregated."
echo "Raw results: $RESULTS; hyperfine's JSON in $WORK/json/, its output in $LOG."
