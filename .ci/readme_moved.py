"""Nothing the README said is lost when it is cut: every sentence, list item, table row and code
line of the README at an earlier revision is still in the README or a page of docs/.

Run by hand when the README is shortened, naming the revision before the cut:

    python .ci/readme_moved.py 86448c8

Text is compared with its whitespace collapsed and its Markdown links read as their text (a
link into ``docs/league.md`` from the README is ``league.md`` from a page), so moving a
paragraph onto a page and reflowing it is fine; rewording it is reported, to be checked by eye.
Exit status 1 when anything is missing, with each missing piece printed.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINK = re.compile(r"!?\[([^\]]*)\]\(([^)#]*)[^)]*\)")
SENTENCE_END = re.compile(r"(?<=[.:;])\s+(?=[A-Z(`*])")


def normalise(text: str) -> str:
    # a link is read as the page it points to, as the README names a page by its file
    text = LINK.sub(lambda m: m.group(2).rsplit("/", 1)[-1] or m.group(1), text)
    text = text.replace("docs/", "").replace("*", "").replace("`", "")
    return " ".join(text.split())


def pieces(readme: str) -> list[str]:
    """The README's facts: each code line, table row and heading, and each sentence of prose."""
    out: list[str] = []
    in_code = False
    paragraph: list[str] = []

    def flush() -> None:
        if paragraph:
            out.extend(s for s in SENTENCE_END.split(normalise(" ".join(paragraph))) if s)
            paragraph.clear()

    for line in readme.splitlines():
        if line.startswith("```"):
            flush()
            in_code = not in_code
            continue
        if in_code or line.startswith(("|", "#")):
            flush()
            if line.strip() and not re.fullmatch(r"[|\s:-]+", line):
                out.append(normalise(line.lstrip("#")))
            continue
        if not line.strip() or line.startswith("- "):
            flush()
        paragraph.append(line.removeprefix("- "))
    flush()
    return [p for p in out if p]


def main(revision: str) -> int:
    old = subprocess.run(["git", "show", f"{revision}:README.md"], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    now = normalise("\n".join(p.read_text(encoding="utf-8")
                              for p in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]))
    facts = pieces(old)
    missing = [fact for fact in facts if fact not in now]
    for fact in missing:
        print(f"missing: {fact}")
    print(f"{len(facts) - len(missing)} of {len(facts)} pieces of the README at {revision} found")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "HEAD"))
