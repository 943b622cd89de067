#!/usr/bin/env bash
# Fuzz the configuration parser and the whole set-up with AFL++:
#
#   tests/fuzz/run.sh [seconds]     (default 60; also: make fuzz FUZZ_SECONDS=...)
#
# The target is the real program, `icnsim run INPUT` with 3 us of simulated time,
# built by `make FUZZ=1` (AFL++ instrumentation, ASan + UBSan, so memory errors
# and undefined behaviour abort). Why AFL++ and not libFuzzer: icnsim ends a
# run on a bad configuration with exit(2) by design (deadlock: 3), and
# libFuzzer would count every such exit as a crash unless the harness forked
# per input; AFL++'s fork server runs the unchanged program per input, takes an
# exit as a normal end, and so fuzzes exactly what users run.
#
# 1. Replay: every file of tests/fuzz/corpus must end with status 0, 2 or 3;
#    the known failures in tests/fuzz/found are re-run and listed, not counted.
# 2. Fuzz for the given seconds from the corpus files that passed.
#
# Failures: a signal (ASan, UBSan, stack overflow), status 1 (die(): an
# internal invariant; "out of memory" is reported apart, as a limit and not a
# failure), or no end within the time limit (3 s per input while fuzzing, then
# confirmed with 20 s). Each is printed and saved (input, and a .txt with the
# command and the sanitizer report): AFL++'s finds under tests/fuzz/found/, the
# corpus's under build-fuzz/work/reports/. The script then exits 1.
#
# The input is always named self.ini, in a directory holding copies of the
# corpus, so inputs can include corpus files, themselves (self.ini) or an
# include cycle (cycle-a.ini, cycle-b.ini). Installs nothing: it needs
# afl-fuzz and afl-clang-fast (Debian: apt-get install afl++).
set -euo pipefail

secs=${1:-60}
case "$secs" in ''|*[!0-9]*) echo "usage: $0 [seconds]" >&2; exit 2 ;; esac
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
found=$here/found

for tool in afl-fuzz afl-clang-fast; do
    if ! command -v "$tool" >/dev/null; then
        echo "fuzz: $tool not found: install AFL++ (Debian: apt-get install afl++)" >&2
        exit 2
    fi
done

echo "fuzz: building build-fuzz/icnsim (make FUZZ=1: AFL++, ASan, UBSan)"
if ! make -C "$root" FUZZ=1 -j2 build-fuzz/icnsim >"$root/build-fuzz.log" 2>&1; then
    tail -n 30 "$root/build-fuzz.log" >&2
    echo "fuzz: build failed (log: build-fuzz.log)" >&2
    exit 2
fi
rm -f "$root/build-fuzz.log"
bin=$root/build-fuzz/icnsim

work=$root/build-fuzz/work     # kept after the run, for a look at AFL++'s output
rm -rf "$work"
mkdir -p "$work/inc" "$work/seeds" "$work/res"
cp "$here"/corpus/*.ini "$work/inc/"
input=$work/inc/self.ini
args=(run "$input" -s time.warmup=0ns -s time.measure=3us -s time.interval=1us
      -s output.plots=no -q -o "$work/res")

export AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1 AFL_NO_AFFINITY=1
# die() exits 1: an internal invariant failed, which fuzzing should find.
export AFL_CRASH_EXITCODE=1
# Sanitizers abort, so AFL++ sees a signal. A configuration that asks for more
# memory than the limit gets NULL from malloc and ends in "out of memory".
san_common=abort_on_error=1:detect_leaks=0:allocator_may_return_null=1:malloc_limit_mb=4096:hard_rss_limit_mb=6144
export ASAN_OPTIONS=$san_common:symbolize=0
export UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1:symbolize=0
symbolizer=$(command -v llvm-symbolizer || true)

failures=0 limits=0

# run_one FILE LIMIT: run the program on FILE (copied to self.ini) with a
# symbolized report; sets rc and writes $work/last.err. The outer redirection
# keeps bash's own "Aborted" line out of the output.
run_one() {
    cp "$1" "$input"
    rc=0
    { ASAN_OPTIONS=$san_common:symbolize=1${symbolizer:+:external_symbolizer_path=$symbolizer} \
      UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1:symbolize=1 \
        timeout -s KILL "$2" "$bin" "${args[@]}" >/dev/null 2>"$work/last.err"; } 2>/dev/null || rc=$?
}

# judge LABEL FILE SAVEDIR: classify the last run. A failure is printed (the
# input, and the report unless one of the same kind was printed already) and
# saved in SAVEDIR as KIND-HASH.ini and .txt; returns 1.
declare -A seen_sig
judge() {
    local label=$1 file=$2 dir=$3 kind
    case "$rc" in
        0|2|3) return 0 ;;
        137) kind=hang ;;
        1) if grep -q 'out of memory' "$work/last.err"; then
               echo "fuzz: limit  $label: out of memory (not counted as a failure)"
               limits=$((limits + 1)); return 0
           fi
           kind=internal-error ;;
        *) kind=crash ;;
    esac
    failures=$((failures + 1))
    local id sig
    id=$kind-$(sha256sum <"$file" | cut -c1-12)
    mkdir -p "$dir"
    cp "$file" "$dir/$id.ini"
    { echo "$kind: exit status $rc"
      echo "input: $label"
      echo "reproduce: copy tests/fuzz/corpus/*.ini to a directory D and the input to D/self.ini, then"
      echo "  build-fuzz/icnsim ${args[*]}" | sed "s|$input|D/self.ini|; s| -o $work/res||"
      echo "--- stderr"
      cat "$work/last.err"; } >"$dir/$id.txt"
    echo "fuzz: FAILED $label: $kind (exit status $rc): ${dir#"$root"/}/$id.txt"
    echo "----- input"
    head -c 1000 "$file" | cat -v
    echo
    # One report per kind of failure: the sanitizer's summary line, or the
    # program's last message, without addresses.
    sig=$(grep -m1 -E '^SUMMARY:|runtime error:|^icnsim:' "$work/last.err" | sed -E 's/0x[0-9a-f]+//g' || true)
    sig="$kind ${sig:-exit $rc}"
    if [ -n "${seen_sig[$sig]:-}" ]; then
        echo "----- same failure as ${seen_sig[$sig]}"
    else
        seen_sig[$sig]=$label
        echo "----- report"
        head -n 14 "$work/last.err"
        [ "$(wc -l <"$work/last.err")" -le 14 ] || { echo "..."; grep -E '^SUMMARY:' "$work/last.err" || true; }
    fi
    echo "-----"
    return 1
}

echo "fuzz: replaying tests/fuzz/corpus"
for f in "$here"/corpus/*.ini; do
    name=$(basename "$f")
    run_one "$f" 20
    if judge "corpus/$name" "$f" "$work/reports"; then cp "$f" "$work/seeds/"; fi
done
replay_failures=$failures
echo "fuzz: corpus: $(ls "$here"/corpus/*.ini | wc -l) files, $replay_failures failed"

# Known failures, found earlier and not fixed yet: reported, not counted.
for f in "$found"/*.ini; do
    [ -f "$f" ] || continue
    run_one "$f" 20
    case "$rc" in
        0|2|3) echo "fuzz: fixed? ${f#"$root"/} now ends with status $rc: move it to tests/fuzz/corpus/" ;;
        *) echo "fuzz: known  ${f#"$root"/} still fails (exit status $rc)" ;;
    esac
done

# Dictionary: every key (full and short), section, and name the program lists.
{
    "$bin" keys | awk '{ print $1; n = split($1, p, "."); if (n == 2) { print p[2]; print "[" p[1] "]" } }'
    "$bin" --list | awk '/^  [^ ]/ { print $1 }'
    printf '%s\n' include self.ini cycle-a.ini cycle-b.ini true false yes no auto \
        ps ns us ms s B KB MB GB b Gbps Mbps 0 1 -1 0.5 1e9 4294967296 '=' '#' '[' ']'
} | sort -u | awk '{ gsub(/\\/, "\\\\"); gsub(/"/, "\\\""); printf "\"%s\"\n", $0 }' >"$work/dict.txt"

echo "fuzz: AFL++ for $secs s, $(ls "$work/seeds" | wc -l) seeds, 3 s per input"
cp "$here/corpus/self.ini" "$input"
afl_rc=0
nice afl-fuzz -i "$work/seeds" -o "$work/out" -f "$input" -x "$work/dict.txt" \
    -t 3000 -m none -V "$secs" -- "$bin" "${args[@]}" >"$work/afl.log" 2>&1 || afl_rc=$?
stats=$work/out/default/fuzzer_stats
if [ "$afl_rc" != 0 ] || [ ! -f "$stats" ]; then
    tail -n 30 "$work/afl.log"
    echo "fuzz: afl-fuzz failed (exit status $afl_rc; log: build-fuzz/work/afl.log)"
    exit 2
fi
execs=$(awk -F' *: *' '$1 == "execs_done" { print $2 }' "$stats")
paths=$(awk -F' *: *' '$1 == "corpus_count" { print $2 }' "$stats")
echo "fuzz: $execs executions, $paths corpus entries"

# AFL++'s crashes and hangs, each confirmed and reported by a plain re-run.
for f in "$work"/out/default/crashes/id:* "$work"/out/default/hangs/id:*; do
    [ -f "$f" ] || continue
    run_one "$f" 20
    judge "AFL++ $(basename "$(dirname "$f")")/$(basename "$f")" "$f" "$found" || true
    [ "$rc" = 0 ] || [ "$rc" = 2 ] || [ "$rc" = 3 ] || continue
    echo "fuzz: note: $(basename "$f") did not fail again when re-run (exit status $rc)"
done

echo "fuzz: $failures failed ($replay_failures in the corpus, reports in build-fuzz/work/reports;" \
     "$((failures - replay_failures)) found by AFL++, in tests/fuzz/found), $limits out of memory"
[ "$failures" = 0 ]
