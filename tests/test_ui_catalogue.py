"""The catalogue's areas: one home per message, merged into the one CATALOGUE."""

from __future__ import annotations

from importlib import import_module
from pathlib import Path

import pytest

from budgetcore import messages as catalogue
from budgetcore.messages import AREAS, CATALOGUE, merge, t


def test_every_area_module_is_listed_and_every_listed_area_exists() -> None:
    here = Path(catalogue.__file__).parent
    modules = {p.stem for p in here.glob("*.py") if p.stem != "__init__"}
    assert modules == set(AREAS)


def test_the_catalogue_is_the_merge_of_its_areas() -> None:
    parts = [import_module(f"budgetcore.messages.{a}").MESSAGES for a in AREAS]
    assert sum(len(p) for p in parts) == len(CATALOGUE)
    for part in parts:
        assert part, "an empty area"
        assert all(CATALOGUE[k] == v for k, v in part.items())


def test_a_key_defined_in_two_areas_is_an_error() -> None:
    with pytest.raises(ValueError, match=r"'msg\.yes' is defined in both area 'a' and area 'b'"):
        merge([("a", {"msg.yes": ("yes", "是")}), ("b", {"msg.yes": ("yes", "是")})])
    assert merge([("a", {"x": ("1", "一")}), ("b", {"y": ("2", "二")})]) == {
        "x": ("1", "一"),
        "y": ("2", "二"),
    }


def test_a_core_code_has_no_dot_so_the_one_renderer_can_tell_the_two_kinds_apart() -> None:
    """budgetcore.ui.problems renders a code with a dot as a whole catalogue key (a page
    field's problem: a core rule said of the field by its label, or a page-only rule)
    and any other as ``core.<code>``."""
    from budgetcore.errors import Problem  # noqa: PLC0415
    from budgetcore.ui.problems import problem_text  # noqa: PLC0415

    assert [k for k in CATALOGUE if k.startswith("core.") and "." in k[5:]] == []
    page = Problem.page("core.bool", (("got", '"x"', False),), ("replay.cache",))
    assert page.paths == ("replay.cache",)
    assert page.rule == Problem.of("replay.cache", "x", "bool").rule == "must be true or false"
    for lang in ("en", "zh"):
        label = t("label.replay.cache", lang)
        assert problem_text(page, lang) == t("core.bool", lang, where=label, got='"x"')


#: The page-only problems (issue 38, review §2.4 "the problem sentence"): rules the core
#: does not have. Every other rule the page says is a core rule's one sentence
#: (``core.*``, said of a field by its label), so this list may only shrink: a new
#: ``problem.*`` entry restating a core rule fails here.
PAGE_ONLY = {
    "problem.sweep-order",  # the curves' sweep: no CLI flag or file has one
    "problem.internal",  # the page's own failure, no input's rule
    "problem.log-totals-only",  # the CLI's sentence names its --usage flag
    "problem.log-same-name",  # files of one name in the file box: the CLI reads paths
}


def test_no_page_problem_restates_a_core_rule() -> None:
    assert {k for k in CATALOGUE if k.startswith("problem.")} <= PAGE_ONLY
    # A page problem's sentence is no core sentence under another key.
    core = {
        en.replace("{where}", "{field}")
        for k, (en, _) in CATALOGUE.items()
        if k.startswith("core.")
    }
    assert [k for k in PAGE_ONLY if CATALOGUE[k][0] in core] == []


def test_every_page_field_problem_is_a_core_rule_or_page_only() -> None:
    """Every ``Problem.page`` call in the package names a ``core.*`` key (its rule's one
    sentence) or a page-only key: read from the source, so a new site is checked."""
    import ast  # noqa: PLC0415
    from pathlib import Path  # noqa: PLC0415

    package = Path(__file__).resolve().parent.parent / "budgetcore"
    codes: list[str] = []
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "page"
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "Problem"
            ):
                arg = node.args[0]
            # tune/constraints.py's helper: _problem(field, code, params)
            elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "_problem":
                arg = node.args[1]
            else:
                continue
            options = [arg.body, arg.orelse] if isinstance(arg, ast.IfExp) else [arg]
            codes += [o.value for o in options if isinstance(o, ast.Constant)]
    # A scan that found nothing would pass: the form's, the replay panel's, the
    # cross-key rules' and the Tune constraints' sites are all seen.
    assert {"core.whole-unit", "core.at-least", "core.less-than", "core.ratio-or-off"} <= set(codes)
    bad = [
        c for c in codes if c not in PAGE_ONLY and not (c.startswith("core.") and c in CATALOGUE)
    ]
    assert bad == []


#: One Chinese word per idea, as the page's own labels say it: the runtime picker
#: (运行时), the model picker (模型注册表), the form's headings (主模型合同).
ZH_TERMS = {"运行端": "运行时", "登记": "注册表", "契约": "合同"}


def test_the_chinese_page_names_each_idea_one_way() -> None:
    """Walk of December 2026 (390, ZH): the export panel's heading said 运行端 under a
    picker labelled 运行时, 模型登记 beside the 模型注册表 of the model picker, and the
    export's header 模型契约 for the form's 模型合同: three words a reader takes for
    three things."""
    stray = {key: zh for key, (_en, zh) in CATALOGUE.items() for other in ZH_TERMS if other in zh}
    assert stray == {}


#: Texts no field takes whole (a field of each kind refuses some of them).
_BAD_TEXTS = ("x", "-1", "1.5", "2", "0", "", "1" * 5_000, "off")


def test_every_field_s_refusal_is_its_core_rule_said_of_its_label_in_both_languages() -> None:
    """A page field's problem is a core rule's sentence with every placeholder filled
    (the page's sites build their parameters by hand: a missing one would be a
    KeyError on the page, not a problem line), said of the field by its label."""
    from budgetcore.ui.form import FIELDS, IssueError, parse_text  # noqa: PLC0415
    from budgetcore.ui.problems import problem_text  # noqa: PLC0415
    from budgetcore.ui.replay.fields import REPLAY_FIELDS  # noqa: PLC0415
    from budgetcore.ui.replay.fields import parse_field_text as replay_text  # noqa: PLC0415
    from budgetcore.ui.tune.state import TUNE_FIELDS  # noqa: PLC0415
    from budgetcore.ui.tune.state import parse_field_text as tune_text  # noqa: PLC0415

    parsers = [(parse_text, p) for p in FIELDS]
    parsers += [(replay_text, p) for p in REPLAY_FIELDS]
    parsers += [(tune_text, p) for p in TUNE_FIELDS]
    codes: set[str] = set()
    for parse, path in parsers:
        for text in _BAD_TEXTS:
            try:
                parse(path, text)
            except IssueError as e:
                issue = e.issue
            else:
                continue
            codes.add(issue.code)
            assert issue.code.startswith("core."), (path, text, issue.code)
            for lang in ("en", "zh"):
                said = problem_text(issue, lang)
                assert "{" not in said, (path, text, said)
                label = f"label.{path}"
                if label in CATALOGUE:
                    assert said.startswith(t(label, lang)), (path, said)
    # Each kind of field was refused at least once: the loop saw the sites.
    assert {"core.whole-unit", "core.margin-typed", "core.bool", "core.whole-or-off"} <= codes
