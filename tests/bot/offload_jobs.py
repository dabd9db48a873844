"""Jobs tests/bot/test_offload.py sends to worker processes, in a module that imports
nothing heavy: a worker unpickling one imports this, not the test module (botkit, SimCord,
discord.py: seconds in a nice-10 worker on a busy machine, past a short timeout)."""

from __future__ import annotations

import os
import time
from pathlib import Path


def slow_once(marker: str) -> str:
    """Hangs the first time (as a stuck worker would), answers at once the second."""
    path = Path(marker)
    if not path.exists():
        path.write_text("stuck")
        time.sleep(60)
    return "drawn"


def sleep_for(seconds: float) -> int:
    """Sleeps `seconds`; the worker's pid."""
    time.sleep(seconds)
    return os.getpid()
