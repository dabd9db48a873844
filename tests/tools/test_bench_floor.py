"""The floor (`python -m tools.bench --floor`), the traffic tally and the attribution by
layer: their arithmetic and their shape, never their timings."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tools import bench_attribute, bench_floor
from tools.bench import BenchConfig, main, run_bench
from tools.bench_attribute import attribute, layer_of, split_own
from tools.bench_floor import DEFAULT_RECIPE, Schedule, components, run_floor
from tools.bench_meter import _Meter
from tools.bench_traffic import Traffic, kind_of, shape_of

ROOT = str(Path(bench_floor.__file__).resolve().parent.parent)


def test_calls_are_told_apart_by_route_and_answer_type() -> None:
    assert kind_of("POST", "/interactions/1/tok/callback", {"type": 7}, None) == \
        "answer update"
    assert kind_of("POST", "/interactions/1/tok/callback", {"type": 6}, None) == \
        "answer deferred update"
    assert kind_of("PATCH", "/webhooks/5/tok/messages/@original", {}, None) == \
        "patch original"
    assert kind_of("POST", "/webhooks/5/tok", {}, None) == "post followup"
    assert kind_of("PATCH", "/channels/3/messages/4", {}, 1) == "edit dm"
    assert kind_of("PATCH", "/channels/3/messages/4", {}, 0) == "edit channel"
    assert kind_of("POST", "/channels/3/messages", {}, 1) == "send dm"
    assert kind_of("GET", "/users/12", None, None) == "GET /users/{id}"


def test_traffic_sums_per_kind_and_shape() -> None:
    traffic = Traffic()
    panel = {"content": "abc", "components": [
        {"type": 1, "components": [{"type": 3, "options": [{}, {}, {}]}]},
        {"type": 1, "components": [{"type": 2}, {"type": 2}]}],
        "attachments": [{"id": 0, "filename": "hand.png"}]}
    for _ in range(3):
        traffic.note("PATCH", "/channels/3/messages/4", panel, ["file"], 1)
    traffic.note("PATCH", "/channels/3/messages/4", {"content": "", "components": []}, [], 1)
    traffic.note("POST", "/interactions/1/t/callback", {"type": 7, "data": panel}, [], None)
    report = traffic.report(moves=2)
    edit = report["edit dm"]
    assert edit["per_move"] == 2.0 and edit["files"] == 0.8
    assert [(s["rows"], s["selects"], s["options"], s["share"]) for s in edit["shapes"]] == \
        [(2, 1, 3, 0.75), (0, 0, 0, 0.25)]
    assert report["answer update"]["shapes"][0]["buttons"] == 2  # the answer's data
    assert shape_of(panel) == (2, 2, 1, 3)


@pytest.mark.parametrize("shape", [(5, 5, 4, 22), (1, 4, 0, 0), (2, 9, 0, 0), (5, 5, 4, 29)])
def test_floor_components_have_the_asked_shape(shape: tuple[int, int, int, int]) -> None:
    assert shape_of({"components": [{"type": 1, "components": row}
                                    for row in components(shape)]}) == shape


def test_schedule_makes_each_kind_as_often_as_the_recipe() -> None:
    schedule = Schedule(DEFAULT_RECIPE)
    calls = Counter()
    shapes: Counter[tuple[str, tuple[int, int, int, int]]] = Counter()
    uploads: Counter[str] = Counter()
    moves = 1000
    for _ in range(moves):
        plan = schedule.move()
        kinds = [call.kind for call in plan]
        clicks = [k for k in kinds if k in bench_floor.CLICKS]
        assert kinds[:len(clicks)] == clicks  # the clicks come first
        for call in plan:
            calls[call.kind] += 1
            shapes[call.kind, call.shape] += 1
            uploads[call.kind] += call.upload
    for kind, entry in DEFAULT_RECIPE.items():
        assert abs(calls[kind] - entry["per_move"] * moves) <= 1, kind
        for shape in entry["shapes"]:
            key = (kind, (shape["rows"], shape["buttons"], shape["selects"],
                          round(shape["options"])))
            assert abs(shapes[key] - shape["share"] * calls[kind]) <= 1, key
        expected = sum(s["share"] * s["files"] for s in entry["shapes"]) * calls[kind]
        assert abs(uploads[kind] - expected) <= len(entry["shapes"]), kind


@pytest.mark.asyncio
async def test_floor_reproduces_its_recipe() -> None:
    recipe = {
        "answer update": {"per_move": 0.5, "shapes": [
            {"rows": 5, "buttons": 5, "selects": 4, "options": 22, "share": 1.0,
             "files": 1.0, "content": 100}]},
        "answer deferred update": {"per_move": 0.5, "shapes": [
            {"rows": 0, "buttons": 0, "selects": 0, "options": 0, "share": 1.0,
             "files": 0.0, "content": 0}]},
        "send dm": {"per_move": 0.5, "shapes": [
            {"rows": 5, "buttons": 5, "selects": 4, "options": 22, "share": 1.0,
             "files": 1.0, "content": 100}]},
        "edit dm": {"per_move": 1.0, "shapes": [
            {"rows": 0, "buttons": 0, "selects": 0, "options": 0, "share": 0.5,
             "files": 0.0, "content": 40},
            {"rows": 5, "buttons": 5, "selects": 4, "options": 22, "share": 0.5,
             "files": 1.0, "content": 100}]},
        "edit channel": {"per_move": 0.5, "shapes": [
            {"rows": 1, "buttons": 4, "selects": 0, "options": 0, "share": 1.0,
             "files": 1.0, "content": 300}]},
        "patch original": {"per_move": 0.25, "shapes": [
            {"rows": 5, "buttons": 5, "selects": 4, "options": 22, "share": 1.0,
             "files": 1.0, "content": 100}]},
        "GET /gateway": {"per_move": 0.1, "shapes": []},
    }
    report = await run_floor(BenchConfig(tables=2, seconds=1.5, think=0.0), recipe)
    moves = report["moves"]
    assert moves >= 8
    assert report["not_reproduced"] == ["GET /gateway"]
    traffic = report["traffic"]
    slack = 2 * 2 + 1  # each table's move in flight at either end of the window
    for kind, entry in recipe.items():
        if kind.startswith("GET"):
            assert kind not in traffic
            continue
        made = traffic[kind]["per_move"] * moves
        assert abs(made - entry["per_move"] * moves) <= slack, kind
    assert abs(report["gateway_per_move"]["INTERACTION_CREATE"] * moves - moves) <= slack
    assert traffic["answer update"]["shapes"][0]["options"] == 22
    assert traffic["edit channel"]["files"] == 1.0  # a changed picture: uploaded each time
    assert report["apply_per_move_ms"] > 0 and report["floor_cpu_per_move_ms"] is not None
    assert report["floor_over_apply"] is not None


def test_command_line_runs_the_floor_with_a_saved_recipe(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[BenchConfig, Any]] = []

    async def fake(config: BenchConfig, recipe: Any = None,
                   reference: Any = None, *, store: bool = False) -> dict[str, Any]:
        assert not store
        seen.append((config, recipe))
        assert reference["apply_per_move_ms"] == 0.1
        return {"floor": True, "tables": config.tables}

    monkeypatch.setattr(bench_floor, "run_floor", fake)
    saved = tmp_path / "report.json"
    saved.write_text(json.dumps({"traffic": {"x": 1}}) + "\n"
                     + json.dumps({"traffic": {"edit dm": {"per_move": 1.0}},
                                 "apply_per_move_ms": 0.1}))
    assert main(["--floor", "--tables", "3", "--pin", "--json",
                 "--floor-recipe", str(saved)]) == 0
    assert '"floor": true' in capsys.readouterr().out
    config, recipe = seen[0]
    assert config.tables == 3 and config.loop_cpus == (0,)
    assert recipe == {"edit dm": {"per_move": 1.0}}  # the last report in the file


def test_layers_by_file() -> None:
    assert layer_of((f"{ROOT}/bot/ui/edits.py", 1, "f")) == "bot"
    assert layer_of((f"{ROOT}/tools/bench.py", 1, "f")) == "bench"
    assert layer_of((f"{ROOT}/engine/game.py", 1, "apply")) == "engine"
    assert layer_of((f"{ROOT}/bot/runtime/offload.py", 1, "run")) == "pickling/worker IO"
    assert layer_of(("/v/site-packages/discord/state.py", 1, "f")) == "discord.py"
    assert layer_of(("/v/site-packages/simcord/env.py", 1, "f")) == "simulated Discord"
    assert layer_of(("/py/lib/asyncio/events.py", 1, "_run")) == "asyncio"
    assert layer_of(("~", 0, "<method 'poll' of 'select.epoll' objects>")) == "idle"
    assert layer_of(("~", 0, "<built-in method _pickle.dumps>")) == "pickling/worker IO"
    assert layer_of(("/py/lib/json/encoder.py", 1, "encode")) is None
    assert layer_of(("~", 0, "<method 'get' of 'dict' objects>")) is None


def test_builtins_are_charged_to_their_callers() -> None:
    bot_f = (f"{ROOT}/bot/ui/edits.py", 1, "edit")
    dpy = ("/v/discord/http.py", 1, "request")
    json_f = ("/py/lib/json/encoder.py", 1, "encode")
    get = ("~", 0, "<method 'get' of 'dict' objects>")
    sim = ("/v/simcord/gateway.py", 1, "feed")
    # stats: func -> (cc, nc, tottime, cumtime, {caller: (cc, nc, tottime, cumtime)})
    stats = {
        bot_f: (1, 1, 1.0, 5.0, {}),
        dpy: (1, 1, 2.0, 4.0, {bot_f: (1, 1, 2.0, 4.0)}),
        json_f: (1, 1, 1.0, 2.0, {dpy: (1, 1, 0.5, 1.0), bot_f: (1, 1, 0.5, 1.0)}),
        get: (3, 3, 1.2, 1.2, {json_f: (1, 1, 0.6, 0.6), sim: (1, 1, 0.6, 0.6)}),
        sim: (1, 1, 3.0, 3.6, {}),
    }
    found = attribute(stats)
    assert found["bot"] == pytest.approx(1.0 + 0.5 + 0.3)
    assert found["discord.py"] == pytest.approx(2.0 + 0.5 + 0.3)
    assert found["simulated Discord"] == pytest.approx(3.0 + 0.6)
    assert sum(found.values()) == pytest.approx(sum(entry[2] for entry in stats.values()))


def test_own_is_split_in_the_profiles_proportions() -> None:
    rows = split_own(Counter({"bot": 3.0, "discord.py": 1.0, "simulated Discord": 50.0}),
                     own_ms=5.0, threads_ms={"tractor-db-write": 0.5}, gc_ms=0.5)
    assert rows["bot"] == 3.0 and rows["discord.py"] == 1.0 and rows["asyncio"] == 0.0
    assert rows["thread tractor-db-write"] == 0.5 and rows["garbage collector"] == 0.5
    assert sum(rows.values()) == pytest.approx(5.0)


def test_attribute_flag_runs_twice_the_second_time_profiled(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[BenchConfig] = []

    async def fake(config: BenchConfig) -> dict[str, Any]:
        seen.append(config)
        report: dict[str, Any] = {
            "moves": 10, "own_cpu_per_move_ms": 5.0, "apply_per_move_ms": 0.1,
            "cpu_s": {"gc": 0.005}, "threads_cpu_s": {"MainThread": 0.04,
                                                      "tractor-db-write": 0.005}}
        if config.profile:
            report["profile_s"] = {"bot": 0.06, "asyncio": 0.02, "simulated Discord": 1.0}
        return report

    monkeypatch.setattr("tools.bench.run_bench", fake)
    monkeypatch.setattr("tools.bench._table", lambda report: iter(()))
    assert main(["--attribute", "--json"]) == 0
    assert [c.profile for c in seen] == [False, True]
    out = json.loads(capsys.readouterr().out)
    rows = out["attribution"]["rows_ms"]
    assert rows["bot"] == 3.0 and rows["asyncio"] == 1.0
    assert rows["thread tractor-db-write"] == 0.5 and rows["garbage collector"] == 0.5
    assert out["attribution"]["profile_over_plain"] == 2.0
    assert any("| bot | 3.000 | 60% | 30.0 |" in line
               for line in bench_attribute.table_lines(out["attribution"]))


@pytest.mark.asyncio
async def test_a_profiled_run_reports_seconds_by_layer(tmp_path: Path) -> None:
    report = await run_bench(BenchConfig(tables=1, seconds=1.5, think=0.0, computer="greedy",
                                         database=str(tmp_path / "bench.sqlite3"),
                                         profile=True))
    layers = report["profile_s"]
    assert report["moves"] > 0
    for layer in ("discord.py", "asyncio", "bot", "engine", "simulated Discord", "bench"):
        assert layers.get(layer, 0) > 0, layer
    assert "traffic" in report and report["gateway_per_move"]["INTERACTION_CREATE"] > 0
    top = report["profile_top"]
    assert set(top) <= set(bench_attribute.LAYERS) and top["bot"]
    assert all(name.split(":")[0].endswith(".py") for name, _ in top["bot"])


def test_a_cycle_of_helpers_is_charged_to_its_callers_from_outside() -> None:
    sim = ("/v/simcord/results.py", 1, "to_message")
    bot_f = (f"{ROOT}/bot/ui/edits.py", 1, "edit")
    deepcopy = ("/py/lib/copy.py", 128, "deepcopy")
    helper = ("/py/lib/copy.py", 227, "_deepcopy_dict")
    stats = {
        sim: (1, 1, 0.1, 3.0, {}),
        bot_f: (1, 1, 0.1, 1.0, {}),
        deepcopy: (9, 2, 2.0, 3.0, {sim: (1, 1, 0.3, 2.0), bot_f: (1, 1, 0.1, 1.0),
                                     helper: (7, 7, 1.6, 1.6)}),
        helper: (7, 7, 1.0, 2.5, {deepcopy: (7, 7, 1.0, 2.5)}),
    }
    found = attribute(stats)
    assert "unattributed" not in found
    assert found["simulated Discord"] == pytest.approx(0.1 + 3.0 * 0.75)
    assert found["bot"] == pytest.approx(0.1 + 3.0 * 0.25)


def test_library_code_is_charged_to_whom_it_runs_for() -> None:
    wrappers = _Meter.wrappers()
    wrapper = (*sorted(wrappers[0])[0], "wrapper")
    feed = ("/v/simcord/gateway.py", 1, "feed")
    history = ("/v/simcord/results.py", 1, "to_discord_message")
    parse = ("/v/discord/state.py", 1, "parse_interaction_create")
    message = ("/v/discord/message.py", 2193, "__init__")
    stats = {
        feed: (1, 1, 0.5, 3.5, {}),
        history: (1, 1, 0.5, 1.5, {}),
        wrapper: (1, 1, 0.1, 3.0, {feed: (1, 1, 0.1, 3.0)}),
        parse: (1, 1, 1.0, 2.9, {wrapper: (1, 1, 1.0, 2.9)}),
        message: (2, 2, 3.0, 3.0, {parse: (1, 1, 2.0, 2.0), history: (1, 1, 1.0, 1.0)}),
    }
    found = attribute(stats, wrappers)
    assert found["discord.py"] == pytest.approx(1.0 + 2.0)  # the parser's, for the bot
    assert found["simulated Discord"] == pytest.approx(0.5 + 0.5 + 1.0)  # the people's
    assert found["bench"] == pytest.approx(0.1)


@pytest.mark.asyncio
async def test_floor_store_writes_each_move_as_the_bot_stores_it() -> None:
    import itertools
    import sqlite3

    from bot.core.table import TableDoc
    from tools.bench_floor import FloorStore, engine_steps

    store = await FloorStore.open()
    path = store.store.path
    try:
        await store.add(1, 10, 20, [30, 31])
        after = None
        for before, action in itertools.islice(engine_steps(3), 40):
            after, _ = before.apply(action)
            await store.commit(1, after)
        assert after is not None and store.saves == 40
        [table] = await store.stored()
        assert table.version == 41 and table.status == "playing"  # one save a move
        assert table.doc["match"] == after.to_dict(rules=False)
        doc = TableDoc.from_dict(table.doc)
        assert [s.user_id for s in doc.seats if s is not None] == [30, 31, None, None]
        assert doc.get_match() == after
        with sqlite3.connect(path) as conn:  # as the bot opens it
            assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        await store.close()
        await store.close()
    assert not Path(path).exists()


@pytest.mark.asyncio
async def test_floor_store_commits_each_move_before_its_calls(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[int, int, int]] = []
    make = bench_floor.FloorBot.make

    async def made(self: Any, table: Any, call: Any) -> None:
        stored, _ = self.store.tables[table.number]
        calls.append((table.number, self.moves_made[table.number], stored.version - 1))
        await make(self, table, call)

    monkeypatch.setattr(bench_floor.FloorBot, "make", made)
    report = await run_floor(BenchConfig(tables=2, seconds=1.5, think=0.0), store=True)
    moves = report["moves"]
    assert moves >= 8
    store = report["store"]
    assert abs(store["saves_per_move"] * moves - moves) <= 2 * 2 + 1
    assert store["doc_bytes"] > 1000 and store["db_thread_ms_per_move"] is not None
    assert {number for number, _, _ in calls} == {1, 2}
    for number, begun, saved in calls:  # each call after its move's own save
        assert saved == begun, (number, begun, saved)
    assert report["left_at_20x_ms"] == pytest.approx(
        20 * report["apply_per_move_ms"] - report["own_cpu_per_move_ms"], abs=0.002)
    lines = list(bench_floor.floor_lines(report))
    assert lines[0].startswith("FLOOR + STORE") and any("store (" in x for x in lines)


def test_command_line_floor_store(capsys: pytest.CaptureFixture[str],
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[bool] = []

    async def fake(config: BenchConfig, recipe: Any = None, reference: Any = None, *,
                   store: bool = False) -> dict[str, Any]:
        seen.append(store)
        return {"floor": True}

    monkeypatch.setattr(bench_floor, "run_floor", fake)
    assert main(["--floor", "--floor-store", "--json"]) == 0
    assert seen == [True]
    with pytest.raises(SystemExit):
        main(["--floor-store"])
    assert "--floor-store goes with --floor" in capsys.readouterr().err
