# shellcheck shell=bash
# Shared by the bench/ scripts (sourced, not run): the label of the build
# measured, the sitting's start and the atomic append of a row to a CSV.

# The build: the commit at HEAD, +dirty when src/ has uncommitted changes.
bench_build() {
    local build
    build=$(git rev-parse --short HEAD)
    [ -z "$(git status --porcelain --untracked-files=no -- src)" ] || build+="+dirty"
    printf '%s\n' "$build"
}

# The start of a sitting (UTC); the rows of one invocation share it.
bench_sitting() {
    date -u +%Y-%m-%dT%H:%M:%SZ
}

# bench_record FILE ROW: appends the CSV line ROW to FILE atomically (a copy
# with the row added, renamed over FILE), under a lock on FILE's folder so
# that sittings run side by side lose no row.
bench_record() {
    local file=$1 tmp="$1.tmp.$$"
    (
        exec 9<"$(dirname "$file")"
        flock 9
        cp "$file" "$tmp"
        printf '%s\n' "$2" >>"$tmp"
        mv -f "$tmp" "$file"
    )
}

# bench_csv_quote TEXT: TEXT as one quoted CSV field.
bench_csv_quote() {
    local t=${1//\"/\"\"}
    printf '"%s"' "$t"
}
