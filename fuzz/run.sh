#!/usr/bin/env bash
# Runs the fuzz targets, one after another, each on its corpus (build it first with
# fuzz/seed.sh): `fuzz/run.sh --time 20` runs each for 20 seconds (what CI does),
# `fuzz/run.sh --runs 1000000 parse_native` one target for a million executions.
# Any crash, panic, timeout (10 s for one input) or memory use past 2 GiB stops the run
# with a non-zero status and leaves the input in fuzz/artifacts/<target>/.
set -euo pipefail
cd "$(dirname "$0")"

limit=()
case "${1:-}" in
  --time) limit=(-max_total_time="$2"); shift 2 ;;
  --runs) limit=(-runs="$2"); shift 2 ;;
  *) echo "usage: fuzz/run.sh --time SECONDS|--runs N [target...]" >&2; exit 2 ;;
esac
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(parse_native parse_json reparse merge eval state plan framing)
fi

# cargo fuzz needs nightly flags; the stable toolchain accepts them with RUSTC_BOOTSTRAP.
# No sanitizer (-s none): the code fuzzed is safe Rust, and the address sanitizer would
# halve the executions per second for nothing it could find.
export RUSTC_BOOTSTRAP=1
for target in "${targets[@]}"; do
  mkdir -p "corpus/$target"
  # Short inputs keep executions fast; modules of several files need more room.
  case "$target" in
    merge|plan) max_len=4096 ;;
    *) max_len=2048 ;;
  esac
  extra=()
  if [ "$target" = eval ] && [ -f corpus/eval.dict ]; then
    extra=(-dict=corpus/eval.dict)
  fi
  echo "== $target"
  cargo fuzz run -s none "$target" "corpus/$target" -- \
    -max_len=$max_len -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    "${limit[@]}" "${extra[@]}"
done
