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
    """budgetcore.ui.problems renders a code with a dot as a whole catalogue key (a
    problem only the page has) and any other as ``core.<code>``."""
    from budgetcore.errors import Problem  # noqa: PLC0415
    from budgetcore.ui.problems import problem_text  # noqa: PLC0415

    assert [k for k in CATALOGUE if k.startswith("core.") and "." in k[5:]] == []
    page = Problem.page("problem.bool", (("got", '"x"', False),), ("replay.cache",))
    assert page.paths == ("replay.cache",)
    for lang in ("en", "zh"):
        assert problem_text(page, lang) == t(
            "problem.bool", lang, field=t("label.replay.cache", lang), got='"x"'
        )


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
