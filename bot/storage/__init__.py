"""SQLite storage for the Tractor bot: live tables (versioned JSON documents), hand and
match records for replay, per-season stats, openskill ratings and leaderboards, and
guild (server default) and user settings.

Open with ``store = await Store.open(path)``; see `Store` for the API and
`bot.storage.ratings` for how ratings work. Every failure the bot should report is a
`StorageError`; a write that could not get the database in time is a `StorageBusy`
(nothing written: answer "try again"). ``python -m bot.storage backup PATH`` makes an
online backup.
"""

from .backup import DEFAULT_DATABASE_PATH, BackupInfo, backup_database, database_path_from_env
from .errors import (
    DatabaseCorrupt,
    DatabaseNotWritable,
    SchemaTooNew,
    SeasonNotFound,
    StaleVersion,
    StorageBusy,
    StorageError,
    TableExists,
    TableNotFound,
)
from .records import (
    MODES,
    FriendsStats,
    GuildSettings,
    HandAction,
    HandRecord,
    Holders,
    LeaderboardPage,
    LeaderboardRow,
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
    Team,
    UserSettings,
    UserStats,
    team_of,
)
from .store import UNSET, LeaderboardBy, LeaderboardScope, Store

__all__ = [
    "DEFAULT_DATABASE_PATH",
    "MODES",
    "UNSET",
    "BackupInfo",
    "DatabaseCorrupt",
    "DatabaseNotWritable",
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
    "StorageBusy",
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
