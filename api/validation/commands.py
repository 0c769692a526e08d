"""`flask validation report`: the IQ/OQ document of a test run (docs/validation/part11.yaml)."""

from __future__ import annotations

from pathlib import Path

import click
from flask import Flask

from api.extensions.db import utcnow
from api.validation import installation
from api.validation.document import Evidence, report_pdf
from api.validation.mapping import DEFAULT_MAPPING, MappingError, load_mapping
from api.validation.results import ResultsError, Verdict, judge, read_run


def register(app: Flask) -> None:
    @app.cli.group("validation")
    def validation_group() -> None:
        """Computer system validation (21 CFR Part 11, EU GMP Annex 11)."""

    @validation_group.command("report")
    @click.option(
        "--results",
        "results_path",
        type=click.Path(exists=True, dir_okay=False, path_type=Path),
        required=True,
        help="the run's JUnit XML (pytest --junitxml)",
    )
    @click.option("--out", "out_path", type=click.Path(dir_okay=False, path_type=Path), required=True, help="the PDF")
    @click.option(
        "--mapping",
        "mapping_path",
        type=click.Path(exists=True, dir_okay=False, path_type=Path),
        default=DEFAULT_MAPPING,
        show_default=True,
        help="clause -> tests",
    )
    def report_command(results_path: Path, out_path: Path, mapping_path: Path) -> None:
        """Write the IQ/OQ document of a test run: the system's identification and hashes, then each
        clause with its tests' results. Exit status 1 when a clause is not met (a mapped test failed or
        is missing from the run, or the clause has no test); the PDF is written either way."""
        try:
            clauses = load_mapping(mapping_path)
            run = read_run(results_path)
        except (MappingError, ResultsError) as exc:
            raise click.ClickException(str(exc)) from exc
        results = [judge(clause, run) for clause in clauses]
        evidence = Evidence(
            identification=installation.identification(),
            installation=installation.qualification(),
            clauses=results,
            results_name=str(results_path),
            results_sha256=run.sha256,
            run_totals=run.totals,
            generated=utcnow(),
        )
        out_path.parent.mkdir(parents=True, exist_ok=True)
        out_path.write_bytes(report_pdf(evidence))
        unmet = [result for result in results if result.verdict is Verdict.NOT_MET]
        met = sum(result.verdict is Verdict.MET for result in results)
        click.echo(f"validation report: {out_path.resolve()}")
        click.echo(f"{met} clauses met, {len(unmet)} not met, {len(results) - met - len(unmet)} procedural")
        for result in unmet:
            problems = [f"{t.node_id} {t.outcome.value}" for t in result.tests] or ["no test mapped"]
            click.echo(f"NOT MET {result.clause.label}: {'; '.join(problems)}", err=True)
        if unmet:
            raise SystemExit(1)
