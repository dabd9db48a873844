"""What ships: the Docker build context (.dockerignore), the image's dependencies (the
Discord bot's only; SimCord is the ``local`` extra), and the two make targets that set a
fresh machine up."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def dockerignore_patterns(text: str) -> list[tuple[bool, re.Pattern[str]]]:
    """(exclude?, regex) per line of a .dockerignore, in order (Docker's rules: ``#``
    comments, ``!`` re-includes, ``**`` spans folders, ``*`` and ``?`` stay in one)."""
    patterns = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        exclude = not line.startswith("!")
        line = line.lstrip("!").strip().strip("/")
        regex, i = "", 0
        while i < len(line):
            if line.startswith("**/", i):
                regex, i = regex + "(?:.*/)?", i + 3
            elif line.startswith("**", i):
                regex, i = regex + ".*", i + 2
            elif line[i] == "*":
                regex, i = regex + "[^/]*", i + 1
            elif line[i] == "?":
                regex, i = regex + "[^/]", i + 1
            else:
                regex, i = regex + re.escape(line[i]), i + 1
        patterns.append((exclude, re.compile(regex + r"\Z")))
    return patterns


def in_context(path: str, patterns: list[tuple[bool, re.Pattern[str]]]) -> bool:
    """Whether Docker sends `path` (relative, with /): the last pattern matching the path
    or one of its parent folders decides (moby's patternmatcher)."""
    parts = path.split("/")
    prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    excluded = False
    for exclude, pattern in patterns:
        if any(pattern.match(prefix) for prefix in prefixes):
            excluded = exclude
    return not excluded


@pytest.fixture(scope="module")
def patterns() -> list[tuple[bool, re.Pattern[str]]]:
    return dockerignore_patterns((ROOT / ".dockerignore").read_text())


def test_the_matcher_follows_docker_rules() -> None:
    rules = dockerignore_patterns("*\n!bot/\n**/__pycache__\n# note\n!bot/__pycache__/keep.pyc\n")
    assert not in_context("README.md", rules)
    assert in_context("bot/app/client.py", rules)
    assert not in_context("bot/render/__pycache__/draw.cpython-311.pyc", rules)
    assert in_context("bot/__pycache__/keep.pyc", rules)


@pytest.mark.parametrize("path", [
    ".env", ".env.local", "bot/.env", ".venv/bin/python", ".venv/.installed",
    "data/tractor.sqlite3", "data/local.sqlite3-wal", "tractor.sqlite3", ".git/config",
    ".git", ".mypy_cache/3.11/engine.json", ".ruff_cache/x", ".pytest_cache/v/cache",
    ".hypothesis/examples/x", "bot/__pycache__/client.cpython-311.pyc",
    "engine/__pycache__/cards.cpython-311.pyc", "tractor_bot.egg-info/PKG-INFO",
    "tests/test_local_play.py", "demo/table.png", "docs/table.png", ".ci/run.sh",
])
def test_the_build_context_leaves_out_secrets_and_local_state(
    path: str, patterns: list[tuple[bool, re.Pattern[str]]]
) -> None:
    assert not in_context(path, patterns)


def test_the_build_context_has_what_the_dockerfile_copies(
    patterns: list[tuple[bool, re.Pattern[str]]]
) -> None:
    """Every source of a COPY (its files tracked by git) is in the context."""
    dockerfile = (ROOT / "Dockerfile").read_text()
    sources = [word for line in dockerfile.splitlines() if line.startswith("COPY ")
               and "--from=" not in line for word in line.split()[1:-1]]
    assert {"pyproject.toml", "README.md", "engine", "bot", "assets"} <= set(sources)
    tracked = subprocess.run(["git", "ls-files", *sources], cwd=ROOT, capture_output=True,
                             text=True, check=True).stdout.split()
    assert len(tracked) > 50
    assert [path for path in tracked if not in_context(path, patterns)] == []


def test_the_image_installs_the_discord_bot_only() -> None:
    """SimCord (local play) is the ``local`` extra, not a runtime dependency; the image
    installs no extra; ``dev`` includes ``local``; make installs both."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert not [d for d in project["dependencies"] if d.lower().startswith("simcord")]
    extras = project["optional-dependencies"]
    assert extras["local"] == ["simcord[preview]==3.2.1"]
    assert "tractor-bot[local,postgres]" in extras["dev"]  # make test installs both
    assert extras["postgres"] == ["psycopg[binary,pool]>=3.2"]
    dockerfile = (ROOT / "Dockerfile").read_text()  # the image: PostgreSQL, not SimCord
    assert re.search(r"^RUN pip install --no-cache-dir '\.\[postgres\]'$", dockerfile, re.M)
    makefile = (ROOT / "Makefile").read_text()
    assert "pip install --quiet -e '.[local,dev]'" in makefile
    for target in ("play", "test", "lint", "typecheck"):  # each sets .venv up on its own
        assert re.search(rf"^{target}: .*\$\(STAMP\)|^{target}: lint typecheck", makefile,
                         re.M), target


def test_docker_runs_tractor_bot_with_local_play_off() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert 'ENTRYPOINT ["tractor-bot"]' in dockerfile
    assert re.search(r"\bLOCAL_PLAY=off\b", dockerfile)
    assert "STOPSIGNAL SIGTERM" in dockerfile


def test_make_play_passes_its_args_through() -> None:
    """README's ``make play ARGS="--mode friends --seats 6"``: the options reach
    ``python -m bot`` as typed (a dry run: nothing is installed or started)."""
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    env = {k: v for k, v in os.environ.items()  # not a make run's own flags (make test)
           if k not in {"MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES"}}
    done = subprocess.run(["make", "-n", "--no-print-directory", "play",
                           "ARGS=--mode friends --seats 6"], cwd=ROOT, env=env,
                          capture_output=True, text=True, check=True, timeout=60)
    assert done.stdout.splitlines()[-1] == ".venv/bin/python -m bot --mode friends --seats 6"
    readme = (ROOT / "README.md").read_text()
    assert 'make play ARGS="--mode friends --seats 6"' in readme
