"""The schema's one version number, shared by every backend's migrations.

Each backend keeps its own dialect's migration files (``<backend>/migrations/V<n>__<name>.sql``)
and must reach `SCHEMA_VERSION`: a change to the schema is a new version with one file per
backend. A backend born later may start above 1 (PostgreSQL starts at 5, the schema of the
release it arrived in, as one file).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources

SCHEMA_VERSION = 7
"""The schema version this code reads and writes."""

_NAME = re.compile(r"^V(\d+)__(\w+)\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    """One SQL migration file."""

    version: int
    name: str
    sql: str


def load_migrations(package: str) -> list[Migration]:
    """The migration files of ``package``'s ``migrations`` folder, by version: they must run
    without gaps and end at `SCHEMA_VERSION`."""
    found: list[Migration] = []
    for entry in resources.files(package).joinpath("migrations").iterdir():
        match = _NAME.match(entry.name)
        if match:
            found.append(Migration(int(match[1]), match[2], entry.read_text("utf-8")))
    found.sort(key=lambda m: m.version)
    versions = [m.version for m in found]
    if not found or versions != list(range(versions[0], SCHEMA_VERSION + 1)):
        raise RuntimeError(f"{package}: migration versions must run without gaps up to"
                           f" {SCHEMA_VERSION}: {versions}")
    return found
