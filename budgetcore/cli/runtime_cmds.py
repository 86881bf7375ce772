"""``export --runtime`` and ``check --runtime``: the reviewed settings in the agent's own
file, and that file read back in M / K / S terms (docs/runtimes.md)."""

from __future__ import annotations

import argparse
import dataclasses
import sys
from decimal import Decimal

from budgetcore.cli.shell import EXIT_INVALID, read_input, shown_name
from budgetcore.core.scenario import Scenario
from budgetcore.errors import Problem, ScenarioError
from budgetcore.inputs.text import decode_utf8
from budgetcore.runtimes import Profile, profile
from budgetcore.runtimes.check import RuntimeFile, check_runtime, parse_file
from budgetcore.runtimes.export import Model, Reviewed, export_as_dict, export_runtime
from budgetcore.runtimes.syntax import decimal_text, dumps_json
from budgetcore.units import counted, format_int

__all__ = ["cmd_check_runtime", "cmd_export_runtime", "scenario_and_model"]


def scenario_and_model(
    args: argparse.Namespace, *, scenario_required: bool = True, runtime: str | None = None
) -> tuple[Scenario, Model]:
    """The command's scenario and the model it is for: ``--model``, else the scenario's
    or the fragment's ``main_model.model``, else the contract's I and O (stated). A
    ``--model`` of a ``runtime`` is at the window that runtime gives it
    (``runtimes.check.named_window``: Claude Code's 200,000 unless named with [1m])."""
    from budgetcore.registry.models import default_registry  # noqa: PLC0415

    named: str | None = None
    source = "the contract's I and O"
    fragment = getattr(args, "fragment", None)
    if fragment is not None:
        if args.scenario is not None:
            raise ScenarioError([Problem.coded("scenario", "scenario-both")])
        from budgetcore.scenario.fragment import parse_fragment  # noqa: PLC0415

        result = parse_fragment(fragment)
        if result.problems:
            raise ScenarioError(list(result.problems))
        scenario = result.scenario
        linked = dict(result.ui).get("runtime")
        wanted = getattr(args, "runtime", None)
        if linked and wanted and linked != wanted:  # the page's pick, not this command's
            print(
                f"note: the link's runtime={linked} is the page's pick; this writes --runtime "
                f"{wanted}",
                file=sys.stderr,
            )
        if scenario.main_model_name is not None:  # kept while the contract is the model's
            named, source = scenario.main_model_name, "the fragment's main_model.model"
    elif args.scenario is not None:
        from budgetcore.scenario.parse import parse_scenario_json  # noqa: PLC0415

        scenario = parse_scenario_json(read_input(args.scenario, "scenario"))
        if scenario.main_model_name is not None:
            named, source = scenario.main_model_name, "the scenario's main_model.model"
    elif scenario_required:
        raise ScenarioError([Problem.coded("scenario", "scenario-required")])
    else:
        scenario = Scenario()
    window_source = ""
    if args.model is not None:
        from budgetcore.inputs.text import check_size  # noqa: PLC0415
        from budgetcore.runtimes.check import named_window  # noqa: PLC0415
        from budgetcore.runtimes.profiles import claude_code_model_window  # noqa: PLC0415

        check_size(args.model, "query", "--model")
        asked = args.model
        if runtime == "claude-code":  # "sonnet[1m]" is Claude Code's spelling, not a model's
            asked = claude_code_model_window(args.model)[2] or args.model
        found = default_registry().require(
            asked, "--model", reserves_output=scenario.main_model.reserves_output
        )
        contract = found.contract
        if runtime is not None:
            ran = named_window(runtime, args.model, default_registry().resolve)
            if ran is not None and ran.key != "runtime-window.registry":
                contract = dataclasses.replace(contract, input_tokens=ran.window)
                window_source = ran.evidence()
        scenario = dataclasses.replace(scenario, main_model=contract)
        named, source = found.name, "--model"
    provider = None
    contract = scenario.main_model
    registry_window = None
    if named is not None:
        entry = default_registry().lookup(named)
        provider = None if entry is None else entry.provider
        if entry is not None and entry.contract.input_tokens != contract.input_tokens:
            registry_window = entry.contract.input_tokens  # a runtime's window (spec §17)
    return scenario, Model(
        name=named,
        provider=provider,
        window=contract.input_tokens,
        output=contract.output_tokens,
        source=source,
        registry_window=registry_window,
        window_source=window_source,
    )


def _profile(name: str) -> Profile:
    """The runtime ``--runtime`` names; an unknown one is a problem naming the flag."""
    try:
        return profile(name)
    except ScenarioError as exc:
        flagged = [dataclasses.replace(p, path="--runtime") for p in exc.problems]
        raise ScenarioError(flagged) from None


def cmd_export_runtime(args: argparse.Namespace) -> int:
    from budgetcore.core.plan import plan  # noqa: PLC0415
    from budgetcore.scenario.export import export_toml, overrides_of  # noqa: PLC0415

    p = _profile(args.runtime)
    scenario, model = scenario_and_model(args, runtime=p.name)
    models = {} if model.name is None else {"main_model.model": model.name}
    fmt = args.format or ("toml" if p.name == "article" else "native")
    if fmt == "toml" and p.syntax != "toml":
        raise ScenarioError(
            [
                Problem.of(
                    "--format",
                    fmt,
                    "runtime-format",
                    runtime=p.title,
                    syntax=p.syntax,
                )
            ]
        )
    reviewed = Reviewed(
        trigger=scenario.config.trigger_tokens,
        main_safe_input=plan(scenario).main_safe_input,
        summary_cap=scenario.config.summary_max_tokens,
        article_text=export_toml(scenario, models=models),
        article_settings=tuple(overrides_of(scenario).items()),  # type: ignore[arg-type]
    )
    x = export_runtime(p.name, model, reviewed)
    # The reviewer's warnings, one path with export and check (scenario/warnings.py), for
    # the model the file is for (--model included): here also a runtime that cannot run it.
    from budgetcore.scenario.warnings import review_warnings  # noqa: PLC0415

    named = dataclasses.replace(scenario, main_model_name=model.name)
    warnings = review_warnings(named, runtime=p.name)
    if fmt == "json":
        doc = export_as_dict(x)
        doc["warnings"] = [w.as_json() for w in warnings]
        sys.stdout.write(dumps_json(doc) + "\n")
        return 0
    if fmt == "text":
        k = x.effective_trigger_tokens
        out = [
            f"{p.title} ({p.version}) for {model.name or 'no model named'}: "
            f"W {format_int(model.window)}, O {format_int(model.output)} ({model.source})",
            f"reviewed K {format_int(x.reviewed.trigger)}, "
            f"M {format_int(x.reviewed.main_safe_input)}, S {format_int(x.reviewed.summary_cap)}: "
            f"target min(K, M) = {format_int(x.target)}",
            f"effective trigger: {'never' if k is None else format_int(k)} tokens "
            f"(resolution {x.resolution})",
            f"conversion: {x.conversion}",
        ]
        for n in x.not_settable:
            reviewed_value = "" if n.value is None else f" (reviewed {_value_text(n.value)})"
            out.append(f"not settable: {n.knob}{reviewed_value}: {n.why}")
        out += [f"note: {n}" for n in x.notes]
        out += [f"warning: {w.text('en')}" for w in warnings]
        for f in x.files:
            out += ["", f"--- {f.name} ({f.syntax})", f.text.rstrip("\n")]
        print("\n".join(out))
        return 0
    sys.stdout.write(x.text)
    # The file alone on stdout (redirect it); what it cannot say goes to stderr.
    for n in x.not_settable:
        print(f"note: not settable in {p.title}: {n.knob}: {n.why}", file=sys.stderr)
    for note in x.notes:
        print(f"note: {note}", file=sys.stderr)
    for f in x.files[1:]:
        print(f"note: also {f.name}:\n{f.text.rstrip()}", file=sys.stderr)
    for w in warnings:  # the file is written; the reviewer is told
        print(f"warning: {w.text('en')}", file=sys.stderr)
    return 0


def _value_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return format_int(value)
    if isinstance(value, tuple):
        return "(" + ", ".join(_value_text(v) for v in value) + ")"
    if value is None:
        return "None"
    return decimal_text(value) if isinstance(value, Decimal) else str(value)


def _read_for(
    p: Profile, text: RuntimeFile, args: argparse.Namespace, model: Model
) -> tuple[Model, list[str], tuple[str, str] | None, bool]:
    """The model the file is read for, by the one precedence rule the page's import
    keeps too (``runtimes.check.read_for``: --model, the scenario's named model, the
    file's, the contract), the notes that say why where the file names a model, the
    model the file names (its key, the name written), and whether it is the one read
    for."""
    from budgetcore.messages import t  # noqa: PLC0415
    from budgetcore.registry.models import default_registry  # noqa: PLC0415
    from budgetcore.runtimes.check import read_for  # noqa: PLC0415

    chosen = read_for(
        p.name,
        text,
        flag=args.model is not None,
        scenario=model.name is not None,
        resolve=default_registry().resolve,
    )
    notes: list[str] = []
    if chosen.named is None:
        return model, notes, None, False
    setting, written = chosen.named
    if chosen.model is not None:
        found = chosen.model
        return (
            dataclasses.replace(
                model,
                name=found.name,
                provider=found.provider,
                window=found.window,
                output=found.output,
                source=t("runtime.source-file", "en", setting=setting),
                registry_window=None
                if found.window == found.registry_window
                else found.registry_window,
                window_source=found.evidence(),
            ),
            notes,
            chosen.named,
            True,
        )
    if chosen.source == "contract":
        notes.append(
            f"the file's {setting} names {written}, a model the registry does not list: read "
            f"for the contract's I and O ({format_int(model.window)}, "
            f"{format_int(model.output)}) instead; give --model to read it for another"
        )
    else:
        notes.append(
            f"the file's {setting} names {written}; read for {model.name} ({model.source}), "
            "which comes first (--model, the scenario's model, the file's, the contract)"
        )
    return model, notes, chosen.named, False


def cmd_check_runtime(args: argparse.Namespace) -> int:
    from budgetcore.core.plan import plan  # noqa: PLC0415

    p = _profile(args.runtime)
    scenario, model = scenario_and_model(args, scenario_required=False, runtime=p.name)
    where = "standard input" if args.config == "-" else shown_name(args.config)
    try:
        # Parsed once: the model the file names and its settings are read from one parse.
        text = parse_file(p.name, decode_utf8(read_input(args.config, "config"), "config"))
        model, said, named, read_named = _read_for(p, text, args, model)
        result = check_runtime(
            p.name,
            text,
            window=model.window,
            output=model.output,
            model=model.name,
            window_source=model.window_source or "the model's window",
        )
    except ScenarioError as exc:
        n = len(exc.problems)
        print(f"{n} problem{'s' if n != 1 else ''} in {where}: {exc.one_line()}", file=sys.stderr)
        return EXIT_INVALID
    reviewed = None
    if args.scenario is not None or getattr(args, "fragment", None) is not None:
        reviewed = (
            scenario.config.trigger_tokens,
            plan(scenario).main_safe_input,
            scenario.config.summary_max_tokens,
        )
    k, s = result.effective_trigger_tokens, result.summary_cap_tokens
    # The key that named the model read for is no key ignored ("ignored: model" under
    # "for gpt-5-codex (model from the file's `model` key)").
    ignored = [key for key in result.ignored if not (read_named and named and key == named[0])]
    from budgetcore.scenario.warnings import peers_warning, runtime_warning  # noqa: PLC0415

    # The K the file means for the model against the peers' lines, as its export is;
    # and a file for a runtime that cannot run this model never applies.
    found = (
        None if k is None else peers_warning(k, model.window, model.output, model.name),
        runtime_warning(p.name, model.name),
    )
    warnings = [w for w in found if w is not None]
    differences: list[str] = []
    if reviewed is not None:
        rk, rm, rs = reviewed
        if k is None:
            differences.append(f"K: never compacts by tokens, reviewed K {format_int(rk)}")
        elif k != rk:
            differences.append(f"K: {format_int(k)} here, reviewed {format_int(rk)} ({k - rk:+,})")
        if k is not None and k > rm:
            differences.append(f"K {format_int(k)} is above M {format_int(rm)}")
        if s != rs:
            differences.append(
                f"S: {'no cap' if s is None else format_int(s)} here, reviewed {format_int(rs)}"
            )
    if args.format == "json":
        doc = {
            "runtime": p.name,
            "file": args.config,
            "model": model.name,
            "model_source": model.source,
            # The model the file names (its key, the name written), read for or not.
            "file_model": None if named is None else {"key": named[0], "name": named[1]},
            "window": result.window,
            "window_source": result.window_source,
            "max_output": result.output,
            "settings": {key: list(v) if isinstance(v, tuple) else v for key, v in result.settings},
            "effective_trigger_tokens": k,
            "summary_cap_tokens": s,
            "ignored": ignored,
            "notes": [*said, *result.notes],
            "reviewed": None
            if reviewed is None
            else {
                "trigger_tokens": reviewed[0],
                "main_safe_input": reviewed[1],
                "summary_max_tokens": reviewed[2],
            },
            "differences": differences,
            "warnings": [w.as_json() for w in warnings],
        }
        sys.stdout.write(dumps_json(doc) + "\n")
        return 0
    print(f"{where}: valid {p.title} settings, {counted(len(result.settings), 'compaction knob')}")
    for key, value in result.settings:
        print(f"  {key} = {_value_text(value)}")
    name = model.name or (
        f"{named[1]}, which the registry does not list" if named else "no model named"
    )
    print(f"for {name} ({model.source}):")
    print(f"  window W  {format_int(result.window):>13} tokens ({result.window_source})")
    print(
        f"  trigger K {'never' if k is None else format_int(k):>13}"
        + ("" if k is None else " tokens (compacts at T >= K)")
    )
    print(
        f"  summary S {'no cap' if s is None else format_int(s):>13}"
        + ("" if s is None else " tokens")
    )
    if ignored:
        print(f"  ignored: {counted(len(ignored), 'other key')}: {', '.join(ignored[:8])}")
    for note in [*said, *result.notes]:
        print(f"note: {note}", file=sys.stderr)
    for w in warnings:
        print(f"warning: {w.text('en')}", file=sys.stderr)
    if reviewed is not None:
        k_text, m_text, s_text = (format_int(v) for v in reviewed)
        print(
            f"against the reviewed scenario (K {k_text}, M {m_text}, S {s_text}): "
            + ("; ".join(differences) if differences else "same K and S")
        )
    return 0
