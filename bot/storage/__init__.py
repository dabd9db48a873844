"""SQLite storage for the Tractor bot: live tables (versioned JSON documents), hand and
match records for replay, stats, openskill ratings, leaderboards and settings.

Open with ``store = await Store.open(path)``; see `Store` for the API and
`bot.storage.ratings` for how ratings work. ``python -m bot.storage backup PATH`` makes an
online backup.
"""

from .backup import DEFAULT_DATABASE_PATH, BackupInfo, backup_database, database_path_from_env
from .errors import (
    DatabaseCorrupt,
    SchemaTooNew,
    StaleVersion,
    StorageError,
    TableExists,
    TableNotFound,
)
from .records import (
    GuildSettings,
    HandAction,
    HandRecord,
    LeaderboardPage,
    LeaderboardRow,
    LevelPoint,
    MatchRecord,
    MatchSummary,
    PanelMode,
    Players,
    Side,
    StoredTable,
    TableStatus,
    Team,
    UserSettings,
    UserStats,
    team_of,
)
from .store import UNSET, LeaderboardBy, LeaderboardScope, Store

__all__ = [
    "DEFAULT_DATABASE_PATH",
    "UNSET",
    "BackupInfo",
    "DatabaseCorrupt",
    "GuildSettings",
    "HandAction",
    "HandRecord",
    "LeaderboardBy",
    "LeaderboardPage",
    "LeaderboardRow",
    "LeaderboardScope",
    "LevelPoint",
    "MatchRecord",
    "MatchSummary",
    "PanelMode",
    "Players",
    "SchemaTooNew",
    "Side",
    "StaleVersion",
    "StorageError",
    "Store",
    "StoredTable",
    "TableExists",
    "TableNotFound",
    "TableStatus",
    "Team",
    "UserSettings",
    "UserStats",
    "backup_database",
    "database_path_from_env",
    "team_of",
]
