#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The scale benchmark (issue #52): the runs that show what a large fabric costs per
# node and per queued frame, which the small scenarios keep in cache. One at a time,
# each with ai-fabric-bench (its raw event chain in the same process):
#   scale     8,192-host k=32 fat-tree, permutation of 1 MB per host (minutes)
#   training  one iteration of bench/training-1024-gpus.json on 128 x 8 GPUs (minutes)
# Prints a table (wall, peak RSS, events, packet hops, hops per raw event) and keeps
# each run's JSON line in OUT/NAME.json. Not a test: timings are not assertions.
#
#   bench/scale-bench.sh [--build DIR] [--out DIR] [--only NAME[,NAME]] [--huge-pages 0|1]
#
#   --build DIR    the build tree holding bench/ai-fabric-bench (default build)
#   --out DIR      where the runs write (default /var/tmp/ai-fabric-scale-bench)
#   --only ...     run only these (scale, training)
#   --huge-pages   1 (default, as ./ai-fabric run) or 0: the default 4 KB-page heap
#
# Exit 2 on bad arguments or a missing binary, 1 if a run fails.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="$ROOT/build"
OUT=/var/tmp/ai-fabric-scale-bench
ONLY="scale,training"
HUGE=1

die() {
    echo "scale-bench: $*" >&2
    exit 2
}

while (($# > 0)); do
    case "$1" in
    --build) BUILD="${2:?--build needs a directory}"; shift 2 ;;
    --out) OUT="${2:?--out needs a directory}"; shift 2 ;;
    --only) ONLY="${2:?--only needs names}"; shift 2 ;;
    --huge-pages) HUGE="${2:?--huge-pages needs 0 or 1}"; shift 2 ;;
    *) die "unknown argument '$1' (allowed: --build DIR, --out DIR, --only scale,training, --huge-pages 0|1)" ;;
    esac
done
[[ "$HUGE" == 0 || "$HUGE" == 1 ]] || die "--huge-pages '$HUGE': allowed are 0 and 1"
BENCH="$BUILD/bench/ai-fabric-bench"
[[ -x "$BENCH" ]] || die "no $BENCH (cmake --build $BUILD --target ai-fabric-bench)"
IFS=, read -r -a NAMES <<<"$ONLY"
for name in "${NAMES[@]}"; do
    [[ "$name" == scale || "$name" == training ]] || die "--only '$name': allowed are scale and training"
done

mkdir -p "$OUT"
for name in "${NAMES[@]}"; do
    echo "scale-bench: $name ..." >&2
    if ! "$BENCH" --scenario="$name" --out="$OUT" --huge-pages="$HUGE" >"$OUT/$name.json"; then
        echo "scale-bench: $name failed (see $OUT/$name.json)" >&2
        exit 1
    fi
done

/usr/bin/python3 - "$OUT" "${NAMES[@]}" <<'EOF'
import json, sys
out, names = sys.argv[1], sys.argv[2:]
print("| scenario | topology | wall | peak RSS | events | packet hops | hops / raw events |")
print("|---|---|---|---|---|---|---|")
for name in names:
    with open(f"{out}/{name}.json") as f:
        r = json.loads(f.readline())
    print(f"| {name} | {r['topology']} | {r['wall_s']:.1f} s | {r['peak_rss_mb']:.0f} MB "
          f"| {r['events'] / 1e6:.1f} M | {r['packet_hops'] / 1e6:.1f} M "
          f"| {r['hops_to_raw_event_ratio']:.3f} |")
EOF
