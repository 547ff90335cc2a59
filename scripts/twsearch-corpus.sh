#!/usr/bin/env bash
# Times bitsolve against `twsearch -g` on twsearch's own sample definitions,
# whole process, one thread each, in alternating pairs:
#
#   scripts/twsearch-corpus.sh SAMPLES_DIR TWSEARCH [PAIRS] FILE.tws...
#
# SAMPLES_DIR is twsearch's samples/main (its files stay outside this
# repository), TWSEARCH its binary; $BITSOLVE is ours (by default the
# release build, target/release/bitsolve). For
# each file it prints a tab-separated line: the file, twsearch's reachable
# count and index ("State size"), bitsolve's, then each program's median
# wall seconds and peak resident KiB over PAIRS pairs (default 3), and the
# per-core ratio. The counts must agree (bitsolve's total against the sum
# of twsearch's "Dist" lines): a file where they differ is reported and
# the script exits non-zero.
set -euo pipefail
samples=${1:?usage: twsearch-corpus.sh SAMPLES_DIR TWSEARCH [PAIRS] FILE...}
twsearch=${2:?twsearch binary}
bitsolve=${BITSOLVE:-target/release/bitsolve}
shift 2
pairs=3
if [[ ${1:-} =~ ^[0-9]+$ ]]; then pairs=$1; shift; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
median() { sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
status=0
printf 'file\ttw_reachable\ttw_index\tbs_reachable\tbs_index\ttw_seconds\ttw_kib\tbs_seconds\tbs_kib\tratio\n'
for name in "$@"; do
  file="$samples/$name"
  : > "$work/tw.times"; : > "$work/bs.times"
  for ((i = 0; i < pairs; i++)); do
    /usr/bin/time -f '%e %M' -o "$work/t" "$twsearch" -g -t 1 "$file" > "$work/tw.out" 2>&1
    cat "$work/t" >> "$work/tw.times"
    /usr/bin/time -f '%e %M' -o "$work/t" "$bitsolve" bfs ksolve --file "$file" --threads 1 --json > "$work/bs.json" 2> /dev/null
    cat "$work/t" >> "$work/bs.times"
  done
  tw_total=$(awk '/^Dist/ {s += $4} END {printf "%.0f\n", s}' "$work/tw.out")
  tw_index=$(awk '/^State size/ {print $4; exit}' "$work/tw.out")
  read -r bs_total bs_index < <(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(j["total"], j["space_size"])' "$work/bs.json")
  tw_s=$(awk '{print $1}' "$work/tw.times" | median); tw_k=$(awk '{print $2}' "$work/tw.times" | median)
  bs_s=$(awk '{print $1}' "$work/bs.times" | median); bs_k=$(awk '{print $2}' "$work/bs.times" | median)
  # Under 50 ms (time counts hundredths of a second) a ratio says little.
  ratio=$(awk -v a="$tw_s" -v b="$bs_s" 'BEGIN {if (a < 0.05 || b < 0.05) print "-"; else printf "%.2f", a / b}')
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$tw_total" "$tw_index" "$bs_total" "$bs_index" "$tw_s" "$tw_k" "$bs_s" "$bs_k" "$ratio"
  if [[ "$tw_total" != "$bs_total" ]]; then
    echo "twsearch-corpus: $name: twsearch reached $tw_total positions, bitsolve $bs_total" >&2
    status=1
  fi
done
exit $status
