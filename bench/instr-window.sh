#!/bin/sh
# Instructions per request of one route in process, counting only a window of N requests after WARM
# uninstrumented ones (start-up, sign-up and warm-up excluded, so no difference of two runs is needed):
#   bench/instr-window.sh BUNDLE OUT [N] [WARM]    with BUNDLE an esbuild bundle of bench/handler-driver.ts
# (its DATABASE, ROUTE and AUDIT pass through the environment; NODE=/path/to/node runs another Node).
# Prints the instructions per request; OUT is the callgrind profile of the window (callgrind_annotate).
set -eu
bundle=$1 out=$2 n=${3:-10000} warm=${4:-2000}
gate=$(mktemp -u)
log=$(mktemp)
GATE=$gate WARM=$warm N=$n valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$out" \
  "${NODE:-node}" --predictable --single-threaded "$bundle" >"$log" 2>&1 &
until grep -q '^warm ' "$log"; do
  if ! kill -0 $! 2>/dev/null; then cat "$log" >&2; exit 1; fi
  sleep 2
done
callgrind_control -i on "$(sed -n 's/^warm //p' "$log")" >/dev/null
touch "$gate"
wait $!
rm -f "$gate"
total=$(sed -n 's/^summary: //p' "$out")
echo "$total $n" | awk '{ printf "%.1f k instructions per request (%d over %d requests)\n", $1 / $2 / 1000, $1, $2 }'
rm -f "$log"
