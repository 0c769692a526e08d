"""The offline base map's outlines (web/public/map/countries.json): Natural Earth's 1:50m admin-0
countries (public domain), from the TopoJSON of the world-atlas package (ISC, `npm pack world-atlas@2.0.2`),
decoded, each polygon's outer ring simplified (0.1 degree, shapely) and rounded to 0.01 degree: about 300 kB,
fetched by the web only when no map key is set. Run: .venv/bin/python web/scripts/base-map.py
path/to/countries-50m.json web/public/map/countries.json"""

from __future__ import annotations

import json
import sys

from shapely import simplify
from shapely.geometry import shape

TOLERANCE = 0.1


def decode(topo: dict) -> tuple[list, list]:
    sx, sy = topo["transform"]["scale"]
    tx, ty = topo["transform"]["translate"]
    arcs = []
    for arc in topo["arcs"]:
        x = y = 0
        points = []
        for dx, dy in arc:
            x, y = x + dx, y + dy
            points.append((x * sx + tx, y * sy + ty))
        arcs.append(points)
    return arcs, topo["objects"]["countries"]["geometries"]


def ring(arcs: list, ids: list[int]) -> list:
    points: list = []
    for i in ids:
        arc = arcs[i] if i >= 0 else arcs[~i][::-1]
        points.extend(arc if not points else arc[1:])
    return points


def main(source: str, target: str) -> None:
    with open(source, encoding="utf-8") as file:
        arcs, geometries = decode(json.load(file))
    features = []
    for geometry in geometries:
        polygons = [geometry["arcs"]] if geometry["type"] == "Polygon" else geometry.get("arcs", [])
        outlines = []
        for polygon in polygons:
            simple = simplify(shape({"type": "Polygon", "coordinates": [ring(arcs, r) for r in polygon]}), TOLERANCE)
            if simple.is_empty:
                continue
            outer = [[round(x, 2), round(y, 2)] for x, y in simple.exterior.coords]
            if len(outer) >= 4:
                outlines.append([outer])
        if outlines:
            features.append(
                {
                    "type": "Feature",
                    "properties": {"name": geometry.get("properties", {}).get("name", "")},
                    "geometry": {"type": "MultiPolygon", "coordinates": outlines},
                }
            )
    document = {
        "type": "FeatureCollection",
        "source": "Natural Earth 1:50m admin-0 countries (public domain) via world-atlas 2.0.2, simplified",
        "features": features,
    }
    with open(target, "w", encoding="utf-8") as file:
        json.dump(document, file, separators=(",", ":"), ensure_ascii=False)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
