"""The shell's patches (``ui.runner``'s ``diff``, run in Node) and their oracle: markup
parsed by the standard library's HTML parser into the nodes a patch addresses (elements
and text runs, each in document order), and a patch applied to them as the runner
applies it. A patch is right when the old markup's nodes, patched, are the new
markup's."""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from budgetcore.ui.runner import RUNNER

__all__ = ["NODE", "Nodes", "apply_patch", "js_diffs", "nodes_of"]

NODE = shutil.which("node")

_DIFFS = """
const fs = require("fs");
const { diff } = new Function(fs.readFileSync(process.argv[1], "utf8"))();
const pairs = JSON.parse(fs.readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(pairs.map(([old, now]) => diff(old, now))));
"""


def run_runner(script: str, payload: object) -> Any:
    """``script`` run by Node with the shell's runner file as its argument and
    ``payload`` as JSON on its standard input: what it writes, decoded."""
    assert NODE is not None
    with tempfile.TemporaryDirectory() as tmp:
        runner = Path(tmp) / "runner.js"
        runner.write_text(RUNNER, encoding="utf-8")
        done = subprocess.run(
            [NODE, "-e", script, str(runner)],
            input=json.dumps(payload),
            capture_output=True,
            text=True,
            check=True,
        )
    return json.loads(done.stdout)


def js_diffs(pairs: list[tuple[str, str]]) -> list[list[object] | None]:
    """``diff(old, new)`` of the shell's runner for each pair, in one Node process."""
    found: list[list[object] | None] = run_runner(_DIFFS, pairs)
    return found


_VOID = frozenset({"input", "br", "hr", "img", "meta", "link", "col", "wbr"})


@dataclass
class Nodes:
    """Elements as [tag, parent element (-1 the region), attributes]; text runs as
    [parent element, text]; both in document order."""

    elements: list[list[object]] = field(default_factory=list)
    texts: list[list[object]] = field(default_factory=list)


class _Parser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.nodes = Nodes()
        self.open: list[int] = []
        self.last_was_text = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        parent = self.open[-1] if self.open else -1
        self.nodes.elements.append([tag, parent, {k: v or "" for k, v in attrs}])
        if tag not in _VOID:
            self.open.append(len(self.nodes.elements) - 1)
        self.last_was_text = False

    def handle_endtag(self, tag: str) -> None:
        assert self.open, f"</{tag}> closes nothing"
        assert self.nodes.elements[self.open[-1]][0] == tag, f"</{tag}> closes another"
        self.open.pop()
        self.last_was_text = False

    def handle_data(self, data: str) -> None:
        if self.last_was_text:  # one run, however the parser hands it over
            self.nodes.texts[-1][1] = str(self.nodes.texts[-1][1]) + data
            return
        self.nodes.texts.append([self.open[-1] if self.open else -1, data])
        self.last_was_text = True


def nodes_of(markup: str) -> Nodes:
    parser = _Parser()
    parser.feed(markup)
    parser.close()
    assert not parser.open, "an element left open"
    return parser.nodes


def apply_patch(nodes: Nodes, found: list[object], markup: str) -> Nodes:
    """``found`` (``diff``'s counts and changes) on a copy of ``nodes``, as the runner
    applies it: ``markup`` whole when the counts differ."""
    elements, texts, changes = found
    if len(nodes.elements) != elements or len(nodes.texts) != texts:
        return nodes_of(markup)
    out = Nodes(
        [[tag, parent, dict(attrs)] for tag, parent, attrs in nodes.elements],  # type: ignore[call-overload]
        [list(t) for t in nodes.texts],
    )
    flat = list(changes)  # type: ignore[call-overload]
    for i in range(0, len(flat), 4):
        kind, at, name, text = flat[i : i + 4]
        # The oracle's parser reads attribute names in lower case; the browser's keeps an
        # SVG attribute's case (viewBox) in its parser and in setAttribute alike, so the
        # runner's name as written is the same attribute (a chart's height moved it).
        name = str(name).lower()
        if kind == 1:
            out.texts[at][1] = text
        elif text is None:
            del out.elements[at][2][name]
        else:
            out.elements[at][2][name] = text
    return out
