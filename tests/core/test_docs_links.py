"""The docs' links resolve (issue 47): every relative link of a Markdown page under
docs/ (and the README) names a file that exists, and every file kept beside the
journal's results is named by that folder's README (with the command that made it)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINK = re.compile(r"\]\(([^)\s]+)\)")


def broken_links(page: Path) -> list[str]:
    out = []
    for n, line in enumerate(page.read_text().splitlines(), 1):
        for target in LINK.findall(line):
            if re.match(r"[a-z]+:|#", target):
                continue  # a web address, or an anchor on the same page
            if not (page.parent / target.split("#", 1)[0]).exists():
                out.append(f"{page.relative_to(ROOT)}:{n}: {target}")
    return out


def test_every_relative_link_in_the_docs_resolves():
    pages = [*sorted((ROOT / "docs").rglob("*.md")), ROOT / "README.md"]
    broken = [b for page in pages if page.exists() for b in broken_links(page)]
    assert not broken, "\n".join(broken)


def test_the_check_catches_a_broken_link():
    """The check can fail: a missing file is named; a web address and an anchor pass."""
    page = ROOT / "docs" / "journal" / "_probe_test_page.md"
    try:
        page.write_text("[ok](stellarion-solvable/README.md) [gone](missing.md#a) [a](#b)")
        assert broken_links(page) == ["docs/journal/_probe_test_page.md:1: missing.md#a"]
    finally:
        page.unlink()


def test_every_kept_result_is_named_with_its_command():
    for readme in (ROOT / "docs").rglob("README.md"):
        text = readme.read_text()
        for kept in readme.parent.iterdir():
            if kept.suffix in (".jsonl", ".json", ".csv", ".parquet"):
                assert f"`{kept.name}`" in text, f"{readme.relative_to(ROOT)} omits {kept.name}"
