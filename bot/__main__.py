"""Run the bot: ``python -m bot`` (or ``tractor-bot``).

Reads the settings from the environment and ``.env`` (see bot/config.py). ``--help``
always works. Whatever stops the bot from starting prints one line on stderr, never a
traceback (`startup_failure`): a missing, malformed or rejected token, a bad setting or a
corrupt, too-new or unopenable database exit with status 2 (the database is opened and
checked before anything goes to the network); Discord out of reach exits with status 1.

Without a token (or with ``--local``) it starts local play instead: the bot against
SimCord's simulated Discord, in a browser (bot/local.py; ``LOCAL_PLAY=off`` turns that
off, as the Docker image does).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys
from collections.abc import Sequence

from bot.config import Config, ConfigError, load_dotenv_file

EXIT_CONFIG = 2
EXIT_NETWORK = 1


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description=(
            "Tractor (升级 / Sheng Ji / 80 points) for Discord. Settings come from the "
            "environment or .env: DISCORD_TOKEN, DATABASE_PATH, DEV_GUILD_ID, LOG_LEVEL, "
            "BOT_ACTION_DELAY, TRACTOR_COMPUTER, TRACTOR_DEBUG_START_LEVEL, TRACTOR_ASSETS "
            "(see .env.example)."
        ),
    )
    parser.add_argument(
        "--database", metavar="PATH", help="SQLite file (overrides DATABASE_PATH)"
    )
    parser.add_argument(
        "--env-file", metavar="PATH", default=None, help="read settings from this .env file"
    )
    parser.add_argument(
        "--local",
        action="store_true",
        help="play locally without a token (simulated Discord in the browser)",
    )
    parser.add_argument(
        "--players", type=int, default=1, metavar="N",
        help="local play: number of human players (1-4; the rest are computer seats)",
    )
    parser.add_argument(
        "--port", type=int, default=8765, metavar="PORT", help="local play: preview port"
    )
    parser.add_argument(
        "--no-browser", action="store_true", help="local play: only print the page address"
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the process exit status."""
    args = build_parser().parse_args(argv)
    load_dotenv_file(args.env_file)
    from bot.local import wanted as local_play_wanted  # no DISCORD_TOKEN: play locally

    if args.local or local_play_wanted():
        return run_local(args)
    try:
        config = Config.from_env()
    except ConfigError as error:
        print(f"tractor-bot: {error}", file=sys.stderr)
        return EXIT_CONFIG
    if args.database:
        config = config.with_changes(database_path=args.database)
    return run_discord(config)


def run_local(args: argparse.Namespace) -> int:
    """Local play: the bot against SimCord's simulated Discord in a browser (bot/local.py)."""
    from bot import local

    return local.main(args)


def startup_failure(error: BaseException, *, database: str | None = None
                    ) -> tuple[int, str] | None:
    """The exit status and the one line to print for an error that stopped the bot from
    starting, or None for anything else (a bug: let it raise). `database` is the path
    being opened when the error came from opening it."""
    import asyncio
    import sqlite3

    import aiohttp
    import discord

    from bot.storage import StorageError

    if isinstance(error, StorageError):  # a corrupt, foreign or too-new database file
        return EXIT_CONFIG, _one_line(str(error))
    if database is not None and isinstance(error, OSError | sqlite3.Error):
        reason = getattr(error, "strerror", None) or str(error) or type(error).__name__
        return EXIT_CONFIG, _one_line(f"cannot open the database {database}: {reason}")
    if isinstance(error, discord.LoginFailure):
        return EXIT_CONFIG, ("Discord rejected DISCORD_TOKEN (401 Unauthorized): copy the "
                             "bot token again from the Discord developer portal")
    if isinstance(error, discord.PrivilegedIntentsRequired):
        return EXIT_CONFIG, ("Discord refused the bot's intents: turn them on in the "
                             "developer portal (Bot > Privileged Gateway Intents)")
    if isinstance(error, aiohttp.ClientConnectorError):
        reason = error.os_error.strerror or str(error.os_error) or type(error.os_error).__name__
        return EXIT_NETWORK, _one_line(
            f"cannot reach Discord ({error.host}:{error.port}: {reason}); check the network "
            "connection (DNS, proxy, firewall) and try again")
    if isinstance(error, asyncio.TimeoutError):
        return EXIT_NETWORK, ("cannot reach Discord: the connection timed out; check the "
                              "network connection and try again")
    if isinstance(error, OSError | aiohttp.ClientError | discord.GatewayNotFound
                  | discord.DiscordServerError):
        detail = str(error) or type(error).__name__
        return EXIT_NETWORK, _one_line(f"cannot reach Discord ({detail}); check the network "
                                       "connection and try again")
    return None


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _fail(status: int, message: str) -> int:
    print(f"tractor-bot: {message}", file=sys.stderr)
    return status


def run_discord(config: Config) -> int:
    """Connect to Discord and run until stopped (SIGINT/SIGTERM close the database cleanly).

    The database is opened (created, migrated, checked) first, so a bad file is reported
    before anything goes to the network."""
    from bot.logging import log, setup_logging

    setup_logging(config.log_level, secret=config.token)
    from bot.client import create_bot, prepare_database

    try:
        prepare_database(config.database_path)
    except Exception as error:
        failure = startup_failure(error, database=config.database_path)
        if failure is None:
            raise
        return _fail(*failure)

    async def runner() -> None:
        bot = create_bot(config.database_path, config=config)
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, stop.set)
        assert config.token is not None
        async with bot:
            task = asyncio.create_task(bot.start(config.token))
            stopper = asyncio.create_task(stop.wait())
            done, _ = await asyncio.wait({task, stopper}, return_when=asyncio.FIRST_COMPLETED)
            if stopper in done:
                log.info("stopping: closing the connection and the database")
            await bot.close()
            stopper.cancel()
            if task in done:
                task.result()  # re-raise a login or connection failure

    try:
        asyncio.run(runner())
    except KeyboardInterrupt:
        pass
    except Exception as error:
        failure = startup_failure(error)
        if failure is None:
            raise
        return _fail(*failure)
    return 0


if __name__ == "__main__":
    sys.exit(main())
