"""The floors of docs/architecture.md read from the imports: import-linter's two contracts
(pyproject.toml: layers, acyclic siblings) hold, they fail when a floor imports a higher floor or any
area (a new one too, with no edit of pyproject.toml), and no module imports the api inside functions
(a function-level import is a cycle in disguise). Only the composition root (api/__init__.py:
create_app installs the manifests) and the migrations (frozen history) import inside functions."""

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


def test_a_planted_import_of_a_higher_floor_breaks_the_layers_contract():
    planted = ROOT / "api" / "access" / "_planted_for_test.py"
    planted.write_text("import api.device.models  # noqa: F401\n")
    try:
        result = lint_imports()
    finally:
        planted.unlink()
    assert result.returncode != 0
    assert "The floors: each imports only the floors below it BROKEN" in result.stdout
    assert "api.access is not allowed to import api.device" in result.stdout


def test_a_floor_importing_a_new_area_breaks_a_contract_without_any_edit_of_pyproject():
    """An area pyproject.toml has never heard of: the acyclic contract still catches a floor that
    imports it (the area imports the floors, as every area does)."""
    area = ROOT / "api" / "zz_planted_area"
    planted = ROOT / "api" / "identity" / "_planted_for_test.py"
    area.mkdir()
    try:
        (area / "__init__.py").write_text("")
        (area / "services.py").write_text("from api.identity.auth import require_account  # noqa: F401\n")
        planted.write_text("import api.zz_planted_area.services  # noqa: F401\n")
        result = lint_imports()
    finally:
        planted.unlink(missing_ok=True)
        for file in area.glob("*.py"):
            file.unlink()
        area.rmdir()
    assert result.returncode != 0
    assert "No cycle between the api's packages (a floor that imports an area closes one) BROKEN" in result.stdout


def test_the_contracts_name_no_area():
    """The contracts list the floors only: a new area needs no edit of pyproject.toml."""
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    floors = {"extensions", "tenancy", "identity", "access", "notify", "device", "telemetry"}
    for contract in contracts:
        assert contract["type"] in {"layers", "acyclic_siblings"}, contract["name"]
        assert set(contract.get("layers", ())) <= floors
        assert contract.get("ancestors", ["api"]) == ["api"]


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
