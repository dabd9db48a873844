"""A database that cannot be written is refused when opening (one line), and a write that
hits a full disk is a `DatabaseNotWritable`, not a raw SQLite error.

The faults are real. Tests often run as root, which ignores file permissions, so the
read-only file, the read-only folder and the full disk are made in a private mount
namespace (``unshare --user --map-root-user --mount``: a read-only bind mount, a tiny
tmpfs) where even root cannot write; a plain ``chmod`` is used when not root.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bot.storage import DatabaseNotWritable, StorageError, Store

ROOT = Path(__file__).resolve().parents[2]


def namespaces_work() -> bool:
    unshare = shutil.which("unshare")
    if unshare is None:
        return False
    done = subprocess.run([unshare, "-rm", "true"], capture_output=True, check=False)
    return done.returncode == 0


needs_namespace = pytest.mark.skipif(
    not namespaces_work(),
    reason="needs `unshare -rm` (user + mount namespaces) to make a read-only mount or a "
           "full tmpfs that root cannot write past")

SCENARIO = """
import asyncio, json, os, subprocess, sys
from bot.storage import Store, StorageError

def fill(folder):
    subprocess.run(["dd", "if=/dev/zero", f"of={folder}/fill", "bs=4k"],
                   capture_output=True, check=False)

async def attempt(step):
    try:
        return {"ok": await step()}
    except StorageError as error:
        return {"error": type(error).__name__, "message": str(error)}

async def main(path):
    results = {}
{body}
    print(json.dumps(results))

asyncio.run(main(sys.argv[1]))
"""


def run_in_namespace(setup: str, body: str, path: Path) -> dict[str, dict[str, object]]:
    """Run ``setup`` (shell, as root of a private mount namespace), then ``body`` (Python,
    inside ``main(path)``, filling ``results``) and return the results."""
    script = SCENARIO.replace("{body}", textwrap.indent(textwrap.dedent(body), "    "))
    done = subprocess.run(
        ["unshare", "-rm", "sh", "-ec", f'{setup}\nexec "$0" -c "$1" "$2"',
         sys.executable, script, str(path)],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    result: dict[str, dict[str, object]] = json.loads(done.stdout.splitlines()[-1])
    return result


async def make_database(path: Path) -> None:
    store = await Store.open(path)
    try:
        await store.create_table(1, 10, 7, {"phase": "lobby"})
    finally:
        await store.close()


def assert_refused(outcome: dict[str, object], path: Path) -> None:
    assert outcome.get("error") == "DatabaseNotWritable", outcome
    message = str(outcome["message"])
    assert message.startswith(f"{path}: cannot write the database") and "\n" not in message


@needs_namespace
async def test_read_only_file_is_refused_at_open(tmp_path: Path) -> None:
    path = tmp_path / "ro.sqlite3"
    await make_database(path)
    before = path.read_bytes()
    results = run_in_namespace(
        f"mount --bind {path} {path}; mount -o remount,bind,ro {path}",
        'results["open"] = await attempt(lambda: Store.open(path))', path)
    assert_refused(results["open"], path)
    assert path.read_bytes() == before


@needs_namespace
async def test_read_only_folder_is_refused_at_open(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    path = folder / "db.sqlite3"
    await make_database(path)
    results = run_in_namespace(
        f"mount --bind {folder} {folder}; mount -o remount,bind,ro {folder}",
        'results["open"] = await attempt(lambda: Store.open(path))', path)
    assert_refused(results["open"], path)


@needs_namespace
async def test_full_disk_is_refused_at_open_and_fails_writes_cleanly(tmp_path: Path) -> None:
    folder = tmp_path / "small"
    folder.mkdir()
    path = folder / "db.sqlite3"
    results = run_in_namespace(
        f"mount -t tmpfs -o size=2m tmpfs {folder}",
        """
        store = await Store.open(path)
        table = await store.create_table(1, 10, 7, {"phase": "lobby"})
        await store.close()
        fill(os.path.dirname(path))
        results["open_full"] = await attempt(lambda: Store.open(path))
        os.unlink(os.path.dirname(path) + "/fill")
        store = await Store.open(path)
        fill(os.path.dirname(path))
        big = {"x": "y" * 400_000}
        results["save_full"] = await attempt(lambda: store.save_table(table.id, 1, big))
        results["read_full"] = {"ok": (await store.load_table(table.id)).version}
        os.unlink(os.path.dirname(path) + "/fill")
        async def save_small():
            return (await store.save_table(table.id, 1, {"phase": "play"})).version
        results["save_after"] = await attempt(save_small)
        await store.close()
        """, path)
    assert_refused(results["open_full"], path)
    assert_refused(results["save_full"], path)
    assert results["read_full"] == {"ok": 1}  # nothing half-written
    assert results["save_after"] == {"ok": 2}  # space again: the same version saves


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores file permissions (the namespace "
                    "tests above cover root)")
async def test_chmod_read_only_file_is_refused_at_open(tmp_path: Path) -> None:
    path = tmp_path / "ro.sqlite3"
    await make_database(path)
    path.chmod(0o444)
    with pytest.raises(DatabaseNotWritable) as refused:
        await Store.open(path)
    assert isinstance(refused.value, StorageError) and str(path) in str(refused.value)


async def test_folder_in_place_of_the_file_is_one_storage_error(tmp_path: Path) -> None:
    path = tmp_path / "a_folder"
    path.mkdir()
    with pytest.raises(DatabaseNotWritable) as refused:
        await Store.open(path)
    assert "\n" not in str(refused.value)


@needs_namespace
async def test_bot_start_up_on_a_read_only_file_is_one_line_and_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "ro.sqlite3"
    await make_database(path)
    token = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"
    env = {**os.environ, "DISCORD_TOKEN": token}
    done = subprocess.run(
        ["unshare", "-rm", "sh", "-ec",
         f'mount --bind {path} {path}; mount -o remount,bind,ro {path}\nexec "$@"', "sh",
         sys.executable, "-m", "bot", "--env-file", os.devnull, "--database", str(path)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 2, done.stderr
    (line,) = done.stderr.splitlines()
    assert f"{path}: cannot write the database" in line
