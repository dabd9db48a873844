"""Fixtures for every test folder."""

from __future__ import annotations

import functools
import os
import shutil
import stat
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from pg import pg_server, pg_url  # noqa: F401 (fixtures: a throwaway PostgreSQL server)

FIRST = ("tests/tools/test_soak_cluster.py", "tests/test_local_play.py",
         "tests/test_local_page.py")
"""Modules whose tests spend most of their time waiting (on processes of their own, on a
browser): they run first, so that `make test`'s other test process (pytest-xdist) overlaps
them with the rest instead of the run ending on one of them."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """`FIRST` first (in that order), the rest as collected."""
    def rank(item: pytest.Item) -> int:
        module = item.nodeid.partition("::")[0]
        return FIRST.index(module) if module in FIRST else len(FIRST)

    items.sort(key=rank)


@functools.cache
def _unprivileged_prefix() -> tuple[str, ...] | None:
    """How to run a child that file permissions bind: as is for an ordinary user; for
    root (which ignores them), in a new user namespace where it is nobody (`unshare
    --user`); None when neither works."""
    if os.geteuid() != 0:
        return ()
    unshare = shutil.which("unshare")
    if unshare is None:
        return None
    probe = subprocess.run([unshare, "--user", "true"], capture_output=True, timeout=10)
    return (unshare, "--user") if probe.returncode == 0 else None


@dataclass(frozen=True)
class Unprivileged:
    """Run children that cannot override file permissions, in a folder they can reach."""

    prefix: tuple[str, ...]
    """Put before the command (empty for an ordinary user)."""
    root: Path
    """A world-readable folder for the child's files (pytest's tmp_path is private)."""

    def read_only(self, folder: Path) -> Path:
        """Make `folder` (created if need be) readable but not writable; returns it."""
        folder.mkdir(parents=True, exist_ok=True)
        folder.chmod(0o555)
        return folder


@pytest.fixture
def unprivileged() -> Iterator[Unprivileged]:
    """See `Unprivileged`; skips when permissions cannot be tested here."""
    prefix = _unprivileged_prefix()
    if prefix is None:
        pytest.skip("running as root without user namespaces: permissions cannot be tested")
    root = Path(tempfile.mkdtemp(prefix="tractor-unprivileged-"))
    root.chmod(0o755)
    try:
        yield Unprivileged(prefix, root)
    finally:
        for folder, _, _ in os.walk(root):
            Path(folder).chmod(Path(folder).stat().st_mode | stat.S_IWUSR | stat.S_IXUSR)
        shutil.rmtree(root, ignore_errors=True)
