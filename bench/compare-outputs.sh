#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Same outputs before and after a change: builds ai-fabric-sim at BASE_REV and at
# HEAD_REV (default HEAD), runs a fixed set of scenarios with each (both fabrics,
# every congestion control, load-balancing policy, topology family and workload,
# pcaps included) and compares every CSV and pcap byte for byte, and summary.json
# without its host measurements (wall time, rates, memory, the --out path).
#
#   bench/compare-outputs.sh [--work DIR] [--only NAME[,NAME...]] [--allow-added] [--head-flags=FLAGS] [--list] BASE_REV [HEAD_REV]
#
#   --work DIR   where the builds and outputs go (default /var/tmp/ai-fabric-compare);
#                a commit's build is reused on the next call
#   --only ...   run only these scenarios (names as --list prints them)
#   --allow-added  files, summary.json keys and trailing CSV columns that only HEAD
#                writes (a feature added since BASE) are listed as "added" instead of
#                counting as a difference; every file, key and column BASE writes must
#                still be identical
#   --head-flags=FLAGS  extra flags for HEAD's runs only (e.g. an attribute that restores a
#                default changed on purpose since BASE, so the rest can be compared)
#   --list       print the scenarios and exit
#
# Exit 0 when every file is identical, 1 when any differs (the table names the
# first differing file of each scenario), 2 on bad arguments.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK=/var/tmp/ai-fabric-compare
ONLY=""
LIST=0
ALLOW_ADDED=0
HEAD_FLAGS=""
JOBS="${JOBS:-$(nproc 2>/dev/null || echo 2)}"

# name|flags. Small enough to run in about a minute together; each one takes a
# different path through the model.
SCENARIOS=(
    "default|--config=examples/default-scenario.json"
    "dcqcn-permutation|--topology=fattree --k=4 --workload=permutation --bytes=1MB --cc=dcqcn"
    "pfc-incast|--topology=leafspine --workload=incast --fanin=12 --bytes=1MB"
    "lossy-incast|--topology=leafspine --workload=incast --fanin=12 --bytes=1MB --pfc=0 --buffer=1MB"
    "torus-alltoall-dateline|--topology=torus --dims=4x4 --hosts-per-switch=1 --workload=alltoall --bytes=128KB"
    "mesh-2d-allreduce|--topology=mesh --dims=4x4 --workload=allreduce --algorithm=2d --bytes=1MB --cc=dcqcn"
    "dragonfly-ugal-swift|--topology=dragonfly --routing=ugal --workload=permutation --cc=swift --bytes=512KB"
    "dragonfly-valiant-tree|--topology=dragonfly --routing=valiant --workload=allreduce --algorithm=tree --bytes=512KB"
    "hd-flowlet-entropy-pcap|--workload=allreduce --algorithm=hd --cc=dcqcn --lb=flowlet --nic-entropy=4 --iterations=2 --pcap=1"
    "spray-websearch|--topology=fattree --k=4 --workload=allreduce --lb=spray --background=websearch --load=0.5 --cc=dcqcn"
    "roundrobin-sr|--topology=fattree --k=4 --workload=permutation --lb=roundrobin --recovery=sr --bytes=512KB"
    "adaptive-fbhadoop|--workload=incast --lb=adaptive --background=fbhadoop --load=0.3 --cc=dcqcn"
    "tree-swift-calendar|--workload=allreduce --algorithm=tree --cc=swift --scheduler=calendar --background=fbhadoop --load=0.3"
    "reducescatter-allgather|--workload=reducescatter --bytes=2MB --iterations=2 --ack-interval=4"
    "allgather-default-engine|--workload=allgather --bytes=1MB --simulator=default --scheduler=heap"
    "flow-file|--topology=leafspine --leaves=2 --spines=2 --flows=examples/flows-hpcc-example.txt --workload=none --stop-time=3s"
    "ib-alltoall|--fabric=infiniband --topology=fattree --k=4 --workload=alltoall --bytes=256KB --mtu=4096"
    "ib-ring-allreduce|--fabric=infiniband --topology=fattree --k=4 --workload=allreduce --bytes=4MB --mtu=4096"
    "ib-link-failure|--fabric=infiniband --topology=fattree --k=4 --mtu=4096 --workload=permutation --bytes=1MB --link-failure=20@20us"
    "ib-torus-dor|--fabric=infiniband --mtu=4096 --topology=torus --dims=4x4 --hosts-per-switch=1 --workload=allreduce --algorithm=2d --bytes=1MB"
    "ib-dragonfly-hd|--fabric=infiniband --mtu=2048 --topology=dragonfly --workload=allreduce --algorithm=hd --bytes=512KB"
)

die() {
    echo "compare-outputs: $*" >&2
    exit 2
}

args=()
while (($# > 0)); do
    case "$1" in
    --work) WORK="${2:?--work needs a folder}"; shift ;;
    --work=*) WORK="${1#--work=}" ;;
    --only) ONLY="${2:?--only needs names}"; shift ;;
    --only=*) ONLY="${1#--only=}" ;;
    --list) LIST=1 ;;
    --allow-added) ALLOW_ADDED=1 ;;
    --head-flags=*) HEAD_FLAGS="${1#--head-flags=}" ;;
    -h | --help) sed -n '3,24p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) die "unknown option '$1' (allowed: --work DIR, --only NAMES, --allow-added, --head-flags=FLAGS, --list)" ;;
    *) args+=("$1") ;;
    esac
    shift
done

if ((LIST)); then
    for s in "${SCENARIOS[@]}"; do printf '%-26s %s\n' "${s%%|*}" "${s#*|}"; done
    exit 0
fi
((${#args[@]} >= 1 && ${#args[@]} <= 2)) || die "usage: bench/compare-outputs.sh [--work DIR] [--only NAMES] BASE_REV [HEAD_REV]"
base_sha="$(git -C "$ROOT" rev-parse --verify -q "${args[0]}^{commit}")" || die "BASE_REV '${args[0]}' is not a commit here"
head_sha="$(git -C "$ROOT" rev-parse --verify -q "${args[1]:-HEAD}^{commit}")" || die "HEAD_REV '${args[1]}' is not a commit here"

selected=()
for s in "${SCENARIOS[@]}"; do
    name="${s%%|*}"
    if [[ -z "$ONLY" || ",$ONLY," == *",$name,"* ]]; then
        selected+=("$s")
    fi
done
if [[ -n "$ONLY" ]]; then
    IFS=, read -ra wanted <<<"$ONLY"
    for w in "${wanted[@]}"; do
        found=0
        for s in "${selected[@]}"; do [[ "${s%%|*}" == "$w" ]] && found=1; done
        ((found)) || die "--only: no scenario '$w' (bench/compare-outputs.sh --list names them)"
    done
fi

# build <sha>: a tree of that commit (git archive) built without profile, tests or
# examples (only ai-fabric-sim); prints the tree's folder.
build() {
    local sha="$1" tree="$WORK/src-$1"
    if [[ ! -x "$tree/build/ai-fabric-sim" ]]; then
        rm -rf "$tree"
        mkdir -p "$tree"
        git -C "$ROOT" archive "$sha" | tar -x -C "$tree"
        echo "compare-outputs: building ${sha:0:10} in $tree" >&2
        cmake -S "$tree" -B "$tree/build" -DCMAKE_BUILD_TYPE=Release -DAI_FABRIC_PGO=OFF \
            -DAI_FABRIC_TESTS=OFF -DAI_FABRIC_EXAMPLES=OFF >"$tree/configure.log" 2>&1 ||
            { tail -20 "$tree/configure.log" >&2; die "configure of ${sha:0:10} failed"; }
        cmake --build "$tree/build" -j "$JOBS" --target ai-fabric-sim >"$tree/build.log" 2>&1 ||
            { tail -30 "$tree/build.log" >&2; die "build of ${sha:0:10} failed"; }
    fi
    echo "$tree"
}

base_tree="$(build "$base_sha")"
head_tree="$(build "$head_sha")"

# summary.json without what the host measures, with the output folder as <out>;
# with a third argument (the other side's summary.json), only the keys that one has.
normalized_summary() {
    /usr/bin/python3 - "$@" <<'EOF'
import json, sys
# What the host measures, and the simulator's estimate of its own footprint (a property
# of the build's data structures, not of the simulated network).
host = {"wall_s", "events_per_s", "packet_hops_per_s", "peak_rss_bytes", "memory_estimate_bytes"}
out_dir = sys.argv[2]
def strip(v):
    if isinstance(v, str):
        return v.replace(out_dir, "<out>")
    if isinstance(v, dict):
        return {k: strip(x) for k, x in v.items() if k not in host}
    if isinstance(v, list):
        return [strip(x) for x in v]
    return v
def keep(v, like, added, path):
    if isinstance(v, dict) and isinstance(like, dict):
        for k in sorted(set(v) - set(like)):
            added.append(path + k)
        return {k: keep(x, like[k], added, path + k + ".") for k, x in v.items() if k in like}
    if isinstance(v, list) and isinstance(like, list) and len(v) == len(like):
        return [keep(x, y, added, path + "[]" + ".") for x, y in zip(v, like)]
    return v
summary = strip(json.load(open(sys.argv[1])))
if len(sys.argv) > 3:
    added = []
    summary = keep(summary, json.load(open(sys.argv[3])), added, "")
    for key in sorted(set(added)):
        print("summary.json:" + key, file=sys.stderr)
print(json.dumps(summary, indent=1, sort_keys=True))
EOF
}

# A CSV with only the columns the other side's CSV has, when those lead its header.
leading_columns() {
    /usr/bin/python3 - "$1" "$2" <<'EOF'
import csv, sys
with open(sys.argv[2], newline="") as f:
    width = len(next(csv.reader(f), []))
with open(sys.argv[1], newline="") as f:
    rows = list(csv.reader(f))
if rows and len(rows[0]) > width and width > 0:
    for column in rows[0][width:]:
        print(sys.argv[1].rsplit("/", 1)[-1] + ":" + column, file=sys.stderr)
    rows = [r[:width] for r in rows]
w = csv.writer(sys.stdout, lineterminator="\n")
w.writerows(rows)
EOF
}

differ=0
rm -f "$WORK/added.all"
printf '%-26s %6s  %s\n' scenario files result
for s in "${selected[@]}"; do
    name="${s%%|*}"
    read -ra flags <<<"${s#*|}"
    for side in base head; do
        tree="$base_tree" extra=()
        [[ "$side" == head ]] && tree="$head_tree" && read -ra extra <<<"$HEAD_FLAGS"
        out="$WORK/out-$name-$side"
        rm -rf "$out"
        # Data files are read from the repository of that side, so both read the same.
        (cd "$tree" && build/ai-fabric-sim "${flags[@]}" ${extra[@]+"${extra[@]}"} --out="$out") >"$out.log" 2>&1 || echo "exit $?" >>"$out.log"
    done
    a="$WORK/out-$name-base" b="$WORK/out-$name-head"
    files=0 result="identical"
    if ! diff -q <(grep '^exit ' "$a.log" || true) <(grep '^exit ' "$b.log" || true) >/dev/null; then
        result="different exit status ($(grep -h '^exit ' "$a.log" "$b.log" | tr '\n' ' '))"
    fi
    added="$b.added" # what only HEAD writes, one per line (with --allow-added)
    : >"$added"
    if [[ "$result" == identical ]]; then
        mapfile -t names < <(cd "$a" && find . -type f | sort)
        mapfile -t other < <(cd "$b" && find . -type f | sort)
        if ((ALLOW_ADDED)); then
            missing="$(comm -23 <(printf '%s\n' "${names[@]}") <(printf '%s\n' "${other[@]}") | tr '\n' ' ')"
            comm -13 <(printf '%s\n' "${names[@]}") <(printf '%s\n' "${other[@]}") >>"$added"
            [[ -z "$missing" ]] || result="different file sets (missing at head: $missing)"
        elif [[ "${names[*]}" != "${other[*]}" ]]; then
            result="different file sets"
        fi
    fi
    if [[ "$result" == identical ]]; then
        for f in "${names[@]}"; do
            files=$((files + 1))
            if [[ "$f" == ./summary.json ]] && ((ALLOW_ADDED)); then
                cmp -s <(normalized_summary "$a/$f" "$a") \
                    <(normalized_summary "$b/$f" "$b" "$a/$f" 2>>"$added") || { result="differs: $f"; break; }
            elif [[ "$f" == ./summary.json ]]; then
                cmp -s <(normalized_summary "$a/$f" "$a") <(normalized_summary "$b/$f" "$b") || { result="differs: $f"; break; }
            elif [[ "$f" == *.csv ]] && ((ALLOW_ADDED)) && ! cmp -s "$a/$f" "$b/$f"; then
                cmp -s "$a/$f" <(leading_columns "$b/$f" "$a/$f" 2>>"$added") || { result="differs: $f"; break; }
            else
                cmp -s "$a/$f" "$b/$f" || { result="differs: $f"; break; }
            fi
        done
        ((files > 0)) || result="no output"
    fi
    if [[ "$result" == identical && -s "$added" ]]; then
        result="identical, $(wc -l <"$added") added (${added#"$WORK"/})"
        cat "$added" >>"$WORK/added.all"
    fi
    [[ "$result" == identical* ]] || differ=1
    printf '%-26s %6d  %s\n' "$name" "$files" "$result"
done
if [[ -s "$WORK/added.all" ]]; then
    echo "added at head (files, summary.json keys, CSV columns):"
    sort -u "$WORK/added.all" | sed 's/^/  /'
fi
echo "compare-outputs: base ${base_sha:0:10}, head ${head_sha:0:10}${HEAD_FLAGS:+ with $HEAD_FLAGS}: $([[ $differ == 0 ]] && echo "all ${#selected[@]} scenarios identical" || echo "DIFFERENCES")"
exit $differ
