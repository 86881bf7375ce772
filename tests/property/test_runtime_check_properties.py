"""``check --runtime`` over any text a person might hand it (the wrong runtime's file, a
truncated or binary one, values of every type): an answer, or coded one-line problems
naming the key, never a traceback (issue 39: bad files get the usual coded problems)."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from budgetcore.errors import ScenarioError
from budgetcore.runtimes import RUNTIME_NAMES
from budgetcore.runtimes.check import check_runtime
from tests.profiles import examples

#: Text a person might hand to the wrong runtime, or a truncated or binary file.
TEXTS = st.one_of(
    st.text(max_size=200),
    st.sampled_from(
        [
            "",
            "{}",
            "[]",
            "null",
            "[loop_control]\ncompaction_trigger_ratio = 0.9\n",
            'model_auto_compact_token_limit = "x"\n',
            '{"compaction": {"reserveTokens": 1e400}}',
            '{"model": {"compressionThreshold": NaN}}',
            '{"a": {"a": {"a": {"a": 1}}}}',
            "GOOSE_AUTO_COMPACT_THRESHOLD: [1, 2]\n",
            "SummarizationMiddleware(trigger=[('tokens', 1), ('fraction', 2)])",
            "export CLAUDE_AUTOCOMPACT_PCT_OVERRIDE=abc\n",
            "x" * 5_000,
        ]
    ),
)


@settings(max_examples=examples(120))
@given(runtime=st.sampled_from(RUNTIME_NAMES), text=TEXTS)
def test_any_text_gets_an_answer_or_coded_problems_never_a_traceback(
    runtime: str, text: str
) -> None:
    try:
        result = check_runtime(
            runtime, text, window=200_000, output=32_000, model="claude-sonnet-4-5"
        )
    except ScenarioError as exc:
        problems, line = exc.problems, exc.one_line()
    else:
        problems, line = [], ""
    for problem in problems:
        assert problem.path
        assert problem.rule
        assert problem.code, problem
    assert "\n" not in line
    if problems:
        return
    assert result.effective_trigger_tokens is None or result.effective_trigger_tokens >= 0
    for _key, value in result.settings:
        assert not isinstance(value, float)
        if isinstance(value, Decimal):
            assert value.is_finite()
