"""A pytest run's JUnit XML (`pytest --junitxml`, also under xdist) read per test, and each clause's
verdict from the results of the tests mapped to it."""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from defusedxml import DefusedXmlException, ElementTree
from defusedxml.ElementTree import ParseError

from api.validation.mapping import Clause


class Outcome(StrEnum):
    PASSED = "passed"
    FAILED = "failed"
    SKIPPED = "skipped"
    MISSING = "missing"  # mapped, but not in the run


class Verdict(StrEnum):
    MET = "met"
    NOT_MET = "NOT MET"
    PROCEDURAL = "procedural"


class ResultsError(ValueError):
    """The results file is not a JUnit XML report."""


@dataclass(frozen=True)
class TestResult:
    node_id: str
    outcome: Outcome
    seconds: float
    cases: int  # the parameters of a parametrized test, each a case of the run


@dataclass(frozen=True)
class ClauseResult:
    clause: Clause
    tests: tuple[TestResult, ...]
    verdict: Verdict


@dataclass(frozen=True)
class Run:
    """Every case of the run, keyed as JUnit names it: (classname, name without parameters)."""

    cases: dict[tuple[str, str], list[tuple[Outcome, float]]]
    sha256: str
    totals: Counter

    def result(self, node_id: str) -> TestResult:
        """A mapped test: failed if any of its cases failed, passed if one passed and none failed."""
        found = self.cases.get(junit_key(node_id), [])
        outcomes = {outcome for outcome, _seconds in found}
        if not found:
            outcome = Outcome.MISSING
        elif Outcome.FAILED in outcomes:
            outcome = Outcome.FAILED
        elif Outcome.PASSED in outcomes:
            outcome = Outcome.PASSED
        else:
            outcome = Outcome.SKIPPED
        return TestResult(node_id, outcome, sum(seconds for _outcome, seconds in found), len(found))


def junit_key(node_id: str) -> tuple[str, str]:
    """`tests/api/test_x.py::TestY::test_z` as pytest's JUnit XML names it: classname
    `tests.api.test_x.TestY`, name `test_z` (its parameters, `[...]`, stripped)."""
    path, *classes, name = node_id.split("::")
    module = path.removesuffix(".py").replace("/", ".")
    return ".".join([module, *classes]), case_name(name)


def case_name(name: str) -> str:
    """A test's name without what a run appends to it: parameters (`[...]`) and, under xdist's
    loadgroup, the group (`@group`, after the parameters or after a plain name)."""
    return name.split("[", 1)[0].split("@", 1)[0]


def _outcome(case) -> Outcome:
    children = {child.tag for child in case}
    if children & {"failure", "error"}:
        return Outcome.FAILED
    if "skipped" in children:
        return Outcome.SKIPPED
    return Outcome.PASSED


def read_run(path: Path) -> Run:
    data = path.read_bytes()
    try:
        root = ElementTree.fromstring(data)
    except ParseError as exc:
        raise ResultsError(f"{path}: not XML ({exc})") from exc
    except DefusedXmlException as exc:  # entities or a DTD: never in pytest's report
        raise ResultsError(f"{path}: refused, {exc}") from exc
    if root.tag not in ("testsuites", "testsuite"):
        raise ResultsError(f"{path}: not a JUnit XML report (root <{root.tag}>)")
    cases: dict[tuple[str, str], list[tuple[Outcome, float]]] = {}
    totals: Counter = Counter()
    for case in root.iter("testcase"):
        outcome = _outcome(case)
        totals[outcome] += 1
        key = case.get("classname", ""), case_name(case.get("name", ""))
        try:
            seconds = float(case.get("time") or 0)
        except ValueError:
            seconds = 0.0
        cases.setdefault(key, []).append((outcome, seconds))
    return Run(cases, hashlib.sha256(data).hexdigest(), totals)


def judge(clause: Clause, run: Run) -> ClauseResult:
    """Met when every mapped test ran, none failed and at least one passed; a clause with no test
    (and no procedural note) is not met."""
    if clause.procedural is not None:
        return ClauseResult(clause, (), Verdict.PROCEDURAL)
    tests = tuple(run.result(node_id) for node_id in clause.tests)
    outcomes = {test.outcome for test in tests}
    met = Outcome.PASSED in outcomes and not outcomes & {Outcome.FAILED, Outcome.MISSING}
    return ClauseResult(clause, tests, Verdict.MET if met else Verdict.NOT_MET)
