#!/usr/bin/env python3
"""The library's public API as a listing, one item a line: every module,
struct, enum, trait, function, type alias, static and constant a program
that depends on `bitsolve` can name, at the path where rustdoc documents
it (with the features `mpi` and `progress-bar`, as scripts/test.sh builds
the documentation). Methods and fields are not listed: the items are the
surface a change to which should be deliberate.

    python3 scripts/public-api.py            # write docs/public-api.txt
    python3 scripts/public-api.py --check    # fail where it differs

It reads the documentation `cargo doc -p bitsolve --no-deps --features
mpi,progress-bar` wrote (target/doc, or $CARGO_TARGET_DIR/doc).
"""

import html
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LISTING = ROOT / "docs" / "public-api.txt"
KINDS = {
    "structs": "struct",
    "enums": "enum",
    "traits": "trait",
    "functions": "fn",
    "types": "type",
    "statics": "static",
    "constants": "const",
    "macros": "macro",
    "unions": "union",
}


def doc_dir() -> Path:
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    if not target.is_absolute():
        target = ROOT / target
    return target / "doc" / "bitsolve"


def listing(doc: Path) -> list[str]:
    """Every public item and module, `kind bitsolve::path`, sorted."""
    page = (doc / "all.html").read_text()
    lines = []
    for section, body in re.findall(
        r'<h3 id="([a-z-]+)">[^<]*</h3><ul class="all-items">(.*?)</ul>', page
    ):
        kind = KINDS.get(section)
        if kind is None:
            sys.exit(f"public-api: rustdoc lists an unknown kind of item: {section}")
        for path in re.findall(r'<a href="[^"]*">([^<]*)</a>', body):
            lines.append(f"{kind} bitsolve::{html.unescape(path)}")
    # all.html names no modules: they are followed from the crate's page
    # down its module links (a page left from an earlier build, of a
    # module since made internal, is linked from nowhere).
    pending = [("bitsolve", doc / "index.html")]
    while pending:
        path, index = pending.pop()
        lines.append(f"mod {path}")
        for link in re.findall(r'<a class="mod" href="([a-z0-9_]+)/index.html"', index.read_text()):
            pending.append((f"{path}::{link}", index.parent / link / "index.html"))
    return sorted(set(lines))


def main() -> None:
    doc = doc_dir()
    if not (doc / "all.html").exists():
        sys.exit(f"public-api: no documentation in {doc}: run cargo doc -p bitsolve --no-deps --features mpi,progress-bar first")
    items = listing(doc)
    text = "".join(line + "\n" for line in items)
    if sys.argv[1:] == ["--check"]:
        committed = LISTING.read_text() if LISTING.exists() else ""
        if committed != text:
            old, new = set(committed.splitlines()), set(items)
            for line in sorted(old - new):
                print(f"- {line}")
            for line in sorted(new - old):
                print(f"+ {line}")
            sys.exit(
                "public-api: the library's public API changed (above); if it is meant to, "
                "run python3 scripts/public-api.py and commit docs/public-api.txt"
            )
        print(f"public-api: {len(items)} public items and modules, as docs/public-api.txt lists")
        return
    if sys.argv[1:]:
        sys.exit("usage: public-api.py [--check]")
    LISTING.write_text(text)
    print(f"public-api: {len(items)} public items and modules written to {LISTING.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
