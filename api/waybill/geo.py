"""Fence geometry with shapely and pyproj: no hand-written trigonometry.

A fence is drawn in a local azimuthal equidistant projection centred on it (metres), so circles
are true circles and polygon edges are measured in metres. Crossings use hysteresis: a position is
inside when it is at least `margin` metres within the fence, outside when at least `margin` metres
beyond it, and in the band between it keeps the last state, so a tracker wobbling on the border
raises exactly one event each way.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from pyproj import Geod, Transformer
from shapely.geometry import Point, Polygon

GEOD = Geod(ellps="WGS84")
HYSTERESIS_M = 50.0  # the border band, at most a quarter of the fence's size
MAX_RADIUS_M = 100_000.0


@functools.lru_cache(maxsize=1024)
def _to_local(lat: float, lng: float) -> Transformer:
    return Transformer.from_crs(
        "EPSG:4326", f"+proj=aeqd +lat_0={lat} +lon_0={lng} +datum=WGS84 +units=m", always_xy=True
    )


@dataclass(frozen=True)
class Shape:
    """A fence in metres around its own centre."""

    lat: float
    lng: float
    area: Polygon | Point
    radius: float | None

    def local(self, lat: float, lng: float) -> Point:
        x, y = _to_local(self.lat, self.lng).transform(lng, lat)
        return Point(x, y)

    @property
    def margin(self) -> float:
        size = self.radius if self.radius is not None else self.area.minimum_rotated_rectangle.length / 8
        return min(HYSTERESIS_M, max(size, 1.0) / 4)

    def signed_distance(self, lat: float, lng: float) -> float:
        """Metres outside the fence (negative: inside)."""
        point = self.local(lat, lng)
        if self.radius is not None:
            return point.distance(self.area) - self.radius
        if self.area.contains(point):
            return -self.area.exterior.distance(point)
        return self.area.distance(point)

    def classify(self, lat: float, lng: float, previous: bool | None) -> bool | None:
        """True inside, False outside; in the border band the previous state (None if unknown)."""
        distance = self.signed_distance(lat, lng)
        if distance <= -self.margin:
            return True
        if distance >= self.margin:
            return False
        return previous


def circle(lat: float, lng: float, radius: float) -> Shape:
    return Shape(lat, lng, Point(0.0, 0.0), radius)


def polygon(points: list[list[float]]) -> Shape:
    """points: [[lat, lng], ...] (three to ten); raises ValueError for an outline crossing itself."""
    centre = Polygon([(lng, lat) for lat, lng in points]).centroid
    transform = _to_local(centre.y, centre.x)
    local = Polygon([transform.transform(lng, lat) for lat, lng in points])
    if not local.is_valid or local.area <= 0:
        raise ValueError("invalid polygon")
    return Shape(centre.y, centre.x, local, None)


def track_length(positions: list[tuple[float, float]]) -> float:
    """Geodesic length in metres of [(lat, lng), ...]."""
    if len(positions) < 2:
        return 0.0
    return float(GEOD.line_length([lng for _, lng in positions], [lat for lat, _ in positions]))


def distance(a, b) -> float:
    """Geodesic metres between two positions (anything with .lat and .lng)."""
    _, _, metres = GEOD.inv(a.lng, a.lat, b.lng, b.lat)
    return float(metres)


def offset(lat: float, lng: float, bearing: float, metres: float) -> tuple[float, float]:
    """The position `metres` away on `bearing` (degrees): for simulated routes and tests."""
    lng2, lat2, _ = GEOD.fwd(lng, lat, bearing, metres)
    return lat2, lng2
