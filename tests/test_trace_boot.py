"""scripts/trace_boot.py's reading of a Chrome trace, on a hand-made one: the page's
renderer and navigation chosen, tasks before the first paint, under the threshold or
nested in another left out, each task's marks, events and profiler samples named."""

from __future__ import annotations

from typing import Any

from tests.helpers import script_module


def _trace_boot() -> Any:
    return script_module("trace_boot")


def _x(name: str, ts: int, dur: int, pid: int = 2, **args: Any) -> dict[str, Any]:
    return {"name": name, "ph": "X", "pid": pid, "tid": pid, "ts": ts, "dur": dur, "args": args}


def _i(name: str, ts: int, pid: int = 2) -> dict[str, Any]:
    return {"name": name, "ph": "I", "pid": pid, "tid": pid, "ts": ts, "args": {}}


EVENTS = [
    # Another renderer (about:blank's): its long task is not the page's.
    _i("navigationStart", 5_000, pid=1),
    _x("RunTask", 900_000, 400_000, pid=1),
    # The page's renderer: about:blank's navigation first, then the page's at 10 ms.
    _i("navigationStart", 1_000),
    _i("navigationStart", 10_000),
    _x("RunTask", 110_000, 200_000),  # before the first paint: not counted
    _i("firstContentfulPaint", 310_000),
    _x("RunTask", 1_010_000, 150_000),
    _x("RunTask", 1_020_000, 120_000),  # inside the one above: one task
    _x("wasm.CompileLazy", 1_030_000, 10_000),
    _x("wasm.CompileLazy", 1_050_000, 30_000),
    _x("FunctionCall", 1_090_000, 50_000, data={"functionName": "receiveInstance"}),
    _i("budgetcore:restored", 1_100_000),
    _x("RunTask", 1_300_000, 60_000),  # under 100 ms
    _i("budgetcore:ready", 1_500_000),
    _x("RunTask", 1_600_000, 120_000),
    {"name": "Profile", "ph": "P", "pid": 2, "tid": 3, "args": {"data": {"startTime": 1_000_000}}},
    {
        "name": "ProfileChunk",
        "ph": "P",
        "pid": 2,
        "tid": 3,
        "args": {
            "data": {
                "cpuProfile": {
                    "nodes": [
                        {"id": 1, "callFrame": {"functionName": "(root)"}},
                        {
                            "id": 2,
                            "parent": 1,
                            "callFrame": {
                                "functionName": "restoreSnapshot",
                                "url": "http://x/assets/pyodide.asm-page.js",
                            },
                        },
                    ],
                    "samples": [2, 2, 1],
                },
                "timeDeltas": [20_000, 10_000, 500_000],
            }
        },
    },
]


def test_the_page_s_tasks_after_the_first_paint_are_named() -> None:
    lines = _trace_boot().report(EVENTS, 100)
    assert lines == [
        "first contentful paint 300 ms; ready 1490 ms",
        "  task at 1000 ms, 150 ms (before ready); marks ['restored'];"
        " FunctionCall receiveInstance 50 ms, wasm.CompileLazy 40 ms (2x)",
        "    2 samples; own: restoreSnapshot pyodide.asm-page.js 2",
        "    under: ",
        "  task at 1590 ms, 120 ms (after ready); marks []; ",
    ]


def test_a_lower_threshold_names_the_shorter_task_too() -> None:
    lines = _trace_boot().report(EVENTS, 50)
    assert "  task at 1290 ms, 60 ms (before ready); marks []; " in lines


def _req(name: str, ts: int, rid: str, **data: Any) -> dict[str, Any]:
    return {
        "name": name,
        "ph": "I",
        "pid": 2,
        "tid": 2,
        "ts": ts,
        "args": {"data": {"requestId": rid, **data}},
    }


FIRST_FRAME = [
    _i("navigationStart", 1_000),
    _i("navigationStart", 10_000),
    _req("ResourceSendRequest", 12_000, "1", url="http://h/", priority="VeryHigh"),
    _req("ResourceReceiveResponse", 20_000, "1"),
    _req("ResourceFinish", 30_000, "1"),
    _req("ResourceSendRequest", 40_000, "2", url="http://h/assets/style.css", priority="VeryHigh"),
    _req("ResourceFinish", 50_000, "2"),
    _x("ParseHTML", 31_000, 8_000),
    _x("EvaluateScript", 52_000, 3_000),
    _x("Layout", 53_000, 1_000, beginData={"totalObjects": 7}),  # inside the script
    _x("UpdateLayoutTree", 56_000, 6_000),
    _x("Layout", 62_000, 30_000, beginData={"totalObjects": 1284}),
    _x("Paint", 93_000, 3_000),
    {"name": "RasterTask", "ph": "X", "pid": 2, "tid": 9, "ts": 97_000, "dur": 20_000},
    {"name": "RasterTask", "ph": "X", "pid": 2, "tid": 9, "ts": 80_000, "dur": 5_000},
    _i("firstContentfulPaint", 140_000),
    _req("ResourceSendRequest", 150_000, "3", url="http://h/late.wasm"),  # after: left out
    _x("Layout", 160_000, 9_000, beginData={"totalObjects": 9}),  # after: left out
]


def test_the_first_frame_is_read_from_navigation_start_to_the_first_paint() -> None:
    lines = _trace_boot().first_frame(FIRST_FRAME)
    assert lines[0] == "first contentful paint 130 ms"
    assert lines[1] == "  request (document) [VeryHigh]: sent 2, response 10 finished 20"
    assert lines[2] == "  request style.css [VeryHigh]: sent 30, response - finished 40"
    assert "late.wasm" not in "\n".join(lines)
    assert "  layout at 52, 30.0 ms (1284 boxes)" in lines
    assert lines[-1] == (
        "  main thread before it: parse 8.0 ms, script 3.0 ms, style 6.0 ms, layout 30.0 ms,"
        " paint 3.0 ms; boxes laid out 1284 in 1 layouts; raster after the last paint 20.0 ms"
    )
