"""Style models: the design tokens and menu shape in themes/<name>/theme.json.

The web build reads the same files; the api only needs to know which names exist so that a
platform's styleModel is always one the web can draw.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any


@cache
def load_style_models(themes_dir: Path) -> dict[str, dict[str, Any]]:
    models: dict[str, dict[str, Any]] = {}
    for path in sorted(themes_dir.glob("*/theme.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("name") != path.parent.name:
            raise ValueError(f"{path}: name must equal its folder name {path.parent.name!r}")
        models[data["name"]] = data
    return models


def style_model_names(themes_dir: Path) -> list[str]:
    return list(load_style_models(themes_dir))
