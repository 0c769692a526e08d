"""`python -m bench [--quick] [name ...]`: run every benchmark module (or the named ones); --quick runs
each at its smallest size (bench/_util.py: QUICK), to check that it runs, not to measure."""

from __future__ import annotations

import importlib
import os
import pkgutil
import sys
import traceback

import bench


def modules() -> list[str]:
    """Every benchmark module (helpers start with an underscore)."""
    return sorted(m.name for m in pkgutil.iter_modules(bench.__path__) if not m.name.startswith("_"))


def main(arguments: list[str]) -> None:
    if "--quick" in arguments:
        os.environ["BENCH_QUICK"] = "1"  # read by bench._util as the modules import it
    names = [name for name in arguments if name != "--quick"]
    failed = []
    for name in names or modules():
        print(f"# bench {name}", flush=True)
        try:
            importlib.import_module(f"bench.{name}").run()
        except Exception:  # one broken module must not hide the figures of the others
            traceback.print_exc()
            failed.append(name)
    if failed:
        sys.exit(f"benchmarks failed: {', '.join(failed)}")


if __name__ == "__main__":
    main(sys.argv[1:])
