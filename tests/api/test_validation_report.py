"""`flask validation report` (issue 45): the IQ/OQ document of a test run, from the clause -> tests
mapping (docs/validation/part11.yaml) and the run's JUnit XML; it fails when a clause is not met."""

from __future__ import annotations

import ast
import hashlib
import subprocess
import sys
import tomllib
from pathlib import Path
from xml.sax.saxutils import quoteattr

import pytest

from api.settings import ROOT
from api.validation.installation import source_tree_hash
from api.validation.mapping import DEFAULT_MAPPING, load_mapping
from api.validation.results import Outcome, junit_key, read_run
from tests.api.report_helpers import pdf_text

CLAUSES = load_mapping()
MAPPED = sorted({node_id for clause in CLAUSES for node_id in clause.tests})


def junit(tmp_path: Path, outcomes: dict[str, str], extra: str = "") -> Path:
    """A pytest JUnit XML report: each node id with its outcome (passed, failed, skipped)."""
    cases = []
    for node_id, outcome in outcomes.items():
        classname, name = junit_key(node_id)
        inner = {"passed": "", "failed": '<failure message="assert 1 == 2">trace</failure>', "skipped": "<skipped/>"}
        cases.append(f"<testcase classname={quoteattr(classname)} name={quoteattr(name)} time='0.25'>{inner[outcome]}")
        cases.append("</testcase>")
    path = tmp_path / "junit.xml"
    path.write_text(
        '<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest">'
        + "".join(cases)
        + extra
        + "</testsuite></testsuites>"
    )
    return path


def report(app, results: Path, out: Path, *extra: str):
    return app.test_cli_runner().invoke(
        args=["validation", "report", "--results", str(results), "--out", str(out), *extra]
    )


def test_every_clause_has_tests_or_a_procedural_note_and_both_regulations_are_covered():
    labels = {clause.label for clause in CLAUSES}
    for cited in ("21 CFR 11.10(a)", "21 CFR 11.10(k)", "21 CFR 11.50", "21 CFR 11.70", "21 CFR 11.100(a)"):
        assert cited in labels
    for cited in ("21 CFR 11.200(a)", "21 CFR 11.300(d)", "EU GMP Annex 11 §9", "EU GMP Annex 11 §14"):
        assert cited in labels
    assert all(clause.tests or clause.procedural for clause in CLAUSES)
    assert len(labels) == len(CLAUSES)  # no clause twice


def defined_tests(path: Path) -> set[str]:
    """The node ids a test file defines (module functions and the methods of its Test classes)."""
    tree = ast.parse(path.read_text())
    relative = path.relative_to(ROOT).as_posix()
    found = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
            found.add(f"{relative}::{node.name}")
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            found |= {
                f"{relative}::{node.name}::{method.name}"
                for method in node.body
                if isinstance(method, ast.FunctionDef) and method.name.startswith("test_")
            }
    return found


def test_every_mapped_test_exists():
    defined: set[str] = set()
    for path in sorted({node_id.split("::", 1)[0] for node_id in MAPPED}):
        assert (ROOT / path).is_file(), path
        assert path.startswith("tests/api/test_"), f"{path}: make test runs tests/api only"
        defined |= defined_tests(ROOT / path)
    assert [node_id for node_id in MAPPED if node_id not in defined] == []


def test_a_run_passing_every_mapped_test_writes_a_report_naming_each_clause(app, tmp_path):
    # One test ran as two parameter cases, and the run held a test no clause names.
    results = junit(
        tmp_path,
        dict.fromkeys(MAPPED, "passed"),
        extra="<testcase classname='tests.api.test_other' name='test_unmapped' time='1'/>",
    )
    text = results.read_text().replace(
        f"name={quoteattr(junit_key(MAPPED[0])[1])}", f"name={quoteattr(junit_key(MAPPED[0])[1] + '[a]')}", 1
    )
    results.write_text(text)
    out = tmp_path / "artifacts" / "validation.pdf"

    result = report(app, results, out)

    assert result.exit_code == 0, result.output
    assert str(out.resolve()) in result.output
    content = pdf_text(out.read_bytes())
    for clause in CLAUSES:
        assert f"{clause.label}:" in content
        assert ("[procedural]" if clause.procedural else "[met]") in content
    assert "passed" in content and "NOT MET" not in content
    assert f"passed: {len(MAPPED)}; failed: 0; skipped: 0; missing: 0" in content
    assert f"The whole run: {len(MAPPED) + 1} test cases" in content
    assert hashlib.sha256(results.read_bytes()).hexdigest() in content
    assert "Conclusion: every clause is met" in content


@pytest.mark.parametrize("defect", ["missing", "failed", "failed case of several", "skipped only", "no test"])
def test_a_missing_or_failing_mapped_test_fails_the_report_and_names_the_clause(app, tmp_path, defect):
    mapping = DEFAULT_MAPPING
    signed = next(clause for clause in CLAUSES if clause.label == "21 CFR 11.70")
    outcomes = dict.fromkeys(MAPPED, "passed")
    extra = ""
    target = signed.tests[0]
    if defect == "missing":
        del outcomes[target]
    elif defect == "failed":
        outcomes[target] = "failed"
    elif defect == "skipped only":  # every test of the clause skipped: none passed
        outcomes.update(dict.fromkeys(signed.tests, "skipped"))
    elif defect == "failed case of several":
        classname, name = junit_key(target)
        extra = f"<testcase classname={quoteattr(classname)} name={quoteattr(name + '[b]')}><failure/></testcase>"
    else:  # a clause whose list of tests is empty
        mapping = tmp_path / "mapping.yaml"
        mapping.write_text(
            DEFAULT_MAPPING.read_text().replace(
                '  - clause: "11.70"\n', '  - clause: "11.71"\n    title: "Planted, no tests"\n  - clause: "11.70"\n'
            )
        )
        signed = next(clause for clause in load_mapping(mapping) if clause.label == "21 CFR 11.71")
    out = tmp_path / "validation.pdf"

    result = report(app, junit(tmp_path, outcomes, extra), out, "--mapping", str(mapping))

    assert result.exit_code == 1, result.output
    assert f"NOT MET {signed.label}:" in result.output
    if defect == "no test":
        unmet = [signed]
    elif defect == "skipped only":
        unmet = [clause for clause in CLAUSES if clause.tests and set(clause.tests) <= set(signed.tests)]
    else:
        unmet = [clause for clause in CLAUSES if target in clause.tests]
    assert f"{len(unmet)} not met" in result.output
    content = pdf_text(out.read_bytes())  # written all the same, for the reader to see why
    assert f"{signed.label}: {signed.title} [NOT MET]" in " ".join(content.split())
    assert "Conclusion: NOT MET: " in content and signed.label in content.split("Conclusion: NOT MET: ")[1]


@pytest.mark.xdist_group("source_tree")  # hashes the api tree, where tests/api/test_layers.py plants a file
def test_the_report_identifies_the_system_and_its_installation(app, tmp_path):
    out = tmp_path / "validation.pdf"
    result = report(app, junit(tmp_path, dict.fromkeys(MAPPED, "passed")), out)
    assert result.exit_code == 0, result.output
    content = " ".join(pdf_text(out.read_bytes()).split())
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert f"Product version (pyproject.toml) {version}" in content
    assert f"Python CPython {sys.version.split()[0]}" in content
    assert "Database engine postgresql" in content
    assert "at head" in content and "NOT at head" not in content
    for name in ("requirements.lock", "package-lock.json"):
        assert hashlib.sha256((ROOT / name).read_bytes()).hexdigest() in content.replace(" ", "")
    assert source_tree_hash(ROOT / "api")[0] in content.replace(" ", "")
    for package in ("pyhanko", "cryptography", "reportlab", "sqlalchemy"):
        assert package in content


def test_the_source_tree_hash_changes_with_one_byte_and_ignores_caches(tmp_path):
    tree = tmp_path / "api"
    (tree / "area").mkdir(parents=True)
    (tree / "area" / "module.py").write_text("LIMIT = 8\n")
    first, count = source_tree_hash(tree)
    (tree / "area" / "__pycache__").mkdir()
    (tree / "area" / "__pycache__" / "module.cpython-311.pyc").write_bytes(b"\0")
    assert source_tree_hash(tree) == (first, count)
    (tree / "area" / "module.py").write_text("LIMIT = 9\n")
    assert source_tree_hash(tree)[0] != first


@pytest.mark.parametrize(
    ("results", "named"),
    [
        ("not xml at all", "not XML"),
        ("<html><body/></html>", "not a JUnit XML report"),
        ('<!DOCTYPE t [<!ENTITY a "aaaa">]><testsuites>&a;</testsuites>', "refused"),
    ],
)
def test_a_results_file_that_is_not_junit_is_a_clear_error(app, tmp_path, results, named):
    path = tmp_path / "junit.xml"
    path.write_text(results)
    result = report(app, path, tmp_path / "validation.pdf")
    assert result.exit_code == 1
    assert named in result.output and "Traceback" not in result.output
    assert not (tmp_path / "validation.pdf").exists()


def test_a_malformed_mapping_names_the_entry(app, tmp_path):
    mapping = tmp_path / "mapping.yaml"
    mapping.write_text('part11:\n  - clause: "11.10(a)"\n    title: "Validation"\n    tests: [not-a-node-id]\n')
    result = report(app, junit(tmp_path, {}), tmp_path / "validation.pdf", "--mapping", str(mapping))
    assert result.exit_code == 1
    assert "part11[0] (11.10(a)): tests must be a list of pytest node ids" in result.output


SAMPLE_TESTS = """
import pytest

def test_plain():
    pass

@pytest.mark.parametrize("n", [1, 2])
def test_parametrized(n):
    pass

@pytest.mark.xdist_group("grouped")
def test_in_a_group():
    pass

@pytest.mark.xdist_group("grouped")
@pytest.mark.parametrize("n", [1])
def test_parametrized_in_a_group(n):
    pass

class TestAClass:
    @pytest.mark.xdist_group("grouped")
    def test_method(self):
        pass
"""


@pytest.mark.parametrize("run_with", [[], ["-n", "2", "--dist", "loadgroup"]], ids=["serial", "loadgroup"])
def test_every_name_a_real_pytest_run_writes_is_found(tmp_path, run_with):
    """The names come from pytest itself, under the options `make test` uses, so a suffix a plugin
    adds (xdist's `@group`) cannot make a passed test read as missing."""
    (tmp_path / "test_sample.py").write_text(SAMPLE_TESTS)
    out = tmp_path / "junit.xml"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-c",
            "/dev/null",
            "--rootdir",
            tmp_path,
            *run_with,
            f"--junitxml={out}",
            "test_sample.py",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    run = read_run(out)
    for node_id in (
        "test_plain",
        "test_parametrized",
        "test_in_a_group",
        "test_parametrized_in_a_group",
        "TestAClass::test_method",
    ):
        assert run.result(f"test_sample.py::{node_id}").outcome is Outcome.PASSED, (node_id, run.cases)
