"""Storage for the Tractor bot: live tables (versioned JSON documents), hand and match
records for replay, per-season stats, openskill ratings and leaderboards, and guild
(server default) and user settings; in an SQLite file (the default) or PostgreSQL.

Open with ``store = await open_store(target)`` (or ``Store.open``): a path opens SQLite
(`bot.storage.sqlite`), a ``postgresql://`` address PostgreSQL (`bot.storage.postgres`).
The services depend on `Storage` (`bot.storage.interface`); see `Store` for the API and
`bot.storage.ratings` for how ratings work. Every failure the bot should report is a
`StorageError`; a write that could not get the database in time is a `StorageBusy`
(nothing written: answer "try again"). ``python -m bot.storage backup PATH`` makes an
online backup of an SQLite file; ``python -m bot.storage copy FILE URL`` copies one into
PostgreSQL.
"""

from .errors import (
    DatabaseCorrupt,
    DatabaseNotWritable,
    DatabaseUnavailable,
    SchemaTooNew,
    SeasonNotFound,
    StaleVersion,
    StorageBusy,
    StorageError,
    TableExists,
    TableNotFound,
)
from .interface import Storage
from .records import (
    MODES,
    BackupInfo,
    FriendsStats,
    GuildSettings,
    HandAction,
    HandRecord,
    Holders,
    LeaderboardBy,
    LeaderboardPage,
    LeaderboardRow,
    LeaderboardScope,
    LevelPoint,
    MatchRecord,
    MatchSummary,
    Mode,
    PanelMode,
    Players,
    Role,
    Season,
    Side,
    StoredTable,
    TableStatus,
    UserSettings,
    UserStats,
)
from .sqlite.backup import DEFAULT_DATABASE_PATH, backup_database, database_path_from_env
from .store import UNSET, Store, open_store

__all__ = [
    "DEFAULT_DATABASE_PATH",
    "MODES",
    "UNSET",
    "BackupInfo",
    "DatabaseCorrupt",
    "DatabaseNotWritable",
    "DatabaseUnavailable",
    "FriendsStats",
    "GuildSettings",
    "HandAction",
    "HandRecord",
    "Holders",
    "LeaderboardBy",
    "LeaderboardPage",
    "LeaderboardRow",
    "LeaderboardScope",
    "LevelPoint",
    "MatchRecord",
    "MatchSummary",
    "Mode",
    "PanelMode",
    "Players",
    "Role",
    "SchemaTooNew",
    "Season",
    "SeasonNotFound",
    "Side",
    "StaleVersion",
    "Storage",
    "StorageBusy",
    "StorageError",
    "Store",
    "StoredTable",
    "TableExists",
    "TableNotFound",
    "TableStatus",
    "UserSettings",
    "UserStats",
    "backup_database",
    "database_path_from_env",
    "open_store",
]
