"""Every repository file a text names exists: docs, comments and docstrings drift
when files move (20 references to docs/policy-format.md outlived its move to .rst)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: The repository's top-level folders: a path that starts with one of them names a file
#: here (not guesswork/: that prefix names installed paths, a wheel's or a data folder's).
FOLDERS = ("benchmarks", "builder", "client", "docs", "examples", "policies", "protos")
FOLDERS += ("scripts", "service", "tests")
#: Where a named path may be relative to besides the root: the naming file's own folder
#: (tests/vectors/README.md names policies/...), the proto import root, and the vectors'
#: folder (a vectors reader prints its files' paths relative to it).
BASES = ("protos", "tests/vectors")
#: A placeholder in a path (policies/proofs/NAME.ckpt, LANG-5-top2000.txt, builder/x.py).
PLACEHOLDER = re.compile(r"(?:^|[/-])(?:[A-Z]{3,}|x\.py$)")
#: A path of a file in one of the folders, with a known extension.
REFERENCE = re.compile(
    r"(?<![\w./-])(?:\.\./)*((?:" + "|".join(FOLDERS) + r")/[\w./-]*?\.(?:"
    r"rst|md|py|proto|c|h|pyi|js|json|txt|toml|sqlite|ckpt|gwp|html|css))(?![\w-])"
)
#: Paths made at run time or by a build, named on purpose where they appear.
GENERATED = ("docs/_build/",)


def references(text: str) -> list[str]:
    """Return every repository path ``text`` names (see :data:`REFERENCE`)."""
    return REFERENCE.findall(text)


def test_the_pattern_finds_paths_in_every_form() -> None:
    text = (
        "see docs/policy-format.md section 4; (builder/_replies.c) and "
        "`client/trust.py`, ../../docs/http.rst, https://x.org/docs/a.rst "
        "and my_docs/a.rst are not ours"
    )
    assert references(text) == [
        "docs/policy-format.md",
        "builder/_replies.c",
        "client/trust.py",
        "docs/http.rst",
    ]


def test_every_named_repository_file_exists() -> None:
    tracked = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files"], capture_output=True, text=True, check=True
    ).stdout.split()
    assert len(tracked) > 300  # git listed the real repository
    texts = [
        name
        for name in tracked
        if name.endswith((".py", ".rst", ".md", ".proto", ".c", ".h", ".js", ".toml", ".pyi"))
        or name in ("Makefile", ".ci/run")
    ]
    missing = []
    for name in texts:
        text = (ROOT / name).read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), start=1):
            for path in references(line):
                if path.startswith(GENERATED) or PLACEHOLDER.search(path):
                    continue
                bases = [ROOT, (ROOT / name).parent, *(ROOT / base for base in BASES)]
                if not any((base / path).exists() for base in bases):
                    missing.append(f"{name}:{number}: {path}")
    assert missing == [], "\n".join(missing)
