#!/usr/bin/env bash
# Golden results: run the short cases of tests/golden/cases.txt and compare the
# digests of their result files with tests/golden/digests.txt.
#
#   tests/golden/run.sh check    one line per case, then "N passed, N failed";
#                                exit 1 on any changed digest or failed run
#   tests/golden/run.sh update   rewrite digests.txt from the current binary
#
# The digest of a case is the sha256 of every CSV file it wrote (summary.csv
# from its status column on, timeseries.csv, nodes.csv, the views' files, a
# sweep's points), by path, except perf.csv (wall time and memory); for a case that must exit non-zero,
# also its stderr (the deadlock report). Cases run on GOLDEN_JOBS processes
# (default 2) in GOLDEN_ORDER: shuffle (default for check), file or reverse;
# a result may not depend on which cases ran before or beside it. Also checked:
# the "same" lines of cases.txt, and coverage (every name `icnsim --list`
# prints and every "cover" value is used by some case).
# ICNSIM names the binary (default ./icnsim); GOLDEN_KEEP=1 keeps the outputs.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cases=$here/cases.txt
digests=$here/digests.txt

# Internal: run one case (called through xargs). $1 = work dir, $2 = case name.
if [ "${1:-}" = _case ]; then
    work=$2 name=$3
    line=$(awk -F'\t' -v n="$name" '$1 == n' "$work/cases.tsv")
    expect=$(cut -f2 <<<"$line")
    words=$(cut -f3- <<<"$line")
    eval "args=($words)"
    out=$work/out/$name
    t0=$(date +%s.%N)
    rc=0
    (cd "$root" && "$ICNSIM" "${args[@]}" -q -o "$out" -s output.plots=no) \
        >"$work/log/$name.out" 2>"$work/log/$name.err" || rc=$?
    t1=$(date +%s.%N)
    secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
    digest=- same=-
    if [ "$rc" = "$expect" ] && [ -d "$out" ]; then
        # Every CSV file but perf.csv, in a fixed order, each under its path.
        files=$(cd "$out" && find . -name '*.csv' ! -name perf.csv | LC_ALL=C sort)
        # summary.csv from its status column on: the key columns before it
        # grow with every key added, results do not.
        digest=$( (cd "$out"
                   for f in $files; do
                       echo "== $f"
                       case "$f" in
                           */summary.csv) awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "status") s = i }
                                                   { out = $s; for (i = s + 1; i <= NF; i++) out = out "," $i; print out }' "$f" ;;
                           *) cat "$f" ;;
                       esac
                   done
                   if [ "$expect" != 0 ]; then
                       echo "== stderr"; sed "s|$out|OUT|g" "$work/log/$name.err"
                   fi) | sha256sum | cut -c1-64)
        # Results only, for "same" lines: summary.csv from its status column
        # on (the keys before it differ), timeseries.csv and nodes.csv.
        if [ -f "$out/summary.csv" ]; then
            same=$( (cd "$out"
                     awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "status") s = i }
                              { out = $s; for (i = s + 1; i <= NF; i++) out = out "," $i; print out }' summary.csv
                     for f in timeseries.csv nodes.csv; do if [ -f "$f" ]; then echo "== $f"; cat "$f"; fi; done
                    ) | sha256sum | cut -c1-64)
        fi
    fi
    printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$rc" "$digest" "$same" "$secs" >"$work/res/$name"
    exit 0
fi

mode=${1:-check}
case "$mode" in
    check) order=${GOLDEN_ORDER:-shuffle} ;;
    update) order=${GOLDEN_ORDER:-file} ;;
    *) echo "usage: $0 check|update" >&2; exit 2 ;;
esac
export ICNSIM=${ICNSIM:-$root/icnsim}
case "$ICNSIM" in /*) ;; *) ICNSIM=$root/$ICNSIM ;; esac
if [ ! -x "$ICNSIM" ]; then
    echo "golden: no executable $ICNSIM (build it with make)" >&2
    exit 2
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/icnsim-golden.XXXXXX")
trap '[ -n "${GOLDEN_KEEP:-}" ] || rm -rf "$work"' EXIT
mkdir -p "$work/out" "$work/log" "$work/res"

# Expand cases.txt into cases.tsv (name, expected exit, words) and same.txt.
awk -v tsv="$work/cases.tsv" -v same="$work/same.txt" -v cover="$work/cover.txt" '
    function fail(msg) { print "golden: cases.txt:" NR ": " msg > "/dev/stderr"; bad = 1 }
    /^[ \t]*(#|$)/ { next }
    /^%/ { name = $1; $1 = ""; sub(/^ +/, ""); macro[name] = $0; next }
    $1 == "same" { if (NF != 3) fail("same takes two case names"); print $2 "\t" $3 > same; next }
    $1 == "cover" { if (NF < 3) fail("cover takes a key and values"); for (i = 3; i <= NF; i++) print $2 "=" $i > cover; next }
    {
        name = $1; expect = 0; $1 = ""
        if ($2 ~ /^exit=[0-9]+$/) { expect = substr($2, 6); $2 = "" }
        sub(/^ +/, "")
        for (m in macro) gsub(m "( |$)", macro[m] " ")
        if (name in seen) fail("case " name " given twice")
        if (name !~ /^[A-Za-z0-9._+-]+$/) fail("bad case name " name)
        if ($0 ~ /%[A-Za-z]/) fail("unknown macro in " name)
        seen[name] = 1
        print name "\t" expect "\t" $0 > tsv
    }
    END { exit bad }' "$cases"
touch "$work/same.txt" "$work/cover.txt"

case "$order" in
    file) cut -f1 "$work/cases.tsv" ;;
    reverse) cut -f1 "$work/cases.tsv" | tac ;;
    shuffle) cut -f1 "$work/cases.tsv" | shuf ;;
    *) echo "golden: GOLDEN_ORDER must be file, reverse or shuffle" >&2; exit 2 ;;
esac >"$work/order"

t0=$(date +%s)
# A case that dies inside this script leaves no result file and is reported
# as FAILED below.
xargs -P "${GOLDEN_JOBS:-2}" -n 1 bash "$0" _case "$work" <"$work/order" || true
t1=$(date +%s)

# Report in the order of cases.txt.
passed=0 failed=0 changed=0
declare -A want
if [ -f "$digests" ]; then
    while read -r n d; do want[$n]=$d; done < <(grep -v '^#' "$digests")
fi
: >"$work/new"
while IFS=$'\t' read -r name expect _; do
    if [ ! -f "$work/res/$name" ]; then
        printf 'FAILED   %-24s no result (error in tests/golden/run.sh)\n' "$name"
        failed=$((failed + 1))
        continue
    fi
    IFS=$'\t' read -r _ rc digest _ secs <"$work/res/$name"
    if [ "$rc" != "$expect" ] || [ "$digest" = - ]; then
        printf 'FAILED   %-24s exit %s, want %s (%s s)\n' "$name" "$rc" "$expect" "$secs"
        sed 's/^/         | /' "$work/log/$name.err" | tail -n 20
        failed=$((failed + 1))
        continue
    fi
    printf '%s %s\n' "$name" "$digest" >>"$work/new"
    old=${want[$name]:--}
    if [ "$old" = "$digest" ]; then
        printf 'ok       %-24s %s s\n' "$name" "$secs"
        passed=$((passed + 1))
    else
        if [ "$old" = - ]; then what=new; else what="was ${old:0:12}, now ${digest:0:12}"; fi
        printf 'CHANGED  %-24s %s\n' "$name" "$what"
        changed=$((changed + 1))
        if [ "$mode" = check ]; then failed=$((failed + 1)); else passed=$((passed + 1)); fi
    fi
done <"$work/cases.tsv"
for n in "${!want[@]}"; do
    if ! grep -q "^$n	" "$work/cases.tsv"; then
        printf 'CHANGED  %-24s no longer in cases.txt\n' "$n"
        changed=$((changed + 1))
        [ "$mode" = check ] && failed=$((failed + 1))
    fi
done
while read -r a b; do
    sa=$(cut -f4 "$work/res/$a" 2>/dev/null || echo -)
    sb=$(cut -f4 "$work/res/$b" 2>/dev/null || echo -)
    if [ "$sa" != - ] && [ "$sa" = "$sb" ]; then
        printf 'ok       same %s %s\n' "$a" "$b"
        passed=$((passed + 1))
    else
        printf 'FAILED   same %s %s: their results differ\n' "$a" "$b"
        failed=$((failed + 1))
    fi
done <"$work/same.txt"

# Coverage: every name `icnsim --list` prints (under its key) and every value
# of a cover line must be the value of its key in some case's summary.csv.
find "$work/out" -name summary.csv -exec awk -F, '
    FNR == 1 { for (i = 1; i <= NF; i++) h[i] = $i; next }
    { for (i = 1; i <= NF; i++) print h[i] "=" $i }' {} + | sort -u >"$work/used.txt"
"$ICNSIM" --list | awk '
    /^[^ ]/ { key = ""; if (match($0, /\([a-z_.]+\)/)) key = substr($0, RSTART + 1, RLENGTH - 2); next }
    key != "" && /^  [^ ]/ { print key "=" $1 }' >>"$work/cover.txt"
uncovered=0 ncover=0
while IFS= read -r want_kv; do
    ncover=$((ncover + 1))
    case "$want_kv" in
        *'<'*) grep -q -F -- "${want_kv%%<*}" <(grep -o "^${want_kv%%=*}=.*" "$work/used.txt") && continue ;;
        *) grep -q -x -F -- "$want_kv" "$work/used.txt" && continue ;;
    esac
    printf 'FAILED   coverage: no case runs with %s\n' "$want_kv"
    uncovered=$((uncovered + 1))
done <"$work/cover.txt"
if [ "$uncovered" = 0 ]; then
    printf 'ok       coverage: %s names and values, each used by some case\n' "$ncover"
    passed=$((passed + 1))
else
    failed=$((failed + 1))
fi
echo "golden: $(wc -l <"$work/cases.tsv") cases in $((t1 - t0)) s ($order order)"

if [ "$mode" = update ]; then
    if [ "$failed" != 0 ]; then
        echo "golden: not updated: $failed failed (fix the cases or the program first)"
    elif [ "$changed" = 0 ]; then
        echo "golden: digests.txt unchanged"
    else
        { echo "# Written by tests/golden/run.sh update: case name, sha256 of its results."
          echo "# Change only deliberately, with a one-line reason in the commit message."
          cat "$work/new"; } >"$digests"
        echo "golden: digests.txt updated ($changed changed): commit it with a one-line reason for the change"
    fi
else
    if [ "$changed" != 0 ]; then
        echo "golden: results differ from tests/golden/digests.txt. If the change is intended, run"
        echo "golden:   make golden-update"
        echo "golden: and commit digests.txt with a one-line reason for the change in the commit message."
    fi
    if [ "$uncovered" != 0 ]; then
        echo "golden: add a case that uses each name or value above to tests/golden/cases.txt"
    fi
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
