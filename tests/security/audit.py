"""`make audit`: bandit on the api, pip-audit on requirements.lock, npm audit (high) on the lock file.

Findings fail the run unless `tests/security/allowlist.json` names them with a reason. The two
advisory services are reached through the package registries; when a registry does not serve its
advisory endpoint (some mirrors answer 404/405), the run says so loudly, audits the Python pins it
can from the registry's package documents (their `vulnerabilities` list is about the latest release,
so a pin is audited that way only when it is that release) and does not pretend the rest passed.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
ALLOWLIST = json.loads((Path(__file__).with_name("allowlist.json")).read_text(encoding="utf-8"))
PYPI = "https://pypi.org/pypi"
NPM_LEVELS = ("high", "critical")


def run(command: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)


def bandit() -> list[str]:
    """Medium and high severity findings of the api (low ones are style: asserts, random in the simulator)."""
    result = run([str(BIN / "bandit"), "-q", "-r", "api", "-x", "api/migrations", "-ll", "-f", "json"])
    report = json.loads(result.stdout or "{}")
    problems = []
    for issue in report.get("results", []):
        key = f"{issue['test_id']}:{issue['filename']}"
        if key in ALLOWLIST["bandit"]:
            continue
        problems.append(f"bandit {issue['test_id']} {issue['filename']}:{issue['line_number']} {issue['issue_text']}")
    print(f"audit bandit: {len(report.get('results', []))} medium+ finding(s), {len(problems)} not allowed")
    return problems


def normalize(name: str) -> str:
    return name.strip().lower().replace("_", "-").replace(".", "-")


def _pins() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "requirements.lock").read_text(encoding="utf-8").splitlines():
        name, sep, version = line.strip().partition("==")
        if sep:
            pins[normalize(name)] = version
    return pins


def _registry_vulnerabilities(name: str, version: str) -> list[dict] | None:
    """Advisories for `name==version` from the registry's package document, or None if it cannot tell."""
    try:
        answer = requests.get(f"{PYPI}/{name}/json", timeout=20)
    except requests.RequestException:
        return None
    if answer.status_code != 200:
        return None
    document = answer.json()
    if document.get("info", {}).get("version") != version:
        return None
    return document.get("vulnerabilities") or []


def pip_audit() -> list[str]:
    result = run(
        [
            str(BIN / "pip-audit"),
            "-r",
            "requirements.lock",
            "--no-deps",
            "--disable-pip",
            "--progress-spinner",
            "off",
            "-f",
            "json",
        ]
    )
    try:
        report = json.loads(result.stdout)
    except ValueError:
        print(f"audit pip-audit: could not run ({result.stderr.strip()[-300:]})")
        report = {"dependencies": [{"name": n, "skip_reason": "pip-audit failed"} for n in _pins()]}
    pins = _pins()
    found: list[tuple[str, str, str, list[str]]] = []  # name, version, id, fixed in
    unaudited = []
    audited = 0
    for dependency in report["dependencies"]:
        name = normalize(dependency["name"])
        if "skip_reason" not in dependency:
            audited += 1
            found += [(name, dependency["version"], v["id"], v.get("fix_versions", [])) for v in dependency["vulns"]]
            continue
        version = pins.get(name, "")
        vulnerabilities = _registry_vulnerabilities(name, version)
        if vulnerabilities is None:
            unaudited.append(f"{name}=={version}")
            continue
        audited += 1
        found += [(name, version, v["id"], v.get("fixed_in", [])) for v in vulnerabilities]
    problems = [
        f"pip-audit {name}=={version} {vid} (fixed in {', '.join(fixed) or 'no release'})"
        for name, version, vid, fixed in found
        if vid not in ALLOWLIST["python"]
    ]
    print(
        f"audit pip-audit: {audited} of {len(pins)} pins audited, {len(found)} advisories, {len(problems)} not allowed"
    )
    if unaudited:
        print(
            f"audit pip-audit: WARNING the registry gave no advisory data for {len(unaudited)}: {' '.join(unaudited)}"
        )
    return problems


def npm_audit() -> list[str]:
    result = run(["npm", "audit", "--audit-level=high", "--json", "--omit=optional"])
    try:
        report = json.loads(result.stdout)
    except ValueError:
        report = {}
    if "vulnerabilities" not in report:
        said = [line for line in result.stderr.splitlines() if "audit" in line and "log of this run" not in line]
        error = report.get("error", {}).get("summary") or "; ".join(said[-2:]) or "no answer"
        print(f"audit npm: WARNING the registry's advisory endpoint did not answer ({error}); nothing audited")
        return []
    problems = []
    for name, entry in report["vulnerabilities"].items():
        if entry.get("severity") not in NPM_LEVELS or name in ALLOWLIST["npm"]:
            continue
        problems.append(f"npm {name} {entry['severity']} {entry.get('range', '')}")
    print(f"audit npm: {len(report['vulnerabilities'])} advisories, {len(problems)} high or critical not allowed")
    return problems


def main() -> int:
    problems = bandit() + pip_audit() + npm_audit()
    for problem in problems:
        print(f"  {problem}")
    print("audit: ok" if not problems else f"audit: {len(problems)} finding(s) to fix or allow with a reason")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
