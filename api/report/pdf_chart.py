"""The PDF report's chart: one y axis per unit (the first unit, temperature, on the left, the second
on the right, each titled with its unit), the limit lines over the time each was in force (a change
inside the range steps them), each labelled with its side and value, gaps shaded and not bridged.
More than two units: a chart per pair of units, so no axis is ever shared by two units."""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask_babel import gettext
from reportlab.graphics.charts.axes import YValueAxis
from reportlab.graphics.charts.lineplots import LinePlot
from reportlab.graphics.shapes import Drawing, Line, Rect, String
from reportlab.lib import colors
from reportlab.lib.units import mm

from api.report.calibration_marks import corrects
from api.report.kinds import Sensor, Subject
from api.report.pdf_tables import FRAME_WIDTH
from api.report.stats import SeriesStats
from api.telemetry.queries import chart

if TYPE_CHECKING:
    from api.report.pdf import Report
    from api.report.present import Units

CHART_COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b")
LIMIT_COLOUR = colors.HexColor("#d62728")
CHART_HEIGHT = 62 * mm
SIDE_ROOM = 14 * mm  # each side: the axis' tick labels and title


def unit_axes(sensors: list[Sensor], units: Units) -> list[tuple[str, list[Sensor]]]:
    """The sensors grouped by unit, one axis each, temperature first (left), in the sensors' order."""
    axes: dict[str, list[Sensor]] = {}
    for sensor in sorted(sensors, key=lambda s: not s.temperature):
        axes.setdefault(units.label(sensor), []).append(sensor)
    return list(axes.items())


def limit_segments(
    sensor: Sensor, stats: dict[int, SeriesStats] | None, start_s: float, end_s: float
) -> list[tuple[float, float, str, float]]:
    """(from s, to s, side, value in the basic unit) of each limit over the time it was in force."""
    periods = stats[sensor.probe].periods if stats and sensor.probe in stats else []
    bounds = [(p.start.timestamp(), p.lower, p.upper) for p in periods] or [(start_s, sensor.lower, sensor.upper)]
    segments = []
    for i, (t0, lower, upper) in enumerate(bounds):
        t1 = bounds[i + 1][0] if i + 1 < len(bounds) else end_s
        for side, value in (("lower", lower), ("upper", upper)):
            if value is not None and t1 > max(t0, start_s):
                segments.append((max(t0, start_s), t1, side, value))
    return segments


def chart_drawings(report: Report, subject: Subject, stats: dict[int, SeriesStats] | None = None) -> list[Drawing]:
    units = report.p.units
    data = chart(
        subject.device.id,
        [s.probe for s in subject.sensors],
        subject.start,
        subject.end,
        subject.device.interval_s,
        correct=corrects(subject),
    )
    runs: dict[int, list[list[tuple[float, float]]]] = {}
    for sensor in subject.sensors:
        mine, current = [], []
        for point in data["series"].get(sensor.probe, []):
            seconds = point["t"] / 1000  # the chart's points carry epoch ms at every range
            if point["v"] is None:  # a gap ends a line: nothing is drawn across it
                if current:
                    mine.append(current)
                current = []
                continue
            current.append((seconds, units.value(sensor, point["v"])))
        if current:
            mine.append(current)
        if mine:
            runs[sensor.probe] = [run if len(run) > 1 else [run[0], run[0]] for run in mine]
    shown = [s for s in subject.sensors if s.probe in runs]
    if not shown:
        drawing = Drawing(FRAME_WIDTH, CHART_HEIGHT)
        drawing.add(
            String(
                FRAME_WIDTH / 2,
                CHART_HEIGHT / 2,
                gettext("No data in this range"),
                fontName=report.font,
                fontSize=9,
                textAnchor="middle",
            )
        )
        return [drawing]
    axes = unit_axes(shown, units)
    colour = {s.probe: colors.HexColor(CHART_COLOURS[i % len(CHART_COLOURS)]) for i, s in enumerate(shown)}
    return [
        _drawing(report, subject, stats, axes[i : i + 2], runs, colour, data["gaps"]) for i in range(0, len(axes), 2)
    ]


def _drawing(report, subject, stats, axes, runs, colour, gaps) -> Drawing:
    units, local = report.p.units, report.p.local_time
    width, height = FRAME_WIDTH, CHART_HEIGHT
    drawing = Drawing(width, height)
    start_s, end_s = subject.start.timestamp(), subject.end.timestamp()
    x, y, plot_width, plot_height = SIDE_ROOM, 10 * mm, width - 2 * SIDE_ROOM, height - 18 * mm
    x_scale = plot_width / (end_s - start_s)
    for sensor_gaps in gaps.values():  # shaded: nobody measured there
        for gap in sensor_gaps:
            x0 = x + max(0.0, gap["start"] / 1000 - start_s) * x_scale
            x1 = x + min(end_s - start_s, gap["end"] / 1000 - start_s) * x_scale
            if x1 > x0:
                drawing.add(Rect(x0, y, x1 - x0, plot_height, fillColor=colors.HexColor("#eeeeee"), strokeColor=None))
    for side, (label, sensors) in zip(("left", "right"), axes, strict=False):
        segments = [(s, seg) for s in sensors for seg in limit_segments(s, stats, start_s, end_s)]
        values = [v for s in sensors for run in runs[s.probe] for _t, v in run]
        values += [units.value(s, value) for s, (_t0, _t1, _side, value) in segments]
        low, high = min(values), max(values)
        pad = max((high - low) * 0.08, 0.5)
        plot = LinePlot()
        plot.x, plot.y, plot.width, plot.height = x, y, plot_width, plot_height
        lines = [(s, run) for s in sensors for run in runs[s.probe]]
        plot.data = [run for _s, run in lines]
        plot.yValueAxis.valueMin, plot.yValueAxis.valueMax = low - pad, high + pad
        plot.xValueAxis.valueMin, plot.xValueAxis.valueMax = start_s, end_s
        plot.xValueAxis.valueSteps = [start_s + (end_s - start_s) * i / 5 for i in range(6)]
        plot.xValueAxis.labelTextFormat = lambda s: local(int(s * 1000))[5:16]
        for axis in (plot.xValueAxis, plot.yValueAxis):
            axis.labels.fontName = report.font
            axis.labels.fontSize = 6.5
        for i, (sensor, _run) in enumerate(lines):
            plot.lines[i].strokeColor = colour[sensor.probe]
            plot.lines[i].strokeWidth = 0.8
        if side == "right":
            plot.xValueAxis.visible = False
            plot.yValueAxis.visible = False
        drawing.add(plot)
        if side == "right":
            drawing.add(_right_axis(report, plot))
        title_x = x - 2 if side == "left" else x + plot_width + 2
        drawing.add(
            String(
                title_x,
                y + plot_height + 3,
                label,
                fontName=report.font,
                fontSize=7,
                textAnchor="end" if side == "left" else "start",
            )
        )
        y_scale = plot_height / (plot.yValueAxis.valueMax - plot.yValueAxis.valueMin)
        for sensor, (t0, t1, which, value) in segments:
            shown = units.value(sensor, value)
            line_y = y + (shown - plot.yValueAxis.valueMin) * y_scale
            x0, x1 = x + (t0 - start_s) * x_scale, x + (t1 - start_s) * x_scale
            drawing.add(Line(x0, line_y, x1, line_y, strokeColor=LIMIT_COLOUR, strokeWidth=0.6, strokeDashArray=[3, 2]))
            text = limit_label(sensor, which, shown, label, len(sensors) > 1)
            anchor, at = ("start", x0 + 2) if side == "left" else ("end", x1 - 2)
            drawing.add(
                String(
                    at,
                    line_y + (1.5 if which == "upper" else -6.5),
                    text,
                    fontName=report.font,
                    fontSize=6,
                    fillColor=LIMIT_COLOUR,
                    textAnchor=anchor,
                )
            )
    legend = [s for _label, sensors in axes for s in sensors]
    for i, sensor in enumerate(legend):
        drawing.add(
            String(
                x + 4 + i * 45 * mm,
                height - 4 * mm,
                f"— {sensor.name} ({units.label(sensor)})",
                fontName=report.font,
                fontSize=7,
                fillColor=colour[sensor.probe],
            )
        )
    return drawing


def limit_label(sensor: Sensor, side: str, value: float, unit: str, named: bool) -> str:
    """ "Upper 8.0 °C" ("Probe 1 upper 8.0 °C" when several sensors share the axis)."""
    number = f"{value:.{sensor.precision}f}"
    if named:
        if side == "upper":
            return gettext("%(sensor)s upper %(value)s %(unit)s", sensor=sensor.name, value=number, unit=unit)
        return gettext("%(sensor)s lower %(value)s %(unit)s", sensor=sensor.name, value=number, unit=unit)
    if side == "upper":
        return gettext("Upper %(value)s %(unit)s", value=number, unit=unit)
    return gettext("Lower %(value)s %(unit)s", value=number, unit=unit)


def _right_axis(report: Report, plot: LinePlot) -> YValueAxis:
    """The second unit's axis on the plot's right edge, labels outside."""
    axis = YValueAxis()
    axis.setPosition(plot.x + plot.width, plot.y, plot.height)
    axis.valueMin, axis.valueMax = plot.yValueAxis.valueMin, plot.yValueAxis.valueMax
    axis.tickLeft, axis.tickRight = 0, 3
    axis.labels.boxAnchor, axis.labels.dx = "w", 5
    axis.labels.fontName, axis.labels.fontSize = report.font, 6.5
    axis.configure([[(0, axis.valueMin), (0, axis.valueMax)]])
    return axis
