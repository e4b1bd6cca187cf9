#!/usr/bin/env bash
# Instructions (callgrind Ir, summed over every process of a job) of the yardstick's healthlog
# query jobs, for one or more healthlog binaries on the same stores: a measure that the
# machine's load does not move, for comparing builds.
#
#   tools/yardstick/instructions.sh BASE OTHER...      (release binaries to compare)
#
# Environment: EVENTS (1000000), SEED (1), WORK (/tmp/healthlog-bench/EVENTS; the events
# file run.sh generated is reused from there). The stores are written by BASE into
# $WORK/instructions/. Needs valgrind and strip (binaries are measured as copies without
# debug information, which valgrind cannot read in a static Swift executable).
# Prints a Markdown table: each job's instructions per binary and each other one ÷ BASE's.
set -euo pipefail
(($# >= 1)) || { echo "usage: $0 BASE [OTHER...]" >&2; exit 2; }
BENCH=$(cd "$(dirname "$0")" && pwd)
N=${EVENTS:-1000000} SEED=${SEED:-1}
WORK=${WORK:-/tmp/healthlog-bench/$N}
DATA=$WORK/events-s$SEED.ndjson
OUT=$WORK/instructions
HR=HKQuantityTypeIdentifierHeartRate BG=HKQuantityTypeIdentifierBloodGlucose
mkdir -p "$OUT"
[[ -s $DATA ]] || { mkdir -p "$WORK"; python3 "$BENCH/gen.py" --events "$N" --seed "$SEED" --out "$DATA.tmp" --types 2>/dev/null; mv "$DATA.tmp" "$DATA"; }
bins=()
for b in "$@"; do
  copy=$OUT/bin${#bins[@]}; cp "$b" "$copy"; strip -g "$copy"; bins+=("$copy")
done

# The stores, as run.sh makes them: the whole file in one append, and a second store in two
# appends split at the 90% anchor, whose first append's next-anchor is that anchor.
base=${bins[0]} S=$OUT/hl.store S90=$OUT/hl90.store
rm -rf "$S" "$S90"
"$base" --store "$S" append "$DATA" >/dev/null 2>&1
A90=$(awk -v k=$((N * 9 / 10)) 'NR > k && !/BloodPressureDiastolic|CorrelationTypeIdentifierBloodPressure/ { print NR - 1; exit }' "$DATA")
head -n "$A90" "$DATA" >"$OUT/part1.ndjson"
tail -n +"$((A90 + 1))" "$DATA" >"$OUT/part2.ndjson"
"$base" --store "$S90" append "$OUT/part1.ndjson" >/dev/null 2>&1
tok=$("$base" --store "$S90" replay --from 0 --type "$BG" 2>&1 >/dev/null | sed -n 's/^next-anchor: //p' | tail -n 1)
"$base" --store "$S90" append "$OUT/part2.ndjson" >/dev/null 2>&1
rm -f "$OUT/part1.ndjson" "$OUT/part2.ndjson"

# A wrapper that paged.sh (through HEALTHLOG) and the single jobs run: the binary under callgrind.
cat >"$OUT/callgrind.sh" <<'WRAP'
#!/usr/bin/env bash
exec valgrind --tool=callgrind --log-file="$CGDIR/log.%p" --callgrind-out-file="$CGDIR/cg.%p" "$REAL" "$@"
WRAP
chmod +x "$OUT/callgrind.sh"
W=$OUT/callgrind.sh
jobs=("replay all from 0" "query glucose from 0" "query glucose from 90%" "paged HR limit 10000" "aggregate HR per day")
declare -A IR
for k in "${!bins[@]}"; do
  for job in "${jobs[@]}"; do
    d=$OUT/cg/$k/${job//[^A-Za-z0-9]/_}; rm -rf "$d"; mkdir -p "$d"
    case $job in
      "replay all from 0") cmd=("$W" --store "$S" replay --from 0) ;;
      "query glucose from 0") cmd=("$W" --store "$S" replay --from 0 --type "$BG") ;;
      "query glucose from 90%") cmd=("$W" --store "$S90" replay --from "$tok" --type "$BG") ;;
      "paged HR limit 10000") cmd=("$BENCH/paged.sh" healthlog "$S" "$HR" 10000) ;;
      "aggregate HR per day") cmd=("$W" --store "$S" aggregate --type "$HR" --interval day --format csv) ;;
    esac
    CGDIR=$d REAL=${bins[$k]} HEALTHLOG=$W "${cmd[@]}" >/dev/null 2>"$d/stderr"
    IR[$k,$job]=$(cat "$d"/cg.* | awk '/^summary:/ { s += $2 } END { print s }')
  done
done

printf '| job |'; for b in "$@"; do printf ' %s |' "$b"; done
for ((k = 1; k < ${#bins[@]}; k++)); do printf ' ÷ first |'; done; echo
printf '|---|'; for ((k = 0; k < 2 * ${#bins[@]} - 1; k++)); do printf -- '---:|'; done; echo
for job in "${jobs[@]}"; do
  printf '| %s |' "$job"
  for k in "${!bins[@]}"; do printf ' %s |' "$(awk -v n="${IR[$k,$job]}" 'BEGIN { printf "%.2f M", n / 1e6 }')"; done
  for ((k = 1; k < ${#bins[@]}; k++)); do printf ' %s |' "$(awk -v a="${IR[$k,$job]}" -v b="${IR[0,$job]}" 'BEGIN { printf "%.3f", a / b }')"; done
  echo
done
