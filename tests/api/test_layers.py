"""The layering of DEVELOPERS.md read from the imports: import-linter's contracts (pyproject.toml)
hold, they fail when the access layer imports a business area, and the low layers import nothing of
the api inside functions (a function-level import is a cycle in disguise). Only the composition root
(api/__init__.py: create_app wires the areas, and api.jobs imports create_app) and the migrations
(frozen history) import inside functions."""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

# One test plants a module in api/access: the others here read the same tree (tests/conftest.py).
pytestmark = pytest.mark.xdist_group("source_tree")

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")
COMPOSITION_ROOT = {"api/__init__.py"}
FROZEN = "api/migrations"


def lint_imports() -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300, check=False
    )


def test_the_contracts_hold():
    result = lint_imports()
    assert result.returncode == 0, result.stdout[-3000:]


def test_a_planted_import_of_an_area_breaks_the_access_contract():
    planted = ROOT / "api" / "access" / "_planted_for_test.py"
    planted.write_text("import api.device.models  # noqa: F401\n")
    try:
        result = lint_imports()
    finally:
        planted.unlink()
    assert result.returncode != 0
    assert "The access layer imports no business area" in result.stdout and "BROKEN" in result.stdout


def function_level_api_imports(path: Path, root: Path = ROOT) -> list[str]:
    found = []
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for inner in ast.walk(node):
                if isinstance(inner, ast.ImportFrom) and (inner.module or "").startswith("api"):
                    found.append(f"{path.relative_to(root)}:{inner.lineno} from {inner.module}")
                if isinstance(inner, ast.Import) and any(a.name.startswith("api") for a in inner.names):
                    found.append(f"{path.relative_to(root)}:{inner.lineno} import")
    return found


def modules_that_must_import_at_top() -> list[Path]:
    return [
        path
        for path in sorted((ROOT / "api").rglob("*.py"))
        if str(path.relative_to(ROOT)) not in COMPOSITION_ROOT and not str(path.relative_to(ROOT)).startswith(FROZEN)
    ]


def test_no_module_imports_our_code_inside_functions():
    found = [hit for file in modules_that_must_import_at_top() for hit in function_level_api_imports(file)]
    assert not found, found


def test_a_planted_function_level_import_is_found(tmp_path):
    planted = tmp_path / "planted.py"
    planted.write_text("def late():\n    from api.device.models import Device\n    return Device\n")
    found = function_level_api_imports(planted, root=tmp_path)
    assert found == ["planted.py:2 from api.device.models"]


def test_every_area_is_forbidden_to_the_low_layers():
    """A new area (a package with routes) must join every contract, or the linter would not see a low
    layer importing it."""
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    areas = sorted(path.parent.name for path in (ROOT / "api").glob("*/routes.py"))
    below = {"account", "platform"}  # sign-in and the site are low layers with routes of their own
    # A contract between two areas (billing never imports what its orders pay for) names only that one.
    between_areas = [
        contract
        for contract in contracts
        if all(
            source.split(".")[1] in areas and source.split(".")[1] not in below for source in contract["source_modules"]
        )
    ]
    missing = [
        f"{contract['name']}: api.{area}"
        for contract in contracts
        if contract not in between_areas
        for area in areas
        if area not in below and f"api.{area}" not in contract.get("forbidden_modules", [])
    ]
    assert not missing, missing
    assert [c["name"] for c in between_areas] == [
        "Billing knows nothing of what its orders pay for (areas register their settlement)"
    ]
