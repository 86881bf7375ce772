"""One message catalogue: every id in both languages, every key the markup uses exists,
and a walk through every kind of rendered state in Chinese finds no English sentence."""

from __future__ import annotations

import functools
import html
import re
from pathlib import Path

import pytest

from budgetcore.errors import Problem
from budgetcore.messages import CATALOGUE, count, t
from budgetcore.ui.events import (
    CurvesToggled,
    ExampleSamples,
    ExperimentRun,
    ExportFormatChosen,
    Failed,
    FieldTyped,
    FileRefused,
    ImportApplied,
    ImportFileLoaded,
    ImportPreviewed,
    JobStep,
    LinkOpened,
    ModelChosen,
    ModelDataLoaded,
    Noticed,
    PeersUnitChosen,
    PickerTyped,
    Pinned,
    ReplayFieldTyped,
    ReplayLogsLoaded,
    ReplaySourceChosen,
    ReplayToggled,
    ReplayTurnsTyped,
    SamplesTyped,
    SummarySameToggled,
    SweepBoundTyped,
    SweepPathChosen,
    TextRefused,
)
from budgetcore.ui.export.view import render_export
from budgetcore.ui.log_words import ENTRY_KEYS, ENTRY_SUFFIXES
from budgetcore.ui.main.view.nav import nav_html
from budgetcore.ui.main.view.peers import render_peers
from budgetcore.ui.main.view.screen import render, render_curves
from budgetcore.ui.main.view.shell import (
    averages_html,
    background_html,
    controls_html,
    experiment_buttons_html,
    key_readouts_html,
    readouts_html,
    shell_html,
    sweep_options_html,
)
from budgetcore.ui.main.view.types import Screen
from budgetcore.ui.model import PageState
from budgetcore.ui.replay.logs import COPY_KEYS, logs_html
from budgetcore.ui.replay.state import ReplayPanel, with_logs
from budgetcore.ui.replay.view import render_replay, replay_controls_html
from budgetcore.ui.update import initial_state, reduce
from tests.helpers import LOG_FIXTURES

ROOT = Path(__file__).resolve().parent.parent
#: Words that stay in Latin letters in Chinese: the article's own terms and formats.
LATIN_OK = {
    "tokens",
    "token",
    "loader",
    "engine",
    "bson",
    "json",
    "utf",
    "toml",
    "unicode",
    "litellm",
    "mib",
    "kib",
    "gib",
    "max",
    "min",
    "ceil",
    "floor",
    "true",
    "false",
    "null",
    "channel",
    "read",
    "query",
    "text",
    "lang",
    "schema",
    "recall",
    "sweep",
    "yes",
    "config",
    "limits",
    "workload",
    "clamp",  # a formula's function, like max and min
    "enter",  # keys: "Enter 选择, Esc 关闭"
    # What the page runs on, named as in the boot texts: product names, not English.
    "pyscript",
    "pyodide",
    "javascript",
    "webassembly",
    "esc",
    # The peers' own variables, quoted in their rules (token > limit, maxOut, reserved,
    # a model profile, the condenser): names from their source, as the article cites them.
    "limit",
    "reserved",
    "profile",
    "condenser",
    "budgetcore",  # the product's name, in the export's comments
    "python",  # the runtime's name (正在加载 Python 运行时)
    "agent",  # the article's term: Agent 系统
    "lines",  # the format's name: JSON Lines
    "sha",  # sha256, the export's digest
    "spec",  # "spec §15": UI text cites the spec by that word
    "claude",  # the two log formats' products: Claude Code, Codex CLI
    "code",
    "codex",
    "cli",
    # Model families a peer runs (gemini-*, gemma-*: Gemini CLI; "gemini" is also a
    # LiteLLM provider's name): names, the same in both languages.
    "gemma",
    # The product a peer's rule belongs to, in its "runs" sentence ("Anthropic API 的功能:
    # 只用于 claude-* 模型"), now under the replay timeline too: a name, like Claude Code.
    "anthropic",
    "api",
    # The cache rules' provider, as its company writes it ("按 OpenAI 的规则预测"): a name.
    "openai",
}
# ids whose two texts are the same on purpose (symbols, formats, numbers only)
SAME_OK = re.compile(
    r"^(seg|series|key)\.|^(unit\.tokens|unit\.fraction|axis\.tokens|phrase\.col-delta|phrase\.tokens|problem\.core)$"
)


def test_every_id_has_both_languages() -> None:
    for key, pair in CATALOGUE.items():
        assert isinstance(pair, tuple)
        assert len(pair) == 2, key
        en, zh = pair
        if key not in ("unit.fraction", "msg.sentence-gap"):  # blank by design
            assert en.strip(), key
            assert zh.strip(), key
        words = re.sub(r"\{\w+\}", "", en)
    if en == zh and not SAME_OK.search(key) and re.search(r"[a-z]{4}", words):
        pytest.fail(f"{key} is not translated: {en!r}")


def test_parameters_match_in_both_languages() -> None:
    names = re.compile(r"\{(\w+)\}")
    for key, (en, zh) in CATALOGUE.items():
        assert set(names.findall(en)) == set(names.findall(zh)), key


def test_every_data_i18n_key_of_the_markup_is_in_the_catalogue() -> None:
    markup = (ROOT / "web" / "index.html").read_text() + "".join(
        (controls_html(), background_html(), readouts_html(), key_readouts_html(), averages_html())
    )
    keys = set(re.findall(r'data-i18n="([^"]+)"', markup))
    assert keys
    missing = sorted(k for k in keys if k not in CATALOGUE)
    assert not missing, missing


def _visible(markup: str) -> str:
    # An inline span and a line-break point (ui.markup.breaks) add no space: a path's
    # "rollout-" and ".jsonl" are parts of its name, not words.
    markup = re.sub(r"<wbr>|</?span\b[^>]*>", "", markup)
    markup = re.sub(r"<code>.*?</code>", " ", markup, flags=re.S)
    markup = re.sub(r"<title>.*?</title>", " ", markup, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", markup))


def _data_removed(text: str) -> str:
    """Without what is data, not words: JSON paths and keys (``config.trigger_tokens``),
    quoted input echoed back, and an exception's type name."""
    text = re.sub(r'"[^"]*"', " ", text)
    # Identifiers quoted from code and registries: paths, snake_case and camelCase
    # names, hyphenated model and file names (gpt-5, contextbuilder-tutorial.zh.txt).
    text = re.sub(r"\S*[/_]\S*", " ", text)
    text = re.sub(r"\b[a-z]+[A-Z]\w*", " ", text)
    text = re.sub(r"[A-Za-z0-9]+(?:[-.][A-Za-z0-9]+)*-[A-Za-z0-9.]+", " ", text)
    text = re.sub(r"[A-Za-z_]+(?:\.[A-Za-z_\[\]0-9]+)+", " ", text)
    text = re.sub(r"\w+=\w+", " ", text)  # link syntax: path=value
    text = re.sub(r"\b[0-9a-f]{64}\b", " ", text)  # the export's sha256 digest

    return re.sub(r"\b\w+Error\b", " ", text)


def _texts(screen: Screen) -> list[str]:
    out = [_visible(m) for m in screen.html.values()]
    out += list(screen.text.values())
    out += [f.message for f in screen.fields.values()]
    out += [f.valuetext for f in screen.fields.values()]
    out += [text for text, _ in screen.readouts.values()]
    out += [f"{a} {d}" for a, d, _ in screen.ab_cells.values()]
    return out


@functools.cache
def _model_data() -> ModelDataLoaded:
    from budgetcore.registry.models import default_registry  # noqa: PLC0415
    from budgetcore.registry.peers import default_peers  # noqa: PLC0415

    return ModelDataLoaded(default_registry(), default_peers())


def _names_removed(text: str) -> str:
    """Without the peers' and the registry's providers' names: proper nouns, the same in
    both languages."""
    data = _model_data()
    for peer in sorted(data.peers, key=lambda p: -len(p.name)):
        text = text.replace(peer.name, " ")
    providers = "|".join(sorted(data.registry.providers, key=len, reverse=True))
    return re.sub(rf"\b(?:{providers})\b", " ", text)


def _states() -> list[tuple[str, PageState]]:
    zh = initial_state(lang="zh", lang_chosen=True)
    r = reduce
    out = [("default", zh)]
    loaded = r(zh, _model_data())
    out.append(("models loaded", loaded))
    out.append(("peers in percent", r(loaded, PeersUnitChosen("percent"))))
    out.append(("model chosen", r(loaded, ModelChosen("main_model", "claude-sonnet-4-5"))))
    out.append(("picker typed", r(loaded, PickerTyped("main_model", "gpt"))))
    out.append(("curves open", r(zh, CurvesToggled(True))))
    replay = r(zh, ReplayToggled(True))
    out.append(("replay open", replay))
    out.append(
        (
            "replay pasted turns",
            r(
                r(replay, ReplaySourceChosen("turns")),
                ReplayTurnsTyped('{"added": 3000}\n{"added": 90000}\naddd\n'),
            ),
        )
    )
    out.append(("replay paste refused", r(replay, TextRefused("page-turns", 9_000_000))))
    out.append(("paste refused", r(zh, TextRefused("config", 9_000_000))))
    out.append(("samples refused", r(zh, TextRefused("samples", 9_000_000))))
    out.append(("file refused with size", r(zh, FileRefused("config", "big.toml", 9_000_000))))
    out.append(
        (
            "export json",
            r(r(zh, FieldTyped("config.trigger_tokens", "40000")), ExportFormatChosen("json")),
        )
    )
    out.append(("export toml", r(zh, FieldTyped("config.summary_max_tokens", "16384"))))
    for path in (
        "config.trigger_tokens",
        "config.safety_margin",
        "workload.backlog_tokens",
        "main_model.input_tokens",
        "samples.tokens_per_message",
    ):
        out.append((f"bad {path}", r(zh, FieldTyped(path, "8k"))))
    out.append(("cross-key", r(zh, FieldTyped("limits.raw_records_read", "100"))))
    out.append(("cross-key 2", r(zh, FieldTyped("limits.lease_s", "60"))))
    links = (
        "#config.trigger_tokens=8k&nonsense=1&limits.lease_s=60&lang=zh"
        "&samples.bson=1:2,x&config.summary_max_tokens&workload.required_tokens=1e1000"
    )
    out.append(("link", r(zh, LinkOpened(links, "zh"))))
    out.append(("import bad toml", r(zh, ImportPreviewed("x = = 1", "replace"))))
    out.append(("import bad json", r(zh, ImportPreviewed('{"config": ', "replace"))))
    out.append(
        (
            "import bad values",
            r(
                zh,
                ImportPreviewed(
                    '[config]\ntrigger_tokens = "32k"\nwork_cap = 1\n'
                    "[main_model]\ninput_tokens = 5\n"
                    "[workload]\nrequired_tokens = 1\n[limits]\nmodel_timeout_s = 100\nnope = 3\n",
                    "replace",
                ),
            ),
        )
    )
    preview = r(zh, ImportPreviewed("[config]\nsummary_max_tokens = 100000\n", "replace"))
    out.append(("import preview", preview))
    out.append(("import applied", r(preview, ImportApplied())))
    out.append(("import empty merge", r(zh, ImportPreviewed("", "merge"))))
    out.append(("import empty replace", r(zh, ImportPreviewed("", "replace"))))
    out.append(("import not utf8", r(zh, ImportFileLoaded(b"[config]\n\xff", "replace"))))
    lines = '{"channel": "x"}\nnot json\n{"channel": "bson", "tokens": 0, "bytes": 1, "z": 2}\n[1]'
    out.append(("samples bad", r(zh, SamplesTyped(lines))))
    out.append(("samples example", r(zh, ExampleSamples())))
    for key in ("lower_k", "lower_s", "raise_i", "f_above_m"):
        out.append((f"experiment {key}", r(zh, ExperimentRun(key))))
    own = r(r(zh, SummarySameToggled(False)), FieldTyped("summary_model.output_tokens", "4096"))
    out.append(("experiment fails", r(own, ExperimentRun("lower_s"))))
    pinned = r(r(zh, Pinned()), FieldTyped("config.summary_max_tokens", "16384"))
    out.append(("pinned", pinned))
    for notice in ("msg.copied", "msg.link-copied", "msg.pinned"):
        out.append((notice, r(zh, Noticed(notice))))
    out.append(("pin stale", r(r(zh, FieldTyped("config.trigger_tokens", "x")), Pinned())))
    out.append(("failed", r(zh, Failed("KeyError: 'x'"))))
    out.append(("file too large", r(zh, FileRefused("config", "huge.toml"))))
    replay = r(zh, ReplayToggled(True))
    log = r(r(replay, ReplaySourceChosen("log")), FileRefused("page-log", "huge.jsonl"))
    out.append(("log too large", log))
    out.append(("field too large", r(zh, FieldTyped("config.trigger_tokens", "1" * 2_000))))
    out.append(("seed too large", r(replay, ReplayFieldTyped("replay.seed", "9" * 40))))
    turns = r(replay, ReplaySourceChosen("turns"))
    out.append(("turns without a turn", r(turns, ReplayTurnsTyped("[1]\n{\n"))))
    sweep = r(zh, SweepPathChosen("config.trigger_tokens"))
    out.append(("sweep bad", r(sweep, SweepBoundTyped("low", "8k"))))
    out.append(("sweep order", r(sweep, SweepBoundTyped("low", "99999999"))))
    # The replay of real logs: the ledger, the measured usage and cost, subagent series,
    # malformed lines, a fork, a model switch, a folder of sessions; then the clock on.
    source = r(replay, ReplaySourceChosen("log"))
    for kind, name in (
        ("claude", "05-subagents-dir-2.1"),
        ("claude", "11-api-error-synthetic"),
        ("claude", "12-compact-preserved-2.1"),
        ("claude", "15-skipped-lines"),
        ("codex", "fork"),
        ("codex", "model-switch"),
        ("codex", "totals-only"),
        ("codex", "compaction"),
        ("codex", "spaced-json"),
        ("claude", "25-proxy-model-names"),
    ):
        base = LOG_FIXTURES / kind / name
        files = tuple(
            (p.relative_to(base).as_posix(), p.read_bytes())
            for p in sorted(base.rglob("*"))
            if p.is_file()
        )
        out.append((f"log {kind} {name}", r(source, ReplayLogsLoaded(files))))
    timed = r(r(replay, ReplayFieldTyped("replay.timing", "true")), JobStep("replay"))
    out.append(("timing on", timed))
    out.append(("timing bad", r(timed, ReplayFieldTyped("replay.fixed_s", "-3"))))
    out.append(("timing gap order", r(timed, ReplayFieldTyped("replay.gap_low", "90,000"))))
    return out


@pytest.mark.parametrize(
    ("name", "state"), _states(), ids=lambda x: x if isinstance(x, str) else ""
)
def test_every_rendered_state_is_chinese(name: str, state: PageState) -> None:
    texts = _texts(render(state))
    body, diff = render_export(state)
    texts.append(_visible(diff))
    # The file's comments (TOML) and its note (JSON); keys and values are data.
    texts += [line for line in body.splitlines() if line.startswith("#")]
    texts += re.findall(r'"note": "([^"]*)"', body)
    if not state.stale:
        swept = reduce(reduce(state, CurvesToggled(True)), JobStep("sweep"))
        texts.append(_visible(render_curves(swept)))
    texts.append(_visible(render_peers(state)))
    if state.replay.open:
        replay = render_replay(reduce(state, JobStep("replay")))
        texts += [_visible(m) for m in replay.html.values()]
        texts += list(replay.text.values())
        texts += list(replay.field_messages.values())
        texts.append(replay.scrub[2])
    texts += [_visible(experiment_buttons_html("zh")), _visible(sweep_options_html("zh"))]
    texts.append(_visible(nav_html("zh")))
    texts = [_log_data_removed(text, state) for text in texts]
    english = _english(texts)
    assert not english, f"{name}: untranslated words {sorted(english)} in {texts}"


def _log_data_removed(text: str, state: PageState) -> str:
    """Without what an imported log itself names (data, the same in every language):
    its entries' type names, its series' ids, its compactions' triggers."""
    names: set[str] = set()
    for item in state.replay.logs:
        if item.log is None:
            continue
        for f in item.log.ledger:
            # The reader's own labels are words to translate, not the log's data.
            names.update(_data_of(k) for k, _ in f.entries if k not in ENTRY_KEYS)
        names.update(s.name for s in item.log.series if s.name != "main")
        names.update(c.trigger for s in item.log.series for c in s.compactions if c.trigger)
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    return text


def _data_of(kind: str) -> str:
    """An entry's data: the log's own type name, without the words a reader put after
    it (translated, so they stay in the text the walk reads)."""
    for suffix in ENTRY_SUFFIXES:
        if kind.endswith(suffix):
            return kind[: -len(suffix)]
    return kind


def _english(texts: list[str]) -> set[str]:
    english = set()
    for text in texts:
        for word in re.findall(r"[A-Za-z]{3,}", _data_removed(_names_removed(text))):
            if word.lower() not in LATIN_OK:
                english.add(word)
    return english


def test_every_static_text_of_the_page_is_chinese() -> None:
    """What the shell retexts (data-i18n, data-i18n-aria) in the page, its start-up
    markup and the replay's form: the title, the navigation, every label."""
    markup = (ROOT / "web" / "index.html").read_text() + "".join(
        (*shell_html().values(), replay_controls_html())
    )
    keys = set(re.findall(r'data-i18n(?:-aria)?="([^"]+)"', markup))
    assert {"nav.page-title", "nav.menu", "nav.plan", "static.title"} <= keys
    texts = {key: t(key, "zh") for key in keys}
    english = {key: sorted(_english([text])) for key, text in texts.items() if _english([text])}
    assert not english, english


def test_static_texts_switch_language() -> None:
    assert t("static.title", "zh") != t("static.title", "en")


# ------------------------------------------------------------------ problem lines

#: One problem line, in every panel: where (a field's label with its path, "line N",
#: "line N · key", or a key as written, in quotes), then what is wrong.
_WHERE = r'(?:line \d+(?: · [^ ]+)?|[^"(]+ \([a-z_.]+\)|"[^"]*"|Turns|Log file)'


def _problem_lines(lang: str) -> list[str]:
    from budgetcore.ui.replay import view as RV  # noqa: PLC0415

    state = initial_state(lang=lang)
    state = reduce(
        state,
        SamplesTyped(
            '{"channel": "bson", "tokens": -1, "bytes": 3}\n'
            '{"channel": "zz", "tokens": 1, "bytes": 3}\n'
            '{"channel": "text", "tokens": 1, "bytes": 3, "x": 1}'
        ),
    )
    lines = _items(render(state).html["sample-errors"])
    previewed = reduce(state, ImportPreviewed("[config]\nfoo = 1\n", "replace"))
    lines += _items(render(previewed).html["import-result"])
    replay = reduce(reduce(state, ReplayToggled(True)), ReplaySourceChosen("turns"))
    replay = reduce(replay, ReplayTurnsTyped('{"added": 5, "addd": 3}\n{"added": -1}'))
    errors = RV.render_replay(reduce(replay, JobStep("replay"))).html["replay-errors"]
    return lines + _items(errors)


def _items(markup: str) -> list[str]:
    return [html.unescape(x) for x in re.findall(r"<li>(.*?)</li>", markup)]


@pytest.mark.parametrize("lang", ["en"])
def test_every_panel_writes_its_problem_lines_in_one_format(lang: str) -> None:
    # The walk: "line 2 · tokens must…" beside "line 3: the channel must…", and
    # '"line 5: addd": is not a turn field' in the replay.
    lines = _problem_lines(lang)
    assert len(lines) == 7, lines
    for line in lines:
        assert re.fullmatch(_WHERE + r" (?:must|is|appears|needs|has) .+", line), line
    assert 'line 2 · channel must be one of text, bson, json, read, query; got "zz"' in lines


def test_every_entry_kind_a_reader_writes_itself_is_in_the_catalogue() -> None:
    """The ledger's own words for entries (not the log's type names) in both languages:
    each label the readers write in English has its catalogue key."""
    root = Path(__file__).resolve().parents[1] / "budgetcore" / "replay" / "logs"
    # Every reader (the walk of December 2026 found Gemini's, pi's, Amp's ... in English
    # on the Chinese page), less what the pattern finds that is no label: SQL, regular
    # expressions, problems' rules (their own catalogue), a sentence's parenthesis.
    source = "".join(p.read_text() for p in sorted(root.glob("*.py")))
    written = set(re.findall(r'"((?:[\w/<>][\w/<> ]* )?\([^"()]+\))"', source))
    not_labels = {
        w
        for w in written
        if w.startswith(("(0|", "([", "CREATE ", "INSERT ", "DELETE ", "Lines (", "is ", "({off"))
        or w == "(how they split is unknown)"
    }
    written -= not_labels
    assert len(written) >= 24, written
    labels = set(ENTRY_KEYS) | set(COPY_KEYS)
    assert written <= labels, written - labels
    for key in (*ENTRY_KEYS.values(), *COPY_KEYS.values()):
        assert t(key, "zh") != t(key, "en")
    # And the words a reader appends to a record's own name (second walk of December
    # 2026: Cline's "say/api_req_started (no tokens yet)" stayed English in Chinese).
    appended = set(re.findall(r'f"\{\w+\}( \([^"(){}]+\))"', source))
    assert {" (no tokens yet)", " (no token usage)", " (zero usage)"} <= appended
    assert appended <= set(ENTRY_SUFFIXES), appended - set(ENTRY_SUFFIXES)
    for suffix, key in ENTRY_SUFFIXES.items():
        assert t(key, "en", kind="x") == "x" + suffix
        assert suffix.strip() not in t(key, "zh", kind="x")
    # A whole document counted as one entry: the reader's word "document" (Cline's
    # "ui_messages document" stayed English in Chinese, the same walk).
    documents = set(re.findall(r'entry\("([^"]* document|document [^"]*)"\)', source))
    assert {"session document", "ui_messages document"} <= documents
    assert documents <= set(ENTRY_KEYS), documents - set(ENTRY_KEYS)


@pytest.mark.parametrize(
    "folder", ["cline/v3", "kimi/subagent", "pi/v1-linear"], ids=["cline", "kimi", "pi"]
)
def test_a_ledger_entry_the_reader_annotates_is_said_in_chinese(folder: str) -> None:
    from tests.helpers import folder_files  # noqa: PLC0415

    base = Path(__file__).resolve().parent / "fixtures" / "logs" / folder
    state = reduce(initial_state(), ReplaySourceChosen("log"))
    state = reduce(state, ReplayLogsLoaded(folder_files(base)))
    page = html.unescape(str(logs_html(state.replay, "zh", wide=True)))
    kinds = [k for x in state.replay.logs if x.log for f in x.log.ledger for k, _ in f.entries]
    annotated = [k for k in kinds if k.endswith(tuple(ENTRY_SUFFIXES))]
    assert annotated, kinds
    for kind in annotated:
        data = _data_of(kind)
        assert data in page
        assert kind[len(data) :].strip() not in page, kind


def test_a_chinese_message_spaces_a_latin_value_from_the_chinese_after_it() -> None:
    """Every Chinese message where {field} or {where} meets Chinese text: one space
    after a field path ("info.last_token_usage.input_tokens必须是" ran together), none
    after a Chinese label ("第 3 行 不是", "轮次 没有"), whatever the message wrote."""
    import string  # noqa: PLC0415

    from budgetcore.messages import CATALOGUE  # noqa: PLC0415

    seen = 0
    for key, (_, zh) in CATALOGUE.items():
        names = {n for _, n, _, _ in string.Formatter().parse(zh) if n}
        for name in ("field", "where"):
            at = zh.find("{" + name + "}")
            after = zh[at + len(name) + 2 :].lstrip(" ")
            if at < 0 or not after or not re.match(r"[\u4e00-\u9fff]", after):
                continue
            seen += 1
            params = {n: "x" for n in names}
            latin = t(key, "zh", **{**params, name: "info.input_tokens"})
            assert "info.input_tokens " + after[0] in latin, key
            chinese = t(key, "zh", **{**params, name: "第 3 行"})
            assert "第 3 行" + after[0] in chinese, key
    assert seen > 30


def test_no_space_goes_before_chinese_punctuation() -> None:
    """After a value that ends in Latin text the spacing rule adds a space before a
    Chinese character, never before "。" or "、" ("$0.1275 。", "32,000 、S" were seen)."""
    from budgetcore.messages import CATALOGUE  # noqa: PLC0415

    found = 0
    for key, (_, zh) in CATALOGUE.items():
        for name in re.findall(r"\{(\w+)\}[。、,:;)]", zh):
            names = set(re.findall(r"\{(\w+)\}", zh))
            text = t(key, "zh", **{n: "x1" for n in names})
            assert not re.search(r"x1 [。、,:;)]", text), (key, text)
            found += 1 if name else 0
    assert found > 20


def test_a_count_of_one_never_reads_as_a_plural() -> None:
    """Issue 42: the Tune legend read "(1 points no other beats on both)". A counted
    phrase is a plural rule (``count``) or puts the number after a colon."""
    from budgetcore.messages import t  # noqa: PLC0415

    shown = t("tune.mark.frontier", "en", n="1")
    assert "1 points" not in shown
    assert shown.endswith(": 1)")


def test_a_totals_only_reason_is_the_readers_english_and_has_its_chinese() -> None:
    """Walk of December 2026: the Chinese page said "无回测:此会话只保存每个会话的总量(Goose
    records each session's token totals, not its requests)". Each totals-only reader's
    reason has its catalogue line, whose English is the reader's (and the CLI's)."""
    from budgetcore.replay.logs import cline, copilot, droid, goose  # noqa: PLC0415

    readers = {"droid": droid, "goose": goose, "copilot-cli": copilot, "cline": cline}
    for fmt, module in readers.items():
        key = f"replay.log.totals-why.{fmt}"
        assert t(key, "en") == module.TOTALS_WHY
        zh = t(key, "zh").replace("token", "").replace("events.jsonl", "")
        assert not re.findall(r"\b[a-z]{3,}", zh), key
    logs = Path(__file__).resolve().parent / "fixtures" / "logs"
    for folder in (
        logs / "goose" / "totals",
        logs / "droid" / "totals",
        logs / "copilot" / "events",
    ):
        files = tuple(
            (p.relative_to(folder).as_posix(), p.read_bytes())
            for p in sorted(folder.rglob("*"))
            if p.is_file()
        )
        panel = with_logs(ReplayPanel(), files)
        assert any(x.log is not None and x.log.totals_only for x in panel.logs), folder
        page = html.unescape(str(logs_html(panel, "zh", wide=True)))
        assert "records" not in page, folder
        assert "keeps no usage" not in page, folder


def test_each_runtime_rule_is_its_profiles_and_the_chinese_page_shows_it_in_chinese() -> None:
    """Walk of December 2026: the Chinese backtest read "该运行时的规则: T >= K, K = E −
    13,000 with E = W' − min(O, 20,000), W' = min(window setting, W); with the
    percentage: ...". Each profile's rule has its catalogue line, whose English is the
    profile's own."""
    from budgetcore.runtimes.profiles import PROFILES  # noqa: PLC0415

    prose = re.compile(r"\b(with|when|else|for|by|default|unless|off|no|every|checked)\b")
    for name, profile in PROFILES.items():
        assert t(f"runtime-rule.{name}", "en") == profile.rule, name
        if prose.search(profile.rule):  # a bare formula reads the same in both
            assert t(f"runtime-rule.{name}", "zh") != profile.rule, name
    folder = Path(__file__).resolve().parent / "fixtures" / "logs" / "claude"
    base = folder / "12-compact-preserved-2.1"
    files = tuple(
        (p.relative_to(base).as_posix(), p.read_bytes())
        for p in sorted(base.rglob("*"))
        if p.is_file()
    )
    panel = with_logs(ReplayPanel(), files)
    zh = html.unescape(str(logs_html(panel, "zh", wide=True)))
    assert t("runtime-rule.claude-code", "zh") in zh
    assert "window setting" not in zh
    en = html.unescape(str(logs_html(panel, "en", wide=True)))
    assert PROFILES["claude-code"].rule in en


def test_every_copy_kind_a_reader_folds_is_in_the_catalogue() -> None:
    """The ledger's "copies folded" line in both languages (third walk of December 2026:
    Copilot's "inference log covered by a higher source" and Kimi's "a subagent's
    step, ..." stayed English on the Chinese page): every kind a reader passes to
    ``Tally.duplicate`` has its catalogue key."""
    from budgetcore.replay.logs.copilot import _SOURCE_NAMES  # noqa: PLC0415

    root = ROOT / "budgetcore" / "replay" / "logs"
    source = "".join(p.read_text() for p in sorted(root.glob("*.py")))
    literal = set(re.findall(r'\.duplicate\(\s*"([^"]+)"\s*\)', source))
    assert len(literal) >= 4, literal
    # Copilot's one formatted kind, for each of its four sources.
    assert 'duplicate(f"{_SOURCE_NAMES[source]} covered by a higher source")' in source
    formatted = {f"{name} covered by a higher source" for name in _SOURCE_NAMES}
    assert len(re.findall(r'\.duplicate\(\s*f"', source)) == 1
    kinds = literal | formatted
    assert kinds <= set(COPY_KEYS), kinds - set(COPY_KEYS)
    for kind in kinds:
        assert t(COPY_KEYS[kind], "en") == kind
        assert t(COPY_KEYS[kind], "zh") != kind


@pytest.mark.parametrize(
    "folder", ["copilot/otel", "kimi/subagent", "cline/v4"], ids=["copilot", "kimi", "cline"]
)
def test_a_ledger_line_of_copies_and_messages_is_said_in_chinese(folder: str) -> None:
    from tests.helpers import folder_files  # noqa: PLC0415

    base = ROOT / "tests" / "fixtures" / "logs" / folder
    state = reduce(initial_state(), ReplaySourceChosen("log"))
    state = reduce(state, ReplayLogsLoaded(folder_files(base)))
    page = html.unescape(str(logs_html(state.replay, "zh", wide=True)))
    ledger = [f for x in state.replay.logs if x.log for f in x.log.ledger]
    dups = [k for f in ledger for k, _ in f.duplicates]
    messages = [k for f in ledger for k, _ in f.entries if k.endswith(" message")]
    assert dups or messages, folder
    for kind in dups:
        assert kind not in page, kind
    for kind in messages:  # "user message": the role is the log's, "message" the reader's
        assert kind not in page, kind
        assert kind.removesuffix(" message") in page, kind


def test_an_unknown_read_time_runs_on_in_chinese() -> None:
    """Third walk of December 2026 (390 ZH, samples panel): "读取耗时 未知" set a space
    between two Chinese words, where its sentence's other unknowns ran on ("记录数未知").
    A known time keeps the space before its digits (the catalogue's rule)."""
    from budgetcore.ui.main.view.samples import samples_html  # noqa: PLC0415

    p = initial_state(lang="zh").plan
    text = _visible(samples_html(p, p.as_dict(), "zh"))
    assert "读取耗时未知。" in text, text
    assert "读取耗时 未知" not in text
    english = _visible(samples_html(p, p.as_dict(), "en"))
    assert "read time unknown." in english
    known = reduce(
        initial_state(lang="zh"),
        SamplesTyped(
            '{"channel": "bson", "tokens": 100, "bytes": 400}\n'
            '{"channel": "read", "bytes": 4000, "ms": 10}'
        ),
    ).plan
    text = _visible(samples_html(known, known.as_dict(), "zh"))
    assert re.search(r"读取耗时 [\d,]+ – [\d,]+ 毫秒。", text), text


@pytest.mark.parametrize(
    ("agent", "folder"),
    [
        ("amp", "amp/unbilled-message"),
        ("copilot-cli", "copilot/otel"),
        ("droid", "droid/custom-model"),
    ],
)
def test_an_agent_without_a_profile_says_why_in_chinese(agent: str, folder: str) -> None:
    """Third walk of December 2026 (1440 ZH): Amp's and Copilot CLI's backtest read "该运行
    时的规则: no runtime profile for Copilot CLI: no trigger predicted (no user-facing
    threshold; ...)". The agents without a profile (asrun.NO_PROFILE) have their
    catalogue line as the profiles do, its English the backtest's own."""
    from budgetcore.replay.asrun import NO_PROFILE  # noqa: PLC0415

    assert agent in NO_PROFILE
    _title, rule = NO_PROFILE[agent]
    assert t(f"runtime-rule.{agent}", "en") == rule
    assert t(f"runtime-rule.{agent}", "zh") != rule
    from tests.helpers import folder_files  # noqa: PLC0415

    panel = with_logs(ReplayPanel(), folder_files(LOG_FIXTURES / folder))
    zh = html.unescape(str(logs_html(panel, "zh", wide=True)))
    if "data-replay-totals-only" in zh:  # no backtest, so no rule to say (Droid's totals)
        assert rule not in zh
        return
    assert t(f"runtime-rule.{agent}", "zh") in zh
    assert "no runtime profile" not in zh
    en = html.unescape(str(logs_html(panel, "en", wide=True)))
    assert rule in en


def test_every_runtime_s_file_is_named_in_chinese() -> None:
    """Third walk of December 2026 (1440 ZH, Export with a runtime picked): the panel's
    intro, import label and note named the file in English inside Chinese sentences:
    "写入 ~/.claude/settings.json (env block) or shell export lines", "Cline extension
    state (no file)", "Messages API request body (fragment)", "shell profile (export
    lines)". A path or a call stays as it is (data); the words around it are said."""
    from budgetcore.registry.models import default_registry  # noqa: PLC0415
    from budgetcore.registry.peers import default_peers  # noqa: PLC0415
    from budgetcore.runtimes.profiles import PROFILES  # noqa: PLC0415
    from budgetcore.ui.events import ExportRuntimeChosen  # noqa: PLC0415
    from budgetcore.ui.export.runtime import runtime_export_html  # noqa: PLC0415
    from budgetcore.ui.export.view import config_texts  # noqa: PLC0415

    base = reduce(initial_state(lang="zh"), ModelDataLoaded(default_registry(), default_peers()))
    base = reduce(base, ModelChosen("main_model", "claude-sonnet-4-5"))
    base = reduce(base, FieldTyped("config.trigger_tokens", "170000"))  # in every reach
    calls = re.compile(r"(?:Python: )?\w+\([^)]*\)|~?[\w./-]+\.(?:json|toml|yaml)\b")
    for name in PROFILES:
        if name == "article":
            continue
        texts = [text for _key, text in config_texts(name, "zh").values()]
        state = reduce(base, ExportRuntimeChosen(name))
        _body, html_text = runtime_export_html(state)
        note = re.search(
            r'<p class="note-small">(.*?)<code data-runtime-conversion', str(html_text)
        )
        if note is not None:
            texts.append(_visible(note.group(1)))
        # Proper nouns, the same in both languages: the runtime, Anthropic's Messages API.
        nouns = (PROFILES[name].title, "Messages API")
        for noun in nouns:
            texts = [text.replace(noun, " ") for text in texts]
        english = _english([calls.sub(" ", text) for text in texts])
        assert not english, (name, sorted(english), texts)


def test_no_message_hedges_a_plural() -> None:
    """Third walk of December 2026 (1440 EN, a Gemini CLI folder): "no usable request in
    this Gemini CLI file: 2 line(s) read". As "1 points" (issue 42): a counted phrase is
    a plural rule (``count``) or puts the number after a colon, never "(s)"."""
    hedged = {key for key, (en, _zh) in CATALOGUE.items() if re.search(r"\w\(s\)", en)}
    assert not hedged, sorted(hedged)


@pytest.mark.parametrize(
    ("fixture", "said"),
    [
        ("claude/28-asrun-2.0", "2.1.21 之前"),  # an old Claude Code's 32,000 reserve
        ("codex/pricing-models", "O 未知"),  # a model the registry does not know
    ],
)
def test_a_variant_trigger_rule_is_said_in_chinese(fixture: str, said: str) -> None:
    """The walk: an old Claude Code's reserve and an unknown O were written in English
    by the backtest and shown so on the Chinese page. They are catalogue sentences now;
    their English is the backtest's, word for word (the JSON's trigger_rule)."""
    from budgetcore.replay.asrun import as_run  # noqa: PLC0415
    from budgetcore.replay.logs import read_session  # noqa: PLC0415
    from budgetcore.ui.replay.backtest import _rule_text  # noqa: PLC0415

    def backtest(path: Path) -> object:
        with path.open("rb") as handle:
            return as_run(read_session([(path.name, handle)], None))

    found = [backtest(p) for p in sorted((LOG_FIXTURES / fixture).rglob("*.jsonl"))]
    a = next(b for b in found if b.trigger_rule_parts)  # type: ignore[attr-defined]
    assert _rule_text(a, "en") == a.trigger_rule
    zh = _rule_text(a, "zh")
    assert said in zh
    assert "reserved up to" not in zh
    assert "unknown" not in zh
    # Its source's prose too (the third walk: "来源:changelog 2.1.21; the 45,000-token
    # autocompact buffer of 2.0.x's /context"); the citations stay as written.
    assert "autocompact buffer" not in zh


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_limits_verdict_never_says_an_unknown_limit_leaves_room(lang: str) -> None:
    """The fourth walk (1440, samples panel, no samples): five of the six limits read
    "unknown" in the table, and the line under it said "Nothing bites: all uncovered
    history fits within every limit." An unknown limit may bite; the verdict says that
    every known one leaves room and how many are unknown, in the singular for one. With
    every limit known it says every limit."""
    from budgetcore.ui.main.view.samples import samples_html  # noqa: PLC0415

    def verdict(state: PageState) -> str:
        p = state.plan
        text = str(samples_html(p, p.as_dict(), lang))
        found = re.search(r'<p class="verdict" data-verdict="history">([^<]*)</p>', text)
        assert found is not None, text
        return html.unescape(found.group(1))

    every = t("phrase.nothing-bites", lang)
    state = initial_state(lang=lang)
    assert sum(not r.known for r in state.plan.io.rows) == 5
    assert verdict(state) == count("phrase.nothing-known-bites", 5, lang)
    assert verdict(state) != every
    samples = (
        '{"channel": "bson", "tokens": 100, "bytes": 400}\n'
        '{"channel": "read", "bytes": 4000, "ms": 10}'
    )
    state = reduce(state, SamplesTyped(samples))
    state = reduce(state, FieldTyped("samples.tokens_per_message", "100"))
    assert verdict(state) == count("phrase.nothing-known-bites", 1, lang)
    state = reduce(state, FieldTyped("samples.messages_per_session", "50"))
    assert all(r.known for r in state.plan.io.rows)
    assert verdict(state) == every
    if lang == "en":
        assert verdict(initial_state(lang=lang)) == (
            "No known limit bites: all uncovered history fits within every known limit; "
            "5 limits are unknown until their samples are given."
        )


def test_a_droid_transcript_s_entries_are_said_in_chinese() -> None:
    """The tenth walk (1440 px, Chinese, a Droid folder): the ledger of a transcript
    beside its settings file read "transcript 消息 2、transcript session_start 1", the
    reader's word "transcript" left in English; the line's own type stays as written."""
    from tests.helpers import folder_files  # noqa: PLC0415

    base = Path(__file__).resolve().parent / "fixtures" / "logs" / "droid" / "totals"
    state = reduce(initial_state(), ReplaySourceChosen("log"))
    state = reduce(state, ReplayLogsLoaded(folder_files(base)))
    while state.importing is not None:
        state = reduce(state, JobStep("import"))
    kinds = [k for x in state.replay.logs if x.log for f in x.log.ledger for k, _ in f.entries]
    assert "transcript session_start" in kinds
    page = html.unescape(str(logs_html(state.replay, "zh", wide=True)))
    assert "对话记录中的 session_start" in page
    assert "transcript" not in page
    english = html.unescape(str(logs_html(state.replay, "en", wide=True)))
    assert "transcript session_start" in english


def test_a_file_without_a_request_lists_its_entries_in_chinese() -> None:
    """The tenth walk (390 and 1440 px, Chinese, a pi folder with one torn session):
    its row read "非请求条目:message/user 2, message/assistant (zero usage) 1, …",
    the reader's "(zero usage)" and the English list separator on the Chinese page.
    Each kind is said as the ledger says it; the log's type names stay."""
    from tests.helpers import folder_files  # noqa: PLC0415

    base = Path(__file__).resolve().parent / "fixtures" / "logs" / "pi" / "v1-linear"
    ((name, data),) = folder_files(base)
    torn = (name.replace("33333333-", "deadbeef-"), data[: len(data) // 2])
    state = reduce(initial_state(), ReplaySourceChosen("log"))
    state = reduce(state, ReplayLogsLoaded(((name, data), torn)))
    while state.importing is not None:
        state = reduce(state, JobStep("import"))
    (bad,) = [x for x in state.replay.logs if x.log is None]
    entries = dict(bad.error[0].params)["entries"]
    assert "message/assistant (zero usage) 1" in entries
    zh = html.unescape(str(logs_html(state.replay, "zh", wide=True)))
    assert "message/assistant 条目(用量为零) 1、" in zh
    assert "(zero usage)" not in zh
    en = html.unescape(str(logs_html(state.replay, "en", wide=True)))
    assert entries in en


def test_a_file_without_a_request_says_its_entries_from_data_not_from_the_english() -> None:
    """The page said a no-request file's kinds of entry by splitting the reader's
    English list back at ", " and the last space: a record type of the log's own that
    holds ", " (any text an agent writes) broke the split, and the whole list stayed in
    English on the Chinese page ("(zero usage)" among it). The problem carries the kinds
    and counts as data; each is said from them, the log's type name as written."""
    pi = (
        b'{"type":"session","id":"33333333-3333-4333-8333-333333333333",'
        b'"timestamp":"2025-11-20T23:33:00.000Z","cwd":"/p"}\n'
        b'{"type":"message","timestamp":"2025-11-20T23:33:02.000Z","message":'
        b'{"role":"assistant","content":[],"provider":"anthropic","model":"claude-sonnet-4-5",'
        b'"usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0}}}\n'
        b'{"type":"note, kept 2","timestamp":"2025-11-20T23:33:03.000Z"}\n'
    )
    name = "sessions/--p--/2025-11-20T23-33-00-000Z_33333333-3333-4333-8333-333333333333.jsonl"
    state = reduce(initial_state(), ReplaySourceChosen("log"))
    state = reduce(state, ReplayLogsLoaded(((name, pi),)))
    while state.importing is not None:
        state = reduce(state, JobStep("import"))
    (bad,) = [x for x in state.replay.logs if x.log is None]
    (problem,) = [p for p in bad.error if p.code == "log-no-requests"]
    assert dict(problem.counts) == {
        "session": 1,
        "message/assistant (zero usage)": 1,
        "note, kept 2": 1,
    }
    zh = html.unescape(str(logs_html(state.replay, "zh", wide=True)))
    assert "message/assistant 条目(用量为零) 1" in zh
    assert "note, kept 2 1" in zh
    assert "(zero usage)" not in zh


def test_what_a_file_that_looks_like_an_agent_s_lacks_is_said_in_chinese() -> None:
    """The tenth walk (390 px, Chinese, a folder with one damaged file of each kind): a
    Gemini CLI chat without its messages read "日志文件看起来是 Gemini CLI 文件,但has no
    messages list". Every agent's ``missing`` has its sentence in both languages, the
    English one the reader's own."""
    from budgetcore.replay.logs.agents import AGENTS  # noqa: PLC0415
    from budgetcore.ui.problems import problem_sentence  # noqa: PLC0415

    for a in AGENTS:
        if a.missing:
            # A catalogue key, said by the one rule for such parameters in both languages
            # (the CLI's English too), never the reader's English matched back.
            assert a.missing == f"replay.log.missing.{a.key}"
            p = Problem.coded("log", "log-looks-like", agent=a.name, missing=a.missing)
            assert t(a.missing, "en") in str(p)
            assert t(a.missing, "zh") in problem_sentence(p, "zh")
            assert t(a.missing, "en") in problem_sentence(p, "en")
    chat = b'{"sessionId": "abc", "projectHash": "x", "startTime": "2025-01-01T00:00:00Z"}\n'
    state = reduce(initial_state(), ReplaySourceChosen("log"))
    state = reduce(state, ReplayLogsLoaded((("session-2025-01-01T00-00-abcdabcd.json", chat),)))
    while state.importing is not None:
        state = reduce(state, JobStep("import"))
    assert state.replay.logs[0].error[0].code == "log-looks-like"
    zh = html.unescape(str(logs_html(state.replay, "zh", wide=True)))
    assert "看起来是 Gemini CLI 文件,但没有 messages 列表" in zh
    assert "has no" not in zh
    en = html.unescape(str(logs_html(state.replay, "en", wide=True)))
    assert "looks like a file of Gemini CLI but has no messages list" in en


def test_a_list_inside_a_chinese_sentence_is_joined_with_the_chinese_separator() -> None:
    """Lists inside Chinese sentences (the agents we read, the file endings a folder's
    sessions have, a field's choices) were joined with ", " as in English: a problem's
    list parameter is data (``Problem.lists``), said with the language's separator
    (``messages.said_list``: "、" and no space), the English as before."""
    from budgetcore.errors import ScenarioError  # noqa: PLC0415
    from budgetcore.replay.logs import read_session  # noqa: PLC0415
    from budgetcore.runtimes import profile  # noqa: PLC0415
    from budgetcore.ui.problems import problem_text  # noqa: PLC0415

    with pytest.raises(ScenarioError) as caught:
        read_session([("x.json", b'{"a": 1}')])
    (unknown,) = caught.value.problems
    assert "(Codex CLI, pi, Gemini CLI," in str(unknown)
    zh = problem_text(unknown, "zh")
    assert "(Codex CLI、pi、Gemini CLI、" in zh
    assert ", " not in zh
    with pytest.raises(ScenarioError) as caught:
        profile("no-such-runtime")
    (choice,) = caught.value.problems
    assert ", " in str(choice)
    assert "、" in problem_text(choice, "zh")
    assert ", " not in problem_text(choice, "zh").split("收到")[0]
    files = problem_text(
        Problem.coded("log", "folder-no-jsonl", folder="f", others=((".db", ("A", "B")),)),
        "zh",
    )
    assert ".db(A、B)" in files
