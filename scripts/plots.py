#!/usr/bin/env python3
"""Draws the manual's figures, as SVG files in docs/figures/, from the
measurements in docs/figures/data/.

Each CSV file there holds rows of the tables of docs/performance.md or of
a game's chapter, cell for cell as the page prints them ("3 m 0 s",
"1,700,160", "2.4×"), under comment lines (`#`) naming their sections,
machines, dates and commands; each figure below reads one of them. docs/figures/architecture.txt,
the layers of the code, becomes docs/figures/architecture.svg.

    python3 scripts/plots.py          # draws every figure
    python3 scripts/plots.py --check  # exit status 1, naming each figure
                                      # whose SVG differs from its data

Standard library only. The same data always give the same bytes (no dates,
coordinates to a tenth of a pixel), so --check keeps the pictures in step
with their data: change a CSV file, then run the script and commit both.
"""

import argparse
import csv
import math
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIGURES = ROOT / "docs" / "figures"
DATA = FIGURES / "data"

WIDTH = 960
MARGIN = 20
FONT = "Helvetica, Arial, sans-serif"
TITLE_SIZE = 16
NOTE_SIZE = 12
LABEL_SIZE = 12
TICK_SIZE = 11
VALUE_SIZE = 10.5
INK = "#222222"
MUTED = "#555555"
GRID = "#E3E3E3"

# Colours by meaning, the same in every figure (Okabe and Ito's palette,
# whose colours stay apart for colour-blind readers too).
ONE_THREAD = "#56B4E9"
TWO_THREADS = "#0072B2"
SIXTEEN_THREADS = "#009E73"
GPU = "#E69F00"
PAPER_CPU = "#7F7F7F"
PAPER_GPU = "#BDBDBD"
MOVING = "#0072B2"
OPENING = "#E69F00"
OTHER = "#999999"
PEERS = {
    "PuzzleSearch": "#CC79A7",
    "Amend": "#D55E00",
    "GamesmanOne": "#0072B2",
    "twsearch": "#009E73",
}
MACHINES = {"AMD EPYC": "#0072B2", "Intel Xeon": "#56B4E9"}


# Reading the data.


def read_table(name):
    """The rows of data file `name` as dictionaries, its comments skipped."""
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()
    return list(csv.DictReader(line for line in lines if not line.startswith("#")))


TIME_UNITS = {"h": 3600, "min": 60, "m": 60, "s": 1}


def seconds(text):
    """Seconds in a time as the pages print it: "42.5 s", "3 m 0 s",
    "12 min", "1,006m52s", or the paper's "54m57", its seconds unmarked.
    None for an empty cell (not measured)."""
    if not text:
        return None
    total, unit = 0.0, None
    for amount, name in re.findall(r"([0-9.]+)\s*([a-z]*)", text.replace(",", "")):
        if not name and unit == 60:
            name = "s"
        if name not in TIME_UNITS:
            raise ValueError(f"no time unit in {text!r}")
        unit = TIME_UNITS[name]
        total += float(amount) * unit
    if unit is None:
        raise ValueError(f"no time in {text!r}")
    return total


def count(text):
    return int(text.replace(",", ""))


def ratio(text):
    """A ratio as printed ("2.4×"), None for an empty cell."""
    return float(text.rstrip("×")) if text else None


# Drawing.


def number(value):
    """A coordinate to a tenth of a pixel: fixed digits, the same bytes on
    every machine."""
    text = f"{value:.1f}"
    if text.endswith(".0"):
        text = text[:-2]
    return "0" if text == "-0" else text


def escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def text_width(text, size, bold=False):
    """About how wide `text` is drawn. No font is at hand, so the average
    letter of a wide sans-serif (DejaVu Sans: about 0.55 em) stands for
    every letter; narrower fonts leave room to spare."""
    return len(text) * size * (0.6 if bold else 0.55)


def superscript(digits):
    return digits.translate(str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"))


class Svg:
    """An SVG picture built element by element; its height is set once the
    content is laid out."""

    def __init__(self, width, title):
        self.width = width
        self.height = 0
        self.title = title
        self.defs = []
        self.parts = []

    def add(self, tag, content=None, **attributes):
        written = " ".join(
            f'{key.replace("_", "-")}="{number(value) if isinstance(value, (int, float)) else escape(value)}"'
            for key, value in attributes.items()
            if value is not None
        )
        if content is None:
            self.parts.append(f"<{tag} {written}/>")
        else:
            self.parts.append(f"<{tag} {written}>{escape(content)}</{tag}>")

    def rect(self, x, y, width, height, fill, **extra):
        self.add("rect", x=x, y=y, width=width, height=height, fill=fill, **extra)

    def line(self, x1, y1, x2, y2, stroke, stroke_width=1, **extra):
        self.add("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke=stroke, stroke_width=stroke_width, **extra)

    def text(self, x, y, content, size, anchor=None, fill=INK, **extra):
        self.add("text", content, x=x, y=y, font_size=size, text_anchor=anchor, fill=fill, **extra)

    def render(self):
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{number(self.width)}" '
            f'height="{number(self.height)}" viewBox="0 0 {number(self.width)} '
            f'{number(self.height)}" font-family="{FONT}" role="img">'
        )
        lines = [head, f"<title>{escape(self.title)}</title>"]
        if self.defs:
            lines += ["<defs>", *self.defs, "</defs>"]
        lines.append(f'<rect width="{number(self.width)}" height="{number(self.height)}" fill="#FFFFFF"/>')
        lines += self.parts
        lines.append("</svg>")
        return "\n".join(lines) + "\n"


def header(svg, notes, legend):
    """The picture's title, the lines of notes under it and the legend's
    swatches; returns the height they take."""
    svg.text(MARGIN, 28, svg.title, TITLE_SIZE, font_weight="bold")
    y = 28
    for note in notes:
        y += 18
        svg.text(MARGIN, y, note, NOTE_SIZE, fill=MUTED)
    x, y = MARGIN, y + 24
    for colour, name in legend:
        room = 18 + text_width(name, NOTE_SIZE) + 28
        if x + room > WIDTH - MARGIN:
            x, y = MARGIN, y + 20
        svg.rect(x, y - 10, 12, 12, colour)
        svg.text(x + 18, y, name, NOTE_SIZE)
        x += room
    return y + (18 if legend else -6)


class LinearAxis:
    """Values from 0, ticks at a round step."""

    def __init__(self, largest, unit=""):
        rough = largest / 5
        magnitude = 10 ** math.floor(math.log10(rough))
        step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= rough)
        steps = math.ceil(largest / step - 1e-9)
        self.high = steps * step
        self.ticks = [round(step * i, 9) for i in range(steps + 1)]
        self.unit = unit

    def fraction(self, value):
        return value / self.high

    def label(self, value):
        return f"{value:g}{self.unit}"


class LogAxis:
    """Values over whole decades; ticks at each power of ten, and at 2 and
    5 times it where the axis spans three decades or fewer."""

    def __init__(self, values, unit=""):
        positive = [value for value in values if value and value > 0]
        self.low = math.floor(math.log10(min(positive)))
        self.high = max(math.ceil(math.log10(max(positive))), self.low + 1)
        multiples = (1, 2, 5) if self.high - self.low <= 3 else (1,)
        self.ticks = [
            m * 10.0**exponent
            for exponent in range(self.low, self.high + 1)
            for m in multiples
            if m == 1 or exponent < self.high
        ]
        self.unit = unit

    def fraction(self, value):
        return (math.log10(value) - self.low) / (self.high - self.low)

    def label(self, value):
        exponent = round(math.log10(value))
        if abs(exponent) >= 5 and math.isclose(value, 10.0**exponent):
            text = "10" + superscript(str(exponent))
        elif value >= 1000:
            text = f"{value:,.0f}"
        else:
            text = f"{value:g}"
        return text + self.unit


def bar_chart(title, notes, rows, axis, axis_title, legend=(), markers=(), origin=None):
    """Horizontal bars, a group of them for each labelled row.

    rows: (label, bars), each bar (value, colour, text); a bar without a
    value (not measured) is left out, its place kept. Bars start at
    `origin` (the axis' start unless given: 1 for ratios, so that a ratio
    below 1 points left). markers: (value, name), a dashed line across the
    plot, named above it."""
    svg = Svg(WIDTH, title)
    most = max(len(bars) for _, bars in rows)
    bar_height = {1: 16, 2: 12}.get(most, 9)
    row_height = bar_height * most + 12
    left = MARGIN + max(text_width(label, LABEL_SIZE) for label, _ in rows) + 12
    texts = [text for _, bars in rows for _, _, text in bars if text]
    right = WIDTH - MARGIN - max((text_width(text, VALUE_SIZE) for text in texts), default=0) - 8
    top = header(svg, notes, legend) + (18 if markers else 0)
    bottom = top + row_height * len(rows)

    def x_of(value):
        return left + axis.fraction(value) * (right - left)

    for value in axis.ticks:
        svg.line(x_of(value), top, x_of(value), bottom, GRID)
        svg.text(x_of(value), bottom + 16, axis.label(value), TICK_SIZE, "middle", MUTED)
    start = x_of(origin) if origin is not None else left
    labels = []
    for index, (label, bars) in enumerate(rows):
        y = top + index * row_height + 6
        svg.text(left - 10, y + bar_height * len(bars) / 2, label, LABEL_SIZE, "end", dy="0.35em")
        for value, colour, text in bars:
            if value is not None:
                end = x_of(value)
                svg.rect(min(start, end), y, abs(end - start), bar_height - 1, colour)
                if text:
                    labels.append((max(start, end) + 4, y, text))
            y += bar_height
    svg.line(left, bottom, right, bottom, MUTED)
    for value, name in markers:
        svg.line(x_of(value), top - 4, x_of(value), bottom, INK, 1.2, stroke_dasharray="5 3")
        svg.text(x_of(value), top - 8, name, TICK_SIZE, "middle")
    # Drawn last, each on a white ground, so that no marker's line runs
    # through the text.
    for x, y, text in labels:
        svg.rect(x - 2, y, text_width(text, VALUE_SIZE) + 4, bar_height - 1, "#FFFFFF")
        svg.text(x, y + bar_height / 2, text, VALUE_SIZE, fill=MUTED, dy="0.35em")
    svg.text((left + right) / 2, bottom + 38, axis_title, LABEL_SIZE, "middle")
    svg.height = bottom + 56
    return svg.render()


class ColumnFrame:
    """The frame of a chart over labelled columns: title, notes, legend,
    the value axis up the left side and the columns' labels along the
    bottom. `x` is a column's middle, `y` a value's height."""

    def __init__(self, svg, notes, labels, axis, axis_title, x_title, legend):
        self.axis = axis
        self.left, self.right = MARGIN + 70, WIDTH - MARGIN
        self.top = header(svg, notes, legend) + 8
        self.bottom = self.top + 300
        self.slot = (self.right - self.left) / len(labels)
        for value in axis.ticks:
            svg.line(self.left, self.y(value), self.right, self.y(value), GRID)
            svg.text(self.left - 6, self.y(value), axis.label(value), TICK_SIZE, "end", MUTED, dy="0.35em")
        for index, label in enumerate(labels):
            svg.text(self.x(index), self.bottom + 16, label, TICK_SIZE, "middle", MUTED)
        svg.line(self.left, self.bottom, self.right, self.bottom, MUTED)
        svg.text((self.left + self.right) / 2, self.bottom + 38, x_title, LABEL_SIZE, "middle")
        middle = (self.top + self.bottom) / 2
        turn = f"rotate(-90 {number(MARGIN + 4)} {number(middle)})"
        svg.text(MARGIN + 4, middle, axis_title, LABEL_SIZE, "middle", transform=turn)
        svg.height = self.bottom + 56

    def x(self, index):
        return self.left + self.slot * (index + 0.5)

    def y(self, value):
        return self.bottom - self.axis.fraction(value) * (self.bottom - self.top)


def column_chart(title, notes, columns, axis, axis_title, x_title, legend=()):
    """Vertical bars, a group of them for each labelled column; the bars
    as in `bar_chart`, their texts written above them."""
    svg = Svg(WIDTH, title)
    frame = ColumnFrame(svg, notes, [label for label, _ in columns], axis, axis_title, x_title, legend)
    bar_width = frame.slot * 0.76 / max(len(bars) for _, bars in columns)
    for index, (_, bars) in enumerate(columns):
        x = frame.x(index) - bar_width * len(bars) / 2
        for value, colour, text in bars:
            if value is not None and value > 0:
                top = frame.y(value)
                svg.rect(x, top, bar_width - 1, frame.bottom - top, colour)
                if text:
                    svg.text(x + bar_width / 2, top - 4, text, VALUE_SIZE, "middle", MUTED)
            x += bar_width
    return svg.render()


def profile_chart(title, notes, labels, lines, axis, axis_title, x_title, legend=()):
    """Values over labelled columns as dots joined by lines: `lines` are
    (colour, points), each point (column index, value). Dots, unlike
    bars, still show a value at the foot of a log scale (a layer of one
    position)."""
    svg = Svg(WIDTH, title)
    frame = ColumnFrame(svg, notes, labels, axis, axis_title, x_title, legend)
    for colour, points in lines:
        path = " ".join(f"{number(frame.x(index))},{number(frame.y(value))}" for index, value in points)
        svg.add("polyline", points=path, fill="none", stroke=colour, stroke_width=1.5)
        for index, value in points:
            svg.add("circle", cx=frame.x(index), cy=frame.y(value), r=3.5, fill=colour)
    return svg.render()


# The figures.


def values(groups):
    """Every value of a chart's bars, for its axis."""
    return [value for _, bars in groups for value, _, _ in bars]


def gpu_against_threads(name, gpu, gpu_name, title, note):
    """The 16-thread time and the GPU's of each run of data file `name`,
    the GPU's labelled with the page's speed-up."""
    rows = [
        (
            row["run"],
            [
                (seconds(row["cpu_16_threads"]), SIXTEEN_THREADS, row["cpu_16_threads"]),
                (seconds(row[gpu]), GPU, f"{row[gpu]}, {row['speedup']} faster"),
            ],
        )
        for row in read_table(name)
    ]
    return bar_chart(
        title,
        [note],
        rows,
        LogAxis(values(rows)),
        "seconds, log scale (shorter is faster)",
        [(SIXTEEN_THREADS, "16 CPU threads"), (GPU, gpu_name)],
    )


def gpu_search():
    return gpu_against_threads(
        "gpu-search.csv",
        "h100",
        "NVIDIA H100",
        "Searches: one GPU against 16 CPU threads",
        "bitsolve bench <game> --no-single-thread, whole search calls, one run each;"
        " the host an Intel Xeon (docs/performance.md)",
    )


def gpu_retro():
    return gpu_against_threads(
        "gpu-retro.csv",
        "h200",
        "NVIDIA H200",
        "Retrograde analysis: one GPU against 16 CPU threads",
        "bitsolve bench <game> --algo retro --no-single-thread, one run each, 2026-11-27"
        " (docs/performance.md)",
    )


SEARCH_MACHINES = [
    ("paper_cpu", PAPER_CPU, "the paper: one core (2010)"),
    ("paper_gpu", PAPER_GPU, "the paper: its GPU"),
    ("epyc_1_thread", ONE_THREAD, "AMD EPYC, 1 thread"),
    ("epyc_2_threads", TWO_THREADS, "AMD EPYC, 2 threads"),
    ("xeon_16_threads", SIXTEEN_THREADS, "16 threads (Intel Xeon)"),
    ("h100", GPU, "NVIDIA H100"),
]


def search_machines():
    rows = [
        (row["run"], [(seconds(row[column]), colour, row[column]) for column, colour, _ in SEARCH_MACHINES])
        for row in read_table("search-machines.csv")
    ]
    return bar_chart(
        "The same searches on every machine",
        [
            "The paper's times beside bitsolve's on a 2-core AMD EPYC and on an H100 and its host;",
            "an empty place: not measured (docs/performance.md, Searches on the CPU and GPU)",
        ],
        rows,
        LogAxis(values(rows)),
        "seconds, log scale (shorter is faster)",
        [(colour, name) for _, colour, name in SEARCH_MACHINES],
    )


def threads():
    rows = []
    for row in read_table("threads.csv"):
        speedup = seconds(row["one_thread"]) / seconds(row["two_threads"])
        text = f"{row['one_thread']} → {row['two_threads']}: {speedup:.2f}×"
        rows.append((row["workload"], [(speedup, MACHINES[row["machine"]], text)]))
    return bar_chart(
        "Two threads against one",
        ["bitsolve's speed-up from a second thread on 2-core machines, whole process (docs/performance.md)"],
        rows,
        LinearAxis(2.0, "×"),
        "one thread's time ÷ two threads'",
        [(colour, f"{machine}, 2 cores") for machine, colour in MACHINES.items()],
        markers=[(2.0, "2×: both cores busy")],
    )


def peers():
    rows = []
    for row in read_table("peers.csv"):
        speedup = ratio(row["speedup"]) or seconds(row["peer_time"]) / seconds(row["bitsolve"])
        printed = row["speedup"] or f"{speedup:.1f}×"
        label = row["workload"] + (", 2 threads" if row["threads"] == "2" else "")
        text = f"{printed} ({row['peer_time']} ÷ {row['bitsolve']})"
        rows.append((label, [(speedup, PEERS[row["peer"]], text)]))
    return bar_chart(
        "bitsolve against its peers",
        [
            "The peer's time ÷ bitsolve's on the same machine, one thread unless said"
            " (docs/performance.md);",
            "right of 1× bitsolve is faster, left of it slower",
        ],
        rows,
        LogAxis(values(rows), "×"),
        "speed-up, log scale",
        [(colour, peer) for peer, colour in PEERS.items()],
        markers=[(1.0, "1×: as fast")],
        origin=1.0,
    )


def layer_sizes(name, layer, column, title, note, x_title, colour_of=lambda row: TWO_THREADS, legend=()):
    """The counts of data file `name`'s layers as a profile on a log
    scale, a line for each colour that `colour_of` gives a row."""
    rows = read_table(name)
    lines = {}
    for index, row in enumerate(rows):
        lines.setdefault(colour_of(row), []).append((index, count(row[column])))
    return profile_chart(
        title,
        [note],
        [row[layer] for row in rows],
        list(lines.items()),
        LogAxis([value for points in lines.values() for _, value in points]),
        f"{column}, log scale",
        x_title,
        legend,
    )


def morris_layers():
    return layer_sizes(
        "morris-layers.csv",
        "layer",
        "positions",
        "Nine Men's Morris: positions per layer",
        "Layers 5..18: stones on the board, both sides to move; 19..36: stones in hand"
        " (docs/guide/morris.md)",
        "layer",
        lambda row: MOVING if row["phase"] == "moving" else OPENING,
        [(MOVING, "moving phase"), (OPENING, "opening")],
    )


def pancake_14_layers():
    return layer_sizes(
        "pancake-14-layers.csv",
        "depth",
        "stacks",
        "Pancake 14: stacks at each depth",
        "bitsolve bfs pancake --n 14 --store DIR --memory 11G; 14! stacks, none deeper than 16"
        " (docs/performance.md)",
        "depth (flips from the sorted stack)",
    )


def fox_geese_layers():
    return layer_sizes(
        "fox-geese-layers.csv",
        "g",
        "states",
        "Fox-and-Geese: states per layer",
        "Layer g: the fox and g geese on the board, both sides to move (docs/guide/fox-and-geese.md)",
        "geese on the board (g)",
    )


def fox_geese_times():
    columns = [
        (
            row["g"],
            [(seconds(row["time_here"]), TWO_THREADS, None), (seconds(row["paper_time"]), PAPER_CPU, None)],
        )
        for row in read_table("fox-geese-layers.csv")
    ]
    return column_chart(
        "Fox-and-Geese under --capture-wins: each layer's time",
        [
            "bitsolve on a 2-core AMD EPYC, 2 threads, against the paper's Table 7 (8 cores);",
            "times that round to 0.00 s have no bar (docs/guide/fox-and-geese.md)",
        ],
        columns,
        LogAxis(values(columns)),
        "seconds, log scale",
        "geese on the board (g)",
        [(TWO_THREADS, "bitsolve, 2 threads"), (PAPER_CPU, "the paper")],
    )


def morris_layer_times():
    def colour(layer):
        if layer == "rest":
            return OTHER
        return MOVING if int(layer) <= 18 else OPENING

    columns = [
        (row["layer"], [(float(row["seconds"]), colour(row["layer"]), row["seconds"])])
        for row in read_table("morris-layer-times.csv")
    ]
    return column_chart(
        "The whole Nine Men's Morris: each layer's wall time",
        ["One process, two threads, 2-core AMD EPYC, 1,396 s in all (docs/guide/morris.md)"],
        columns,
        LinearAxis(max(values(columns))),
        "seconds",
        "layer (rest: the other layers together)",
        [(MOVING, "moving phase"), (OPENING, "opening"), (OTHER, "the other layers")],
    )


# The architecture.


class Box:
    """A box of the architecture: its name for the edges, its label's
    lines (the first its title) and, once laid out, where it stands."""

    def __init__(self, name):
        self.name = name
        self.lines = []
        self.x = self.y = self.width = self.height = 0.0

    @property
    def centre(self):
        return self.x + self.width / 2


def read_architecture(text):
    """Rows of boxes, top row first, and the edges between them by name:
    the format that docs/figures/architecture.txt describes."""
    rows, edges, box = [], [], None
    for line_number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        words = line.split()
        if raw[0].isspace() and box is not None:
            box.lines.append(line)
        elif words == ["row"]:
            rows.append([])
            box = None
        elif words[0] == "node" and len(words) == 2 and rows:
            box = Box(words[1])
            rows[-1].append(box)
        elif words[0] == "edge" and len(words) == 3:
            edges.append((words[1], words[2]))
        else:
            raise ValueError(f"architecture.txt:{line_number}: cannot read {line!r}")
    names = [box.name for row in rows for box in row]
    for row in rows:
        for box in row:
            if not box.lines:
                raise ValueError(f"architecture.txt: box {box.name!r} has no label")
    for name in (end for edge in edges for end in edge):
        if name not in names:
            raise ValueError(f"architecture.txt: an edge names {name!r}, which is no box")
    return rows, edges


ARCHITECTURE_TITLE = 13
ARCHITECTURE_LINE = 11.5
ARCHITECTURE_LEADING = 16
BOX_PADDING = 10
ROW_GAP = 34
BOX_GAP = 40


def lay_out(rows):
    """Sizes each box to its label, centres each row; returns the width and
    height of the picture."""
    for row in rows:
        for box in row:
            title, *rest = box.lines
            box.width = 2 * BOX_PADDING + max(
                [text_width(title, ARCHITECTURE_TITLE, bold=True)]
                + [text_width(line, ARCHITECTURE_LINE) for line in rest]
            )
            box.height = 2 * BOX_PADDING + ARCHITECTURE_LEADING * len(box.lines) - 4
    row_widths = [sum(box.width for box in row) + BOX_GAP * (len(row) - 1) for row in rows]
    width = max(row_widths) + 2 * MARGIN
    y = 64
    for row, row_width in zip(rows, row_widths):
        x = (width - row_width) / 2
        for box in row:
            box.x, box.y = x, y
            x += box.width + BOX_GAP
        y += max(box.height for box in row) + ROW_GAP
    return width, y - ROW_GAP + MARGIN


def edge_ends(source, target):
    """Where an arrow leaves `source` and reaches `target`: the facing
    sides, each end moved from the box's middle towards the other box so
    that arrows into one box do not meet in a point."""

    def towards(box, other):
        shift = max(-box.width / 4, min(box.width / 4, other.centre - box.centre))
        return box.centre + shift

    if source.y > target.y:
        return towards(source, target), source.y, towards(target, source), target.y + target.height
    return towards(source, target), source.y + source.height, towards(target, source), target.y


def architecture():
    rows, edges = read_architecture((FIGURES / "architecture.txt").read_text(encoding="utf-8"))
    width, height = lay_out(rows)
    svg = Svg(width, "The layers of the code")
    svg.height = height
    svg.defs.append(
        '<marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" '
        f'markerHeight="7" orient="auto"><path d="M0,0L10,5L0,10z" fill="{MUTED}"/></marker>'
    )
    svg.text(MARGIN, 28, svg.title, TITLE_SIZE, font_weight="bold")
    note = "Each layer imports only the layers below it; an arrow leads to a layer built on another."
    svg.text(MARGIN, 46, note, NOTE_SIZE, fill=MUTED)
    boxes = {box.name: box for row in rows for box in row}
    for source, target in edges:
        x1, y1, x2, y2 = edge_ends(boxes[source], boxes[target])
        svg.line(x1, y1, x2, y2, MUTED, 1.4, marker_end="url(#arrow)")
    for box in boxes.values():
        svg.rect(box.x, box.y, box.width, box.height, "#EEF5FB", stroke=TWO_THREADS, rx=6)
        y = box.y + BOX_PADDING + ARCHITECTURE_TITLE - 1
        svg.text(box.centre, y, box.lines[0], ARCHITECTURE_TITLE, "middle", font_weight="bold")
        for line in box.lines[1:]:
            y += ARCHITECTURE_LEADING
            svg.text(box.centre, y, line, ARCHITECTURE_LINE, "middle", MUTED)
    return svg.render()


DRAWINGS = {
    "gpu-search.svg": gpu_search,
    "gpu-retro.svg": gpu_retro,
    "search-machines.svg": search_machines,
    "threads.svg": threads,
    "peers.svg": peers,
    "pancake-14-layers.svg": pancake_14_layers,
    "morris-layers.svg": morris_layers,
    "morris-layer-times.svg": morris_layer_times,
    "fox-geese-layers.svg": fox_geese_layers,
    "fox-geese-times.svg": fox_geese_times,
    "architecture.svg": architecture,
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1, naming each SVG file that differs from what its data draw",
    )
    check = parser.parse_args().check
    stale = []
    for name, draw in DRAWINGS.items():
        drawn = draw().encode("utf-8")
        path = FIGURES / name
        if check:
            if not path.is_file() or path.read_bytes() != drawn:
                stale.append(name)
        else:
            path.write_bytes(drawn)
    for name in stale:
        print(
            f"docs/figures/{name} is missing or differs from what scripts/plots.py draws"
            " from its data: run python3 scripts/plots.py",
            file=sys.stderr,
        )
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
