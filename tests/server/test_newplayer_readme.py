"""Issue 37 point 4: README cited RULES.md, which the repository does not have. Every file the
README links to or names (``*.md``) is in the repository, and every in-page link has its
heading, so a player can open whatever it cites."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
README = REPO / "README.md"
LINK = re.compile(r"\]\(([^)\s]+)\)")
MARKDOWN_NAME = re.compile(r"[\w./-]*\w\.md\b")


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_issue37_readme_links_only_to_files_in_the_repository() -> None:
    """Every relative link (images too) opens a file or folder of the repository; every
    ``#anchor`` names a heading of the README."""
    text = README.read_text("utf-8")
    headings = {slug(h) for h in re.findall(r"^#+ (.+)$", text, flags=re.MULTILINE)}
    targets = LINK.findall(text)
    assert targets
    for target in targets:
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        if path:
            assert (REPO / path).exists(), f"README links to {path}, which is not in the repository"
        else:
            assert anchor in headings, f"README links to #{anchor}, a heading it does not have"


def test_issue37_every_markdown_file_the_readme_names_exists() -> None:
    """Each ``*.md`` the README names (RULES.md was one) is a file of the repository: a path
    from its root, or a bare name at the root or in ``docs/``."""
    names = set(MARKDOWN_NAME.findall(README.read_text("utf-8")))
    assert "docs/plugins.md" in names
    for name in sorted(names):
        places = [REPO / name] if "/" in name else [REPO / name, REPO / "docs" / name]
        assert any(p.is_file() for p in places), f"README names {name}, which is not here"
