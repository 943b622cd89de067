"""Writing the generated documentation: whole pages and the blocks that the
experiment scripts own inside hand-written ones (between <!-- tag:begin -->
and <!-- tag:end -->), each written atomically."""
import os


def write_doc(path, text):
    with open(path + ".tmp", "w") as f:
        f.write(text)
    os.replace(path + ".tmp", path)


def block(path, tag, text):
    """Replace the text between <!-- tag:begin --> and <!-- tag:end --> in path."""
    with open(path) as f:
        doc = f.read()
    a, b = "<!-- %s:begin -->\n" % tag, "<!-- %s:end -->" % tag
    i, j = doc.index(a) + len(a), doc.index(b)
    write_doc(path, doc[:i] + text + doc[j:])


def read_table(path, key, numeric=(), expect=None):
    """The rows of a kept CSV as {tuple of the `key` columns: row}. Exits
    naming the file on a missing column, a duplicate key, a value of a
    `numeric` column that is not a finite number, or, with `expect` (the keys
    that must be there), a missing row: a page is never written from a
    malformed or incomplete file."""
    import csv, math
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    rel = os.path.relpath(path)
    cols = set(rows[0]) if rows else set()
    missing = [c for c in list(key) + list(numeric) if c not in cols]
    if missing:
        raise SystemExit("%s: no column %s" % (rel, ", ".join(missing)))
    out = {}
    for n, r in enumerate(rows, 2):
        k = tuple(r[c] for c in key)
        if k in out:
            raise SystemExit("%s, line %d: a second row for %s" % (rel, n, "/".join(k)))
        for c in numeric:
            try:
                ok = math.isfinite(float(r[c]))
            except (TypeError, ValueError):
                ok = False
            if not ok:
                raise SystemExit("%s, line %d: %s is %r, not a number" % (rel, n, c, r[c]))
        out[k] = r
    return require(out, expect or (), path)


def require(table, expect, path):
    """table (from read_table) if it has every key of expect; else exit naming path."""
    absent = [k for k in expect if tuple(k) not in table]
    if absent:
        raise SystemExit("%s: %d expected rows missing, e.g. %s" % (os.path.relpath(path), len(absent), "/".join(absent[0])))
    return table
