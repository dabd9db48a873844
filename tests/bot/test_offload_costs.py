"""What a worker job costs the event loop (issue 16): an answer is one write of the worker
(one wakeup of the loop, never one for its size and one for the rest); a table picture's
seat labels pickle as plain values."""

from __future__ import annotations

import os
import pickle
import pickletools
from collections.abc import Callable
from multiprocessing import Pipe
from typing import Any

import pytest

from bot.render import SeatLabel
from bot.runtime import offload


@pytest.mark.parametrize("size", [10, 40_000])
def test_an_answer_is_framed_as_send_bytes_frames_it_in_one_write(
        size: int, monkeypatch: pytest.MonkeyPatch) -> None:
    reader, writer = Pipe(duplex=False)
    writes: list[int] = []
    write: Callable[[int, Any], int] = os.write

    def counted(fd: int, data: Any) -> int:
        writes.append(len(data))
        return write(fd, data)

    monkeypatch.setattr(offload.os, "write", counted)
    payload = os.urandom(size)
    try:
        offload._send(writer, payload)
        assert reader.recv_bytes() == payload
        assert writes == [4 + size]
    finally:
        reader.close()
        writer.close()


def test_seat_labels_pickle_as_their_values() -> None:
    labels = [SeatLabel("Ann"), SeatLabel("Bot", computer=True),
              SeatLabel("Cy", autopilot=True)]
    data = pickle.dumps(labels, pickle.HIGHEST_PROTOCOL)
    assert pickle.loads(data) == labels
    assert "BUILD" not in {op.name for op, _, _ in pickletools.genops(data)}  # no state set
