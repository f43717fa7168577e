"""``fengsheng scenario run``: run scenario files and report pass or fail (interpreter/scenario.py runs one)."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import click

from .cli_options import ExistingPath, format_option


@click.group()
def scenario():
    """Scenario tests: a mid-game state, scripted answers, expectations (fengsheng docs scenarios)."""


@scenario.command("run")
@click.argument("paths", nargs=-1, required=True, type=ExistingPath())
@click.option("--trace", is_flag=True, help="print the resolution trace of passing scenarios too")
@click.option(
    "--allow-outside",
    is_flag=True,
    help="let a scenario load content packs outside its folder and the current directory",
)
@format_option(
    help="PASS/FAIL lines, or one JSON document: ok, passed, failed, and per file its scenario's name, passed, "
    "failures (message, line, col), the file's errors and, when failing or with --trace, its resolution trace"
)
def scenario_run(paths, trace, allow_outside, fmt):
    """Run scenario files (or every *.scenario.yaml under the given folders); report pass/fail."""
    from .content.loader import ContentErrors
    from .scenario import INTERNAL, failure_record, format_trace, run_scenario

    files = []
    for p in map(Path, paths):
        files += sorted(p.rglob("*.scenario.yaml")) if p.is_dir() else [p]
    if not files:
        raise click.UsageError("no *.scenario.yaml files found")
    failed = 0
    records: list[dict] = []
    for f in files:
        record: dict = {"file": str(f), "name": None, "passed": False, "failures": [], "errors": []}
        records.append(record)
        try:
            result = run_scenario(f, allow_outside=allow_outside)
        except ContentErrors as e:
            # by file, line and column, as validate lists them (the schema's findings come in its own order)
            errors = sorted(e.errors, key=lambda err: (str(err.path), err.line or 0, err.col or 0))
            record["errors"] = [err.to_json() for err in errors]
            if fmt == "text":
                click.echo(f"FAIL {f}: the file has errors")
                for err in errors:
                    click.echo(textwrap.indent(str(err), "  "))
            failed += 1
            continue
        except Exception as e:  # a bug: this file is reported, the others still run
            message = f"{INTERNAL}: {type(e).__name__}: {' '.join(str(e).split())[:600]}"
            record["failures"] = [failure_record(message)]
            if fmt == "text":
                click.echo(f"FAIL {f}: {message}")
            failed += 1
            continue
        record.update(name=result.name, passed=result.passed, failures=[failure_record(x) for x in result.failures])
        if trace or not result.passed:
            record["trace"] = format_trace(result.trace)
        if fmt == "text":
            click.echo(result.report())
            if trace and result.passed:
                click.echo("\n".join("    " + t for t in format_trace(result.trace)))
        failed += not result.passed
    if fmt == "json":
        summary = {"ok": not failed, "passed": len(files) - failed, "failed": failed, "files": records}
        click.echo(json.dumps(summary, ensure_ascii=False, indent=2))
    else:
        click.echo(f"{len(files) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)
