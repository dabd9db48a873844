"""The documents agree with the code: the rule book (docs/rules.md) has every section
R1–R12 under a stable anchor and nothing links outside the repository; the settings table
of bot/runtime/config.py is what ``--help``, README and ``.env.example`` show, and it names
exactly the variables the code reads; README lists every command-line option."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from bot.app.cli import build_parser
from bot.runtime.config import SETTINGS, env_example, help_table, readme_table
from engine.rules import RuleSet

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules.md"
README = ROOT / "README.md"
PERFORMANCE = ROOT / "docs" / "performance.md"


def tracked_text_files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                            cwd=ROOT, capture_output=True, text=True, check=True).stdout
    files = []
    for name in listed.split():
        path = ROOT / name
        if path.is_file() and path.suffix not in {".png", ".ttf", ".otf", ".sqlite3", ".mo"}:
            files.append(path)
    return files


# ------------------------------------------------------------------------- the rule book


def rule_sections() -> dict[str, str]:
    """Section R<n> of docs/rules.md → its text, keyed by the anchor id ``r<n>``."""
    text = RULES.read_text()
    found = re.findall(r'^<a id="(r\d+)"></a>\n## (R\d+) [^\n]+\n(.*?)(?=^<a id=|\Z)', text,
                       re.M | re.S)
    sections = {}
    for anchor, number, body in found:
        assert anchor == number.lower(), (anchor, number)
        sections[anchor] = body
    return sections


def test_the_rule_book_has_every_section_with_a_stable_anchor() -> None:
    sections = rule_sections()
    assert list(sections) == [f"r{n}" for n in range(1, 13)]
    for anchor, body in sections.items():
        assert "Example" in body or "example" in body, f"{anchor} has no example"


def test_the_rule_book_lists_every_table_option_with_its_default() -> None:
    """R12 names each `RuleSet` field with its default (as `to_dict` writes it)."""
    options = rule_sections()["r12"]
    for name, default in RuleSet().to_dict().items():
        value = str(default).lower() if isinstance(default, bool) else str(default)
        row = re.search(rf"^\| `{name}` \|[^\n]*", options, re.M)
        assert row is not None, name
        assert f"`{value}`" in row.group(0).split("|")[2], (name, row.group(0))


def test_nothing_links_outside_the_repository() -> None:
    """The rule book is docs/rules.md; a clone has no ../shared folder."""
    offenders = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in tracked_text_files() if path.name != "test_docs.py"
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1)
        if re.search(r"\.\./shared|/work/shared|shared/RULES\.md", line)
    ]
    assert offenders == []


def test_relative_links_in_the_docs_resolve() -> None:
    for document in (README, RULES, PERFORMANCE):
        for target in re.findall(r"\]\((?!https?://|#)([^)#\s]+)(?:#[^)]*)?\)",
                                 document.read_text()):
            assert (document.parent / target).exists(), (document.name, target)
    assert "(docs/rules.md)" in README.read_text()
    assert "(docs/performance.md)" in README.read_text()


def test_the_readme_scaling_section_is_for_operators() -> None:
    """README's Scaling keeps what an operator needs (one small table); the measurements and
    the commands that reproduce them are in docs/performance.md (issue 31 item 11)."""
    readme = README.read_text()
    start = readme.index("### Scaling")
    scaling = readme[start:re.search(r"^##+ ", readme[start + 4:], re.M).start() + start + 4]
    assert len(scaling.splitlines()) < 50
    assert scaling.count("\n|") <= 6  # one small table
    assert "python -m tools.bench --sweep" in PERFORMANCE.read_text()


def friends_sections() -> set[str]:
    """The anchors ``f<n>`` of the Finding Friends sections of docs/rules.md."""
    return set(re.findall(r'^<a id="(f\d+)"></a>\n### F\d+ ', RULES.read_text(), re.M))


def test_rule_citations_point_at_sections_that_exist() -> None:
    """``docs/rules.md#rN`` (or ``#fN``) anywhere in the repository names an existing
    section."""
    sections = set(rule_sections()) | friends_sections() | set(
        re.findall(r'^<a id="([\w-]+)"></a>$', RULES.read_text(), re.M))  # e.g. #friends
    for path in tracked_text_files():
        if path.name == "test_docs.py":
            continue
        for anchor in re.findall(r"docs/rules\.md#([\w-]+)", path.read_text(errors="replace")):
            assert anchor in sections or anchor in {"sources", "house-rules"}, (path, anchor)


# ----------------------------------------------------------------------------- settings


def test_the_settings_table_is_one_source() -> None:
    assert readme_table() in README.read_text(), (
        "README's settings table differs from bot/runtime/config.py SETTINGS; paste the output of "
        "`python -m bot.runtime.config readme`")
    assert (ROOT / ".env.example").read_text() == env_example(), (
        "regenerate it: python -m bot.runtime.config env-example > .env.example")
    assert help_table() in build_parser().format_help()


def test_the_settings_are_exactly_what_the_code_reads() -> None:
    read: set[str] = set()
    for module in (ROOT / "bot").rglob("*.py"):
        text = module.read_text()
        read |= set(re.findall(r'(?:source|environ|os\.environ)\.get\("([A-Z_]+)"', text))
        read |= set(re.findall(r'os\.environ\["([A-Z_]+)"\]', text))
        read |= set(re.findall(r'os\.getenv\("([A-Z_]+)"', text))
    read -= {"DISPLAY", "WAYLAND_DISPLAY"}  # the desktop's, for opening a browser
    assert read == {setting.name for setting in SETTINGS}


def test_readme_names_every_command_line_option() -> None:
    readme = README.read_text()
    options = [option for action in build_parser()._actions
               for option in action.option_strings if option.startswith("--")]
    assert set(options) >= {"--local", "--env-file", "--players", "--database"}
    missing = [option for option in options if option != "--help" and f"`{option}" not in readme]
    assert missing == []


ARCHITECTURE = ROOT / "docs" / "architecture.md"


def test_the_architecture_map_names_every_module() -> None:
    """docs/architecture.md's map lists every folder of bot/ and every module in it."""
    text = ARCHITECTURE.read_text()
    section = text[text.index("## The map"):text.index("## What each room owns")]
    items = re.split(r"^- ", section, flags=re.M)[1:]
    assert items
    for item in items:
        folder = re.match(r"`([\w/]+)/`", item)
        assert folder is not None, item
        body = re.sub(r"\([^)]*\)|`[^`]*`", "", item[folder.end():])  # notes aside
        named = set(re.findall(r"\b[a-z_]+\b", body))
        found = {p.stem for p in (ROOT / folder[1]).glob("*.py")} - {"__init__", "__main__"}
        assert found <= named, (folder[1], sorted(found - named))
    folders = {re.match(r"`([\w/]+)/`", item)[1] for item in items}  # type: ignore[index]
    packages = {str(p.parent.relative_to(ROOT)) for p in (ROOT / "bot").rglob("*.py")}
    assert packages - {"bot"} <= folders, sorted(packages - folders)


def test_no_file_cites_a_missing_document() -> None:
    """Docstrings and settings cite documents of this repository (DESIGN.md is not one)."""
    cited = [str(path.relative_to(ROOT)) for folder in ("bot", "engine", "tools", "tests")
             for path in (ROOT / folder).rglob("*") if path.suffix in {".py", ".toml"}
             and "DESIGN.md" in path.read_text(encoding="utf-8")
             and path.name != "test_docs.py"]
    assert cited == []
