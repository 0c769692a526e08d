"""The clause -> tests mapping (docs/validation/part11.yaml): which automated tests prove each clause."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

from api.settings import ROOT

DEFAULT_MAPPING = ROOT / "docs" / "validation" / "part11.yaml"
REGULATIONS = {"part11": "21 CFR Part 11", "annex11": "EU GMP Annex 11"}
# How a clause is cited: "21 CFR 11.10(a)", "EU GMP Annex 11 §9".
CITED_AS = {"part11": "21 CFR {}", "annex11": "EU GMP Annex 11 §{}"}


class MappingError(ValueError):
    """The mapping file cannot be read as clauses; the message names the entry."""


@dataclass(frozen=True)
class Clause:
    regulation: str  # "21 CFR Part 11" or "EU GMP Annex 11"
    clause: str  # "11.10(a)", "9"
    label: str  # as it is cited: "21 CFR 11.10(a)"
    title: str
    tests: tuple[str, ...]  # pytest node ids: tests/api/file.py::[Class::]test
    procedural: str | None = None  # who meets a clause the system cannot prove by itself


def _clause(regulation: str, index: int, entry: object) -> Clause:
    where = f"{regulation}[{index}]"
    if not isinstance(entry, dict):
        raise MappingError(f"{where}: an entry needs clause, title and tests (or procedural)")
    clause, title = entry.get("clause"), entry.get("title")
    tests, procedural = entry.get("tests") or [], entry.get("procedural")
    if not isinstance(clause, str | int) or not isinstance(title, str) or not title.strip():
        raise MappingError(f"{where}: clause and a one-line title are required")
    if not isinstance(tests, list) or not all(isinstance(t, str) and "::" in t for t in tests):
        raise MappingError(f"{where} ({clause}): tests must be a list of pytest node ids (file.py::test)")
    if procedural is not None and (not isinstance(procedural, str) or tests):
        raise MappingError(f"{where} ({clause}): procedural is a sentence, for a clause without tests")
    cited = CITED_AS[regulation].format(clause)
    return Clause(REGULATIONS[regulation], str(clause), cited, title.strip(), tuple(tests), procedural)


def load_mapping(path: Path = DEFAULT_MAPPING) -> list[Clause]:
    try:
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise MappingError(f"{path}: {exc}") from exc
    if not isinstance(document, dict) or not set(document) <= set(REGULATIONS):
        raise MappingError(f"{path}: top-level keys are {', '.join(REGULATIONS)}")
    clauses = []
    for regulation in REGULATIONS:
        entries = document.get(regulation) or []
        if not isinstance(entries, list):
            raise MappingError(f"{path}: {regulation} is a list of clauses")
        clauses += [_clause(regulation, index, entry) for index, entry in enumerate(entries)]
    if not clauses:
        raise MappingError(f"{path}: no clause")
    return clauses
