#!/usr/bin/env bash
# Fuzz the configuration parser and the whole set-up with AFL++, and the
# readers of the files a configuration names:
#
#   tests/fuzz/run.sh [seconds] [target...]   (default 60 s, target config;
#                                              also: make fuzz FUZZ_SECONDS=... FUZZ_TARGETS=...)
#
# Targets (seconds each):
#   config   the configuration: INPUT is the .ini file run (corpus: tests/fuzz/corpus)
#   ibnet    an ibnetdiscover fabric (ib.net_file), routed by minhop
#   lft      an OpenSM LFT dump (ib.lft_file) of tests/fuzz/files/two-cas.net
#   dimemas  a Dimemas trace (workload.trace) on 4 nodes
#   cct      a CCT file (cc.cct_file) with cc.ccti_limit = 3
# A file target runs a fixed configuration with INPUT as that file; its seeds
# are tests/fuzz/files/ and tests/dimemas/ (valid files).
#
# The target is the real program, `icnsim run INPUT` with 3 us of simulated time,
# built by `make FUZZ=1` (AFL++ instrumentation, ASan + UBSan, so memory errors
# and undefined behaviour abort). Why AFL++ and not libFuzzer: icnsim ends a
# run on a bad configuration with exit(2) by design (deadlock: 3), and
# libFuzzer would count every such exit as a crash unless the harness forked
# per input; AFL++'s fork server runs the unchanged program per input, takes an
# exit as a normal end, and so fuzzes exactly what users run.
#
# 1. Replay: every file of tests/fuzz/corpus (every seed of a file target)
#    must end with status 0, 2 or 3; the known failures in tests/fuzz/found
#    (found/<target>/ for a file target) are re-run and listed, not counted.
# 2. Fuzz for the given seconds from the files that passed.
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
case "$secs" in ''|*[!0-9]*) echo "usage: $0 [seconds] [config|ibnet|lft|dimemas|cct...]" >&2; exit 2 ;; esac
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(config)
for t in "${targets[@]}"; do
    case "$t" in config|ibnet|lft|dimemas|cct) ;; *) echo "fuzz: unknown target '$t' (config, ibnet, lft, dimemas, cct)" >&2; exit 2 ;; esac
done
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

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

top=$root/build-fuzz/work     # kept after the run, for a look at AFL++'s output
rm -rf "$top"

export AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1 AFL_NO_AFFINITY=1
# die() exits 1: an internal invariant failed, which fuzzing should find.
export AFL_CRASH_EXITCODE=1
# Sanitizers abort, so AFL++ sees a signal. A configuration that asks for more
# memory than the limit gets NULL from malloc and ends in "out of memory".
san_common=abort_on_error=1:detect_leaks=0:allocator_may_return_null=1:malloc_limit_mb=4096:hard_rss_limit_mb=6144
export ASAN_OPTIONS=$san_common:symbolize=0
export UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1:symbolize=0
symbolizer=$(command -v llvm-symbolizer || true)

failures=0 limits=0 replay_failures=0

# target T: sets work, input, ext, args, seeds (files), found and dict for T.
target() {
    work=$top/$1
    mkdir -p "$work/inc" "$work/seeds" "$work/res"
    local run=(-s time.warmup=0ns -s output.plots=no -q -o "$work/res")
    dict=()
    case "$1" in
    config)
        cp "$here"/corpus/*.ini "$work/inc/"
        input=$work/inc/self.ini ext=ini found=$here/found
        args=(run "$input" -s time.measure=3us -s time.interval=1us "${run[@]}")
        seeds=("$here"/corpus/*.ini) ;;
    ibnet)
        printf '[topology]\ntype = ibnetdiscover\n[routing]\nalgorithm = lft\n[ib]\nengine = minhop\n' >"$work/fixed.ini"
        input=$work/input.net ext=net found=$here/found/ibnet
        args=(run "$work/fixed.ini" -s ib.net_file="$input" -s time.measure=1us "${run[@]}")
        seeds=("$here"/files/*.net)
        dict=(Switch Ca Rt '"S-' '"H-' '[1]' '[ext 1]' '(2c9)' '# lid ' ' lmc ' 4xEDR vendid= caguid= switchguid=) ;;
    lft)
        printf '[topology]\ntype = ibnetdiscover\n[routing]\nalgorithm = lft\n[ib]\nengine = file\n' >"$work/fixed.ini"
        input=$work/input.lft ext=lft found=$here/found/lft
        args=(run "$work/fixed.ini" -s ib.net_file="$here/files/two-cas.net" -s ib.lft_file="$input" -s time.measure=1us "${run[@]}")
        seeds=("$here"/files/*.lft)
        dict=('Unicast lids [0-4] of switch Lid 5 guid 0x' ' lids dumped' 0x0000000000000001 0x0002 0x0004 ' 001' ' 002' ' # ') ;;
    dimemas)
        printf '[topology]\ntype = rlft\nk = 2\nstages = 1\n[workload]\nsource = dimemas\n' >"$work/fixed.ini"
        input=$work/input.dim ext=dim found=$here/found/dimemas
        args=(run "$work/fixed.ini" -s workload.trace="$input" -s time.measure=100us "${run[@]}")
        seeds=("$root"/tests/dimemas/pingpong.dim "$root"/tests/dimemas/ring.dim "$root"/tests/dimemas/interleaved.dim)
        dict=('#DIMEMAS:"t":1,0:4(1,1,1,1),0' 'd:1:' '1:0:0:' '2:0:0:' '3:1:0:' '10:0:0:' ':0:0:8:8' ':4294967296' ':1' ':2') ;;
    cct)
        printf '[topology]\ntype = rlft\nk = 2\nstages = 2\n[cc]\nmode = iba\ncct = file\nccti_limit = 3\n' >"$work/fixed.ini"
        input=$work/input.cct ext=cct found=$here/found/cct
        args=(run "$work/fixed.ini" -s cc.cct_file="$input" -s time.measure=3us "${run[@]}")
        seeds=("$here"/files/*.cct)
        dict=(0x '# ' '3 16383' '0 0' 0xffff) ;;
    esac
}

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
    cp "$file" "$dir/$id.$ext"
    { echo "$kind: exit status $rc"
      echo "input: $label"
      if [ "$ext" = ini ]; then
          echo "reproduce: copy tests/fuzz/corpus/*.ini to a directory D and the input to D/self.ini, then"
          echo "  build-fuzz/icnsim ${args[*]}" | sed "s|$input|D/self.ini|; s| -o $work/res||"
      else
          echo "reproduce: build-fuzz/icnsim ${args[*]}" | sed "s|$input|INPUT|; s| -o $work/res||; s|$work/fixed.ini|FIXED.ini|"
          echo "  with INPUT the input and FIXED.ini:"
          sed 's/^/    /' "$work/fixed.ini"
      fi
      echo "--- stderr"
      cat "$work/last.err"; } >"$dir/$id.txt"
    echo "fuzz: FAILED $tname $label: $kind (exit status $rc): ${dir#"$root"/}/$id.txt"
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

fuzz_target() {
    echo "fuzz: $tname: replaying its ${#seeds[@]} seed files"
    local before=$failures
    for f in "${seeds[@]}"; do
        name=$(basename "$f")
        run_one "$f" 20
        if judge "seed/$name" "$f" "$work/reports"; then cp "$f" "$work/seeds/"; fi
    done
    replay_failures=$((replay_failures + failures - before))
    echo "fuzz: $tname: ${#seeds[@]} seed files, $((failures - before)) failed"

    # Known failures, found earlier and not fixed yet: reported, not counted.
    for f in "$found"/*."$ext"; do
        [ -f "$f" ] || continue
        run_one "$f" 20
        case "$rc" in
            0|2|3) echo "fuzz: fixed? ${f#"$root"/} now ends with status $rc: move it to tests/fuzz/$([ "$ext" = ini ] && echo corpus || echo files)/" ;;
            *) echo "fuzz: known  ${f#"$root"/} still fails (exit status $rc)" ;;
        esac
    done

    # Dictionary: for the configuration every key (full and short), section,
    # and name the program lists; for a file, its format's words.
    {
        if [ "$ext" = ini ]; then
            "$bin" keys | awk '{ print $1; n = split($1, p, "."); if (n == 2) { print p[2]; print "[" p[1] "]" } }'
            "$bin" --list | awk '/^  [^ ]/ { print $1 }'
            printf '%s\n' include self.ini cycle-a.ini cycle-b.ini true false yes no auto \
                ps ns us ms s B KB MB GB b Gbps Mbps 0 1 -1 0.5 1e9 4294967296 '=' '#' '[' ']'
        else
            printf '%s\n' "${dict[@]}" 0 1 -1 4294967296 18446744073709551616 '#' '\r'
        fi
    } | sort -u | awk '{ gsub(/\\/, "\\\\"); gsub(/"/, "\\\""); printf "\"%s\"\n", $0 }' >"$work/dict.txt"

    echo "fuzz: $tname: AFL++ for $secs s, $(ls "$work/seeds" | wc -l) seeds, 3 s per input"
    if [ "$ext" = ini ]; then cp "$here/corpus/self.ini" "$input"; else cp "${seeds[0]}" "$input"; fi
    afl_rc=0
    # a file target's seeds are whole files of kilobytes: trimming them would take its seconds
    [ "$ext" = ini ] || export AFL_DISABLE_TRIM=1
    nice afl-fuzz -i "$work/seeds" -o "$work/out" -f "$input" -x "$work/dict.txt" \
        -t 3000 -m none -V "$secs" -- "$bin" "${args[@]}" >"$work/afl.log" 2>&1 || afl_rc=$?
    stats=$work/out/default/fuzzer_stats
    if [ "$afl_rc" != 0 ] || [ ! -f "$stats" ]; then
        tail -n 30 "$work/afl.log"
        echo "fuzz: afl-fuzz failed (exit status $afl_rc; log: ${work#"$root"/}/afl.log)"
        exit 2
    fi
    execs=$(awk -F' *: *' '$1 == "execs_done" { print $2 }' "$stats")
    paths=$(awk -F' *: *' '$1 == "corpus_count" { print $2 }' "$stats")
    echo "fuzz: $tname: $execs executions, $paths corpus entries"

    # AFL++'s crashes and hangs, each confirmed and reported by a plain re-run.
    for f in "$work"/out/default/crashes/id:* "$work"/out/default/hangs/id:*; do
        [ -f "$f" ] || continue
        run_one "$f" 20
        judge "AFL++ $(basename "$(dirname "$f")")/$(basename "$f")" "$f" "$found" || true
        [ "$rc" = 0 ] || [ "$rc" = 2 ] || [ "$rc" = 3 ] || continue
        echo "fuzz: note: $(basename "$f") did not fail again when re-run (exit status $rc)"
    done
}

for tname in "${targets[@]}"; do
    target "$tname"
    fuzz_target
done

echo "fuzz: $failures failed ($replay_failures in the seeds, reports in build-fuzz/work/<target>/reports;" \
     "$((failures - replay_failures)) found by AFL++, in tests/fuzz/found), $limits out of memory"
[ "$failures" = 0 ]
