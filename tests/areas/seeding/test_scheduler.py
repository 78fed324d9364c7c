"""The simulated scheduler: ids, pool, FIFO, rows, estimate, kill, failures, drain, cache.

Numbers are worked by hand from the model in ``docs/seeding.md``: rate 10 metatiles/s, so
a task takes metatile n at ``start + 100 n`` ms; ``test:world`` zoom 0-3 on EPSG:4326 is
12 metatiles, tilesTotal 178, 170 tiles stored.
"""

from __future__ import annotations

import pytest

from geoserver_emulator.areas.seeding.model import FailureRule


def rows(emu, layer=None):
    return emu.scheduler.status(layer)


def test_ids_are_sequential_and_threads_make_tasks(gwc, seed):
    assert seed(thread_count=3) == [1, 2, 3]
    assert seed(thread_count=0) == [4]
    assert seed(thread_count=-5) == [5]
    assert seed(type="truncate", thread_count=4) == [6]
    assert seed(type="truncate", thread_count=4, one_truncate_task=False) == [7, 8, 9, 10]


def test_one_task_runs_to_the_end(gwc, seed):
    seed()
    assert rows(gwc) == [[-1, 178, -1, 1, 1]]  # started, no metatile done yet
    gwc.clock.advance(0.35)  # metatiles 1-3 done at 100, 200, 300 ms
    assert rows(gwc) == [[32, 178, 0, 1, 1]]  # counts lag one metatile; 0 s spent → 0
    gwc.clock.advance(0.85)  # 12th done at 1200 ms, the next take finds nothing
    assert rows(gwc) == [[176, 178, 0, 1, 2]]  # listed once as done...
    assert rows(gwc) == []  # ...then dropped
    assert gwc.scheduler.cached_tiles("test:world") == 170


def test_threads_share_the_metatiles(gwc, seed):
    seed(thread_count=2)
    gwc.clock.advance(0.6)  # both take at 0..500 ms: 12 metatiles; at 600 both find none
    assert rows(gwc) == [[80, 178, 0, 1, 2], [80, 178, 0, 2, 2]]


def test_estimate_of_a_running_task(gwc, seed):
    seed(zoom_stop=8)  # 5482 metatiles: long enough
    gwc.clock.advance(12.34)
    # 123 metatiles done; the 123rd at 12.3 s: 12 s spent, 122*16 tiles done
    total = rows(gwc)[0][1]
    expected = round(12 * total / (122 * 16)) - 12
    assert rows(gwc) == [[122 * 16, total, expected, 1, 1]]


def test_a_slow_first_metatile_gives_the_infinity_quirk(gwc, seed):
    gwc.state.seeding.settings.rates["test:world"] = 0.5  # 2 s per metatile
    seed(zoom_stop=5)
    gwc.clock.advance(2.5)
    assert rows(gwc)[0][0] == 0 and rows(gwc)[0][2] == -1 - 2


def test_pool_of_16_then_fifo(gwc, seed):
    ids = [seed()[0] for _ in range(18)]
    assert ids == list(range(1, 19))
    listed = rows(gwc)
    assert [r[4] for r in listed] == [1] * 16 + [0, 0]
    assert listed[16] == [-1, -1, -2, 17, 0]
    gwc.clock.advance(1.2)  # the 16 first end at 1200 ms; 17 and 18 start then
    assert [(r[3], r[4]) for r in rows(gwc)] == [(i, 2) for i in range(1, 17)] + [(17, 1), (18, 1)]
    assert rows(gwc) == [[-1, 178, -1, 17, 1], [-1, 178, -1, 18, 1]]


def test_pool_size_is_configurable(gwc, seed):
    gwc.state.seeding.settings.pool_size = 2
    seed(thread_count=3)
    assert [r[4] for r in rows(gwc)] == [1, 1, 0]


def test_truncate_row_and_effect(gwc, seed):
    seed()
    gwc.scheduler.drain()
    assert gwc.scheduler.cached_tiles("test:world") == 170
    seed(type="truncate", zoom_start=3, zoom_stop=3)
    assert rows(gwc) == [[176, 178, 0, 1, 2], [-1, -1, -2, 2, 1]]
    gwc.clock.advance(1)  # a truncate takes one simulated second by default
    assert rows(gwc) == [[-1, -1, -2, 2, 2]]
    assert gwc.scheduler.cached_tiles("test:world") == 170 - 128
    assert gwc.scheduler.cached_tiles("test:world", zoom=3) == 0
    seed(type="reseed")
    gwc.scheduler.drain()
    assert gwc.scheduler.cached_tiles("test:world") == 170


def test_cache_keys_by_gridset_format_and_parameters(gwc, seed):
    seed(format="image/jpeg", parameters=[("STYLES", "pophatch")])
    seed(gridset_id="EPSG:900913", zoom_stop=1)
    gwc.scheduler.drain()
    sched = gwc.scheduler
    assert sched.cached_tiles("test:world", format="image/jpeg") == 170
    assert sched.cached_tiles("test:world", parameters={"STYLES": "pophatch"}) == 170
    assert sched.cached_tiles("test:world", gridset="EPSG:900913") == 1 + 4
    assert sched.cached_tiles("test:world", format="image/png", gridset="EPSG:4326") == 0
    # truncating another format leaves these alone
    seed(type="truncate", format="image/png")
    gwc.scheduler.drain()
    assert sched.cached_tiles("test:world") == 175


def test_partial_progress_is_cached_as_it_goes(gwc, seed):
    seed()
    gwc.clock.advance(0.2)  # metatiles 1 (z0: 2 tiles) and 2 (z1: 8 tiles) done
    assert gwc.scheduler.cached_tiles("test:world") == 10


def test_kill_running_lets_the_metatile_in_hand_finish(gwc, seed):
    seed(zoom_stop=5)
    gwc.clock.advance(0.25)  # 2 done, the 3rd in hand
    report = gwc.scheduler.kill_all("1")
    assert report.code == "running" and report.terminated == ["[1: test:world, SEED, RUNNING]"]
    assert rows(gwc) == []
    assert [t.state for t in gwc.scheduler.tasks] == ["RUNNING"]
    gwc.clock.advance(0.05)  # the 3rd completes at 300 ms, the task takes a 4th and stops
    assert [t.state for t in gwc.scheduler.tasks] == ["DONE"]
    assert gwc.scheduler.cached_tiles("test:world") == 2 + 8 + 16  # z0, z1, half of z2


def test_kill_pending_and_the_ghost_takes_one_metatile(gwc, seed):
    gwc.state.seeding.settings.pool_size = 2
    seed(zoom_stop=0)  # task 1: one metatile, ends at 100 ms
    seed(thread_count=2)  # tasks 2 (runs) and 3 (pending)
    report = gwc.scheduler.kill_all("pending")
    assert report.terminated == ["[3: test:world, SEED, READY]"]
    assert [r[3] for r in rows(gwc)] == [1, 2]
    gwc.scheduler.drain()
    # task 3 started at 100 ms when task 1 ended, took one metatile and returned:
    # task 2 did the other 11
    assert rows(gwc) == [[0, 6, 0, 1, 2], [160, 178, 0, 2, 2]]


def test_a_ghost_starting_before_its_sibling_s_next_take_gets_the_metatile(gwc, seed):
    gwc.state.seeding.settings.pool_size = 2
    seed(type="truncate")  # task 1 holds a thread until 1000 ms
    gwc.clock.advance(0.901)
    seed(zoom_stop=1, thread_count=2)  # two metatiles: task 2 takes the first at 901 ms
    gwc.scheduler.kill_all("pending")  # task 3
    gwc.scheduler.drain()
    # task 3 starts at 1000 ms and takes the second; task 2 completes the first at 1001 ms
    # and finds nothing left: one metatile completed, shown as 0 tiles done
    assert [(t.id, t.state) for t in gwc.scheduler.tasks][1:] == [(2, "DONE"), (3, "DONE")]
    assert rows(gwc) == [[-1, -1, -2, 1, 2], [0, 18, 0, 2, 2]]
    assert gwc.scheduler.cached_tiles("test:world") == 2  # zoom 0 only


def test_a_ghost_with_an_unknown_format_never_renders_so_never_crashes(gwc, seed):
    gwc.state.seeding.settings.pool_size = 1
    seed(zoom_stop=0)
    seed(format="image/nope", thread_count=2)  # tasks 2 and 3, pending
    gwc.scheduler.kill_task(3)
    gwc.scheduler.drain()
    # task 2 crashes at its first metatile (stays RUNNING); task 3 takes one and returns
    assert [(t.id, t.state) for t in gwc.scheduler.tasks] == [
        (1, "DONE"), (2, "RUNNING"), (3, "DONE"),
    ]  # fmt: skip


def test_kill_all_per_layer_and_bad_code(gwc, seed):
    seed()
    seed(layer="topp:states", zoom_stop=8)
    report = gwc.scheduler.kill_all("ALL", "topp:states")
    assert report.code == "ALL" and report.terminated == ["[2: topp:states, SEED, RUNNING]"]
    assert [r[3] for r in rows(gwc)] == [1]
    with pytest.raises(
        Exception, match="Unknown kill_all code: 'some'. One of all|running|pending"
    ):
        gwc.scheduler.kill_all("some")


def test_kill_all_first_drops_finished_tasks(gwc, seed):
    seed(zoom_stop=0)
    gwc.clock.advance(1)
    assert gwc.scheduler.kill_all("all").terminated == []
    assert rows(gwc) == []  # the finished task went with the kill request's drain


def test_failure_injection_aborts(gwc, seed):
    gwc.state.seeding.settings.failures["test:world"] = FailureRule(after_tiles=32)
    seed()
    gwc.clock.advance(1)
    # two metatiles (32 tiles) done; the third fails when it would complete, at 300 ms
    assert rows(gwc) == [[16, 178, 0, 1, -1]]
    assert gwc.scheduler.cached_tiles("test:world") == 2 + 8


def test_failure_injection_can_crash_instead(gwc, seed):
    gwc.state.seeding.settings.failures["test:world"] = FailureRule(after_tiles=0, status="crashed")
    seed()
    gwc.clock.advance(1)
    assert rows(gwc) == [[-1, 178, -1, 1, 1]] and rows(gwc) == []


def test_failing_truncate(gwc, seed):
    gwc.state.seeding.settings.failures["test:world"] = FailureRule(truncate=True)
    seed()
    gwc.scheduler.drain()
    seed(type="truncate")
    gwc.scheduler.drain()
    assert rows(gwc)[-1] == [-1, -1, -2, 2, -1]
    assert gwc.scheduler.cached_tiles("test:world") == 170


@pytest.mark.parametrize(
    ("fields", "row"),
    [
        ({"zoom_stop": 25}, [-1, -1, -2, 1, 1]),  # level outside the gridset
        ({"zoom_start": 3, "zoom_stop": 1}, [-1, 0, -2, 1, 1]),  # zoomStart > zoomStop
        ({"format": "image/nope"}, [-1, 178, -1, 1, 1]),  # a format GWC does not know
    ],
)
def test_requests_gwc_accepts_but_cannot_run(gwc, seed, fields, row):
    seed(**fields)
    assert rows(gwc) == [row]
    assert rows(gwc) == []


def test_drain_finishes_everything_without_moving_the_clock(gwc, seed):
    for _ in range(20):
        seed(thread_count=2)
    gwc.scheduler.drain()
    assert gwc.clock.now() == 0
    assert {r[4] for r in rows(gwc)} == {2}
    assert rows(gwc) == []


def test_more_than_50_dispatches_drain_the_pool(gwc, seed):
    seed(zoom_stop=0)  # dispatch 1
    gwc.clock.advance(1)  # task 1 done but not listed yet
    for _ in range(49):
        seed(type="truncate")
    assert 1 in [t.id for t in gwc.scheduler.tasks]
    seed(type="truncate")  # the 51st dispatch since the last drain drains
    assert 1 not in [t.id for t in gwc.scheduler.tasks]


def test_reading_changes_no_progress(gwc, seed):
    seed(zoom_stop=6)
    gwc.clock.advance(0.55)
    first = [t.row for t in gwc.scheduler.tasks]
    for _ in range(3):
        assert [t.row for t in gwc.scheduler.tasks] == first
        rows(gwc)
    assert [t.row for t in gwc.scheduler.tasks] == first


def test_reset_forgets_tasks_and_restarts_ids(seeding_scenario):
    from geoserver_emulator import Emulator
    from geoserver_emulator.areas.seeding.request import SeedRequest

    emu = Emulator(seeding_scenario)
    req = SeedRequest(gridset_id="EPSG:4326", zoom_start=0, zoom_stop=3, thread_count=2)
    assert emu.scheduler.submit("test:world", req) == [1, 2]
    emu.clock.advance(0.3)
    emu.reset()
    assert emu.scheduler.tasks == [] and emu.scheduler.cached_tiles("test:world") == 0
    assert emu.scheduler.submit("test:world", req) == [1, 2]


def test_identical_runs_print_identical_rows(seeding_scenario):
    from geoserver_emulator import Emulator
    from geoserver_emulator.areas.seeding.request import SeedRequest

    def run():
        emu = Emulator(seeding_scenario)
        out = []
        for i in range(5):
            req = SeedRequest(srs=900913, zoom_start=0, zoom_stop=9, thread_count=i + 1)
            emu.scheduler.submit("topp:states", req)
            emu.clock.advance(0.7 * i)
            out.append(emu.scheduler.status())
        emu.scheduler.kill_all("pending")
        emu.clock.advance(30)
        out.append(emu.scheduler.status())
        return out

    assert run() == run()


def test_the_catalog_gives_bounds_and_id(gwc):
    store = gwc.state.seeding
    layer = store.add_default_tile_layer(
        "sf:roads", bounds=(-103.87, 44.37, -103.62, 44.5), id="L-1"
    )
    assert store.add_default_tile_layer("sf:roads") is layer
    assert layer.bounds == (-103.87, 44.37, -103.62, 44.5) and layer.id == "L-1"
    store.rename_tile_layer("sf:roads", "sf:streets")
    assert store.tile_layers["sf:streets"].name == "sf:streets"
    store.remove_tile_layer("sf:streets")
    assert "sf:streets" not in store.tile_layers


def test_removing_or_renaming_a_layer_moves_its_cache(gwc, seed):
    seed()
    gwc.scheduler.drain()
    gwc.state.seeding.rename_tile_layer("test:world", "test:earth")
    assert gwc.scheduler.cached_tiles("test:earth") == 170
    assert gwc.scheduler.cached_tiles("test:world") == 0
    gwc.state.seeding.remove_tile_layer("test:earth")
    assert gwc.scheduler.cached_tiles("test:earth") == 0
