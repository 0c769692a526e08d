"""`python -m bench [name ...]`: run every benchmark module (or the named ones)."""

from __future__ import annotations

import importlib
import pkgutil
import sys

import bench


def main(names: list[str]) -> None:
    modules = names or sorted(m.name for m in pkgutil.iter_modules(bench.__path__) if not m.name.startswith("_"))
    for name in modules:
        importlib.import_module(f"bench.{name}").run()


if __name__ == "__main__":
    main(sys.argv[1:])
