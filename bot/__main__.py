"""Run the bot: ``python -m bot`` (or ``tractor-bot``).

Reads the settings from the environment and ``.env`` (see bot/runtime/config.py). ``--help``
always works. Whatever stops the bot from starting prints one line on stderr, never a
traceback (`bot.app.cli.startup_failure`): a missing, malformed or rejected token, a bad
setting, or a corrupt, too-new, unopenable or unwritable database exit with status 2 (the
database is opened and checked before anything goes to the network); Discord out of
reach exits with status 1.

Without a token (or with ``--local``) it starts local play instead: the bot against
SimCord's simulated Discord, in a browser (bot/app/local.py, imported only then: SimCord is
the optional ``local`` extra; ``LOCAL_PLAY=off`` turns that off, as the Docker image
does). This module is the composition root: the options, exit statuses and start-up
messages both modes share live in bot/app/cli.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
from collections.abc import Sequence

from bot.app.cli import EXIT_CONFIG, build_parser, fail, startup_failure
from bot.runtime.config import Config, ConfigError, load_dotenv_file, local_play_wanted

__all__ = ["main", "run_discord"]


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the process exit status."""
    args = build_parser().parse_args(argv)
    load_dotenv_file(args.env_file)
    if args.local or local_play_wanted():
        from bot.app import local

        return local.main(args)
    try:
        config = Config.from_env()
    except ConfigError as error:
        return fail(EXIT_CONFIG, str(error))
    if args.database:
        config = config.with_changes(database_path=args.database)
    return run_discord(config)


def run_discord(config: Config) -> int:
    """Connect to Discord and run until stopped (SIGINT/SIGTERM close the database cleanly).

    The database is opened (created, migrated, checked) first, so a bad file is reported
    before anything goes to the network."""
    from bot.runtime.logging import log, setup_logging

    setup_logging(config.log_level, secret=config.token, cluster=config.cluster_name)
    from bot.app.client import create_bot, prepare_database
    from bot.runtime.dblock import DatabaseInUse, hold

    try:
        hold(config.database_path)  # one process per database file, for its whole life
    except DatabaseInUse as error:
        return fail(EXIT_CONFIG, str(error))
    try:
        prepare_database(config.database_path)
    except Exception as error:
        failure = startup_failure(error, database=config.database_path)
        if failure is None:
            raise
        return fail(*failure)

    async def runner() -> int:
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
            return bot.exit_status

    try:
        status = asyncio.run(runner())
    except KeyboardInterrupt:
        status = 0
    except Exception as error:
        failure = startup_failure(error)
        if failure is None:
            raise
        return fail(*failure)
    return status


if __name__ == "__main__":
    sys.exit(main())
