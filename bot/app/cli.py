"""The command line shared by both modes of ``tractor-bot`` (``python -m bot``): its
options, its exit statuses, and the one line printed for whatever stops the start.

bot/__main__.py (the composition root: it picks Discord or local play) and bot/app/local.py
both use it; neither imports the other at import time.
"""

from __future__ import annotations

import argparse
import sys
import textwrap

from bot.runtime.config import LOCAL_DATABASE, LOCAL_PORT, help_table

__all__ = [
    "EXIT_CONFIG",
    "EXIT_NETWORK",
    "build_parser",
    "fail",
    "one_line",
    "startup_failure",
]

EXIT_CONFIG = 2
"""A setting, an option, the database or a missing package: the operator must fix it."""
EXIT_NETWORK = 1
"""Discord is out of reach: trying again later may work."""


def build_parser() -> argparse.ArgumentParser:
    """The options of ``tractor-bot``; ``--help`` ends with the settings table."""
    parser = argparse.ArgumentParser(
        prog="tractor-bot",
        description=textwrap.fill(
            "Tractor (升级 / Sheng Ji / 80 points) for Discord (also run as python -m bot). "
            "With DISCORD_TOKEN set it runs the bot on Discord; without it (or with --local) "
            "it plays locally against a simulated Discord in your browser.", 88
        ),
        epilog=_house_rules() + "\n\n" + help_table(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--database", metavar="PATH|URL",
        help="the SQLite file or a postgresql:// address (Discord: overrides DATABASE_URL "
        "and DATABASE_PATH; local play: default "
             f"{LOCAL_DATABASE})",
    )
    parser.add_argument(
        "--env-file", metavar="PATH", default=None,
        help="read the settings from this file instead of ./.env",
    )
    parser.add_argument(
        "--local", action="store_true",
        help="play locally even when DISCORD_TOKEN is set",
    )
    parser.add_argument(
        "--players", type=int, default=None, metavar="N",
        help="local play, a new table: people at this computer (1-4, default 1; the other "
             "seats are computer players). A saved game keeps its own seats",
    )
    parser.add_argument(
        "--mode", choices=("teams", "friends"), default=None,
        help="local play, a new table: teams (the four-player game, the default) or friends "
             "(Finding Friends: 4-8 seats, partners called by a card)",
    )
    parser.add_argument(
        "--seats", type=int, default=None, metavar="N",
        help="local play, a new table: seats at it (4-8; other than 4 means --mode friends; "
             "default 4); computer players fill the seats of no person",
    )
    parser.add_argument(
        "--decks", type=int, default=None, metavar="D",
        help="local play, a new Finding Friends table: decks shuffled together (2-4; default "
             "by seats: 2 for 4-5, 3 for 6-7, 4 for 8)",
    )
    parser.add_argument(
        "--rule", action="append", metavar="NAME=VALUE", default=None,
        help="local play, a new table: a house rule (once per rule, e.g. --rule "
             "turn_timer=60 --rule take_backs=true); the rules and their values are listed "
             "below. On Discord: the options of /tractor new, or the lobby's selects",
    )
    parser.add_argument(
        "--port", type=int, default=LOCAL_PORT, metavar="PORT",
        help=f"local play: the page's port on 127.0.0.1 (default {LOCAL_PORT}; 0 takes a free "
             "one)",
    )
    parser.add_argument(
        "--no-browser", action="store_true",
        help="local play: only print the page's address, do not open a browser",
    )
    return parser


def _house_rules() -> str:
    """The house rules ``--rule`` takes, from the options registry (bot/core/options.py)."""
    from bot.core.options import house_rules_help

    return "house rules (--rule NAME=VALUE; the same names as /tractor new):\n" + \
        house_rules_help()


def one_line(text: str) -> str:
    return " ".join(text.split())


def fail(status: int, message: str) -> int:
    """Print ``tractor-bot: <message>`` on stderr; return `status`."""
    print(f"tractor-bot: {one_line(message)}", file=sys.stderr)
    return status


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
    from bot.storage.address import display, is_url

    if isinstance(error, StorageError):  # a corrupt, foreign, too-new or read-only file
        return EXIT_CONFIG, one_line(str(error))
    if database is not None and is_url(database):
        database = display(database)  # never the password
    if database is not None and isinstance(error, OSError | sqlite3.Error):
        reason = getattr(error, "strerror", None) or str(error) or type(error).__name__
        return EXIT_CONFIG, one_line(f"cannot open the database {database}: {reason}")
    if isinstance(error, discord.LoginFailure):
        return EXIT_CONFIG, ("Discord rejected DISCORD_TOKEN (401 Unauthorized): copy the "
                             "bot token again from the Discord developer portal")
    if isinstance(error, discord.PrivilegedIntentsRequired):
        return EXIT_CONFIG, ("Discord refused the bot's intents: turn them on in the "
                             "developer portal (Bot > Privileged Gateway Intents)")
    if isinstance(error, aiohttp.ClientConnectorError):
        reason = error.os_error.strerror or str(error.os_error) or type(error.os_error).__name__
        return EXIT_NETWORK, one_line(
            f"cannot reach Discord ({error.host}:{error.port}: {reason}); check the network "
            "connection (DNS, proxy, firewall) and try again")
    if isinstance(error, asyncio.TimeoutError):
        return EXIT_NETWORK, ("cannot reach Discord: the connection timed out; check the "
                              "network connection and try again")
    if isinstance(error, OSError | aiohttp.ClientError | discord.GatewayNotFound
                  | discord.DiscordServerError):
        detail = str(error) or type(error).__name__
        return EXIT_NETWORK, one_line(f"cannot reach Discord ({detail}); check the network "
                                      "connection and try again")
    return None
