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
