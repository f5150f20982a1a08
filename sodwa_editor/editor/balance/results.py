"""The Balance Run dialog's results (:mod:`.dialog`): a note saying which run the
results are of (a cancelled or failed run leaves the previous run's results,
labelled), the report's headline (what was compared and the verdict,
:mod:`sodwa_editor.battle.report_verdict`), the swap said once and the entries
compared, the Table tab (outcomes, characters), the Abilities tab (area ability
use per archetype), one tab per plot of the HTML report, and the heat map and
export buttons.

:class:`ResultsPane` takes a report (plain data) and shows it; it knows nothing of
the run or the document.
"""

from __future__ import annotations

from typing import Any

from matplotlib.backends.backend_qtagg import FigureCanvasQTAgg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ...battle.report import TILE_KINDS, TILE_TITLES
from ...battle.report_html import FIGURES, provenance
from ...battle.report_verdict import entries_line, share_text
from ...battle.rules import rules_line

FIGURE_TABS = ("Outcomes", "Length", "Characters", "Luck && karma", "Tiles")
#: the tabs before the plots: the table and the area abilities
FIXED_TABS = 2
#: the note over results that are not of the last run asked for (cancelled, failed)
STALE_STYLE = "background: #fff1c2; color: #5a4300; padding: 3px; border: 1px solid #d9b44a"


def pct(rate: dict[str, Any]) -> str:
    lo, hi = rate["ci95"]
    return f"{100 * rate['rate']:.1f} % ({100 * lo:.1f}-{100 * hi:.1f})"


def details_text(report: dict[str, Any]) -> str:
    """The lines under the headline: the swap said once with its reason, the entries
    compared when the two sides had different AIs, profiles or team files, and the
    rules played (name, hash, the keys that differ from the defaults)."""
    swap = report["swap"]
    lines = [f"Sides swapped: {'yes' if swap['done'] else 'no'}, {swap['reason']}."]
    entries = entries_line(report)
    if entries is not None:
        lines.append(f"Entries: {entries}.")
    if "rules" in report:  # (the rules' name, hash and every key that differs)
        lines.append(rules_line(report["rules"]))
    return "\n".join(lines)


def outcome_rows(report: dict[str, Any]) -> list[tuple[str, str]]:
    """The table's outcome rows: the rates and figures (the verdict, the swap and the
    entries are said above the tabs)."""
    rows = []
    for s in report["sides"]:
        rows.append((f"{s['label']} wins", f"{pct(s['wins'])}; {share_text(s['share'])} "
                                           "of decided"))
    rows.append(("draws", pct(report["draws"])))
    rows.append(("first mover wins", pct(report["first_mover"]["wins"])))
    t, k = report["length"]["turns"], report["length"]["ticks"]
    rows.append(("length (turns)", f"median {t['median']}, p95 {t['p95']}, "
                                   f"{t['min']}-{t['max']}"))
    rows.append(("length (ticks)", f"median {k['median']}, p95 {k['p95']}"))
    for lk in report["luck"]:
        rows.append((f"{lk['side']} natural hits", f"{lk['hits']} vs expected "
                                                    f"{lk['expected_hits']:.1f}"))
    if "map_hash" in report:
        rows.append(("map", provenance(report)))
    return rows


def ability_rows(report: dict[str, Any]) -> list[tuple[Any, ...]]:
    def num(value: float | None, fmt: str) -> str:
        return "-" if value is None else format(value, fmt)

    return [(a["archetype"], a["ability"], a["uses"], num(a["uses_per_carrier"], ".2f"),
             num(a["victims_per_use"], ".2f"),
             "-" if a["hit_rate"] is None else f"{100 * a['hit_rate']:.0f} %",
             num(a["damage_per_use"], ".1f"), a["kills"], a["ally_victims"],
             a["ally_damage"]) for a in report["abilities"]]


def fill(table: QTableWidget, rows: list[tuple[Any, ...]]) -> None:
    table.setRowCount(len(rows))
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            item = QTableWidgetItem(str(value))
            item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
            table.setItem(r, c, item)
    table.resizeColumnsToContents()


class ResultsPane(QWidget):
    """Headline, note, tabs and the heat map / export row of a balance report."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("balance_results")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.note = QLabel("")
        self.note.setObjectName("balance_results_note")
        self.note.setWordWrap(True)
        self.note.hide()
        lay.addWidget(self.note)
        self.headline = QLabel("")
        self.headline.setObjectName("balance_headline")
        self.headline.setWordWrap(True)
        self.headline.setStyleSheet("font-weight: bold")
        self.headline.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        lay.addWidget(self.headline)
        self.details = QLabel("")
        self.details.setObjectName("balance_details")
        self.details.setWordWrap(True)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        lay.addWidget(self.details)
        self.tabs = QTabWidget()
        self.outcomes = QTableWidget(0, 2)
        self.outcomes.setHorizontalHeaderLabels(["", "rate (95 % Wilson interval)"])
        self.characters = QTableWidget(0, 9)
        self.characters.setHorizontalHeaderLabels(
            ["character", "side", "cost", "dealt", "taken", "kills", "survival",
             "hits", "expected hits"])
        self.abilities = QTableWidget(0, 10)
        self.abilities.setObjectName("balance_abilities")
        self.abilities.setHorizontalHeaderLabels(
            ["archetype", "area ability", "uses", "per carrier", "victims/use",
             "hit rate", "damage/use", "kills", "ally hits", "ally damage"])
        # the three tables share the tab in a splitter of their own, inside a scroll
        # area: the results area may get little height (the dialog's splitter) and
        # scrolls rather than squeezing a table below a few rows
        tables = QSplitter(Qt.Orientation.Vertical)
        tables.setObjectName("balance_tables")
        for table, rows in ((self.outcomes, 3), (self.characters, 2)):
            table.setMinimumHeight(table.horizontalHeader().sizeHint().height()
                                   + rows * table.verticalHeader().defaultSectionSize() + 4)
            table.horizontalHeader().setStretchLastSection(True)
            tables.addWidget(table)
            tables.setCollapsible(tables.count() - 1, False)
        tables.setStretchFactor(0, 1)
        tables.setStretchFactor(1, 1)
        summary = QScrollArea()
        summary.setWidgetResizable(True)
        summary.setFrameShape(QFrame.Shape.NoFrame)
        summary.setWidget(tables)
        self.tabs.addTab(summary, "Table")
        self.abilities.horizontalHeader().setStretchLastSection(True)
        self.tabs.addTab(self.abilities, "Abilities")
        lay.addWidget(self.tabs, 1)
        row = QHBoxLayout()
        self.heat_kind = QComboBox()
        for kind in TILE_KINDS:
            self.heat_kind.addItem(TILE_TITLES[kind].capitalize(), kind)
        self.heat_button = QPushButton("Show on &Map")
        self.heat_button.setToolTip("Draw the run's per-tile counts over the map (Layers dock)")
        self.export_button = QPushButton("&Export HTML...")
        self.export_button.setToolTip("The same HTML report as sodwa simulate --report")
        row.addWidget(QLabel("Heat map:"))
        row.addWidget(self.heat_kind)
        row.addWidget(self.heat_button)
        row.addStretch(1)
        row.addWidget(self.export_button)
        lay.addLayout(row)
        self.canvases: list[FigureCanvasQTAgg] = []

    def set_note(self, text: str, stale: bool = False) -> None:
        """The line over the results saying which run they are of (``stale``: not of
        the last run asked for: drawn as a warning)."""
        self.note.setText(text)
        self.note.setStyleSheet(STALE_STYLE if stale else "color: #555555")
        self.note.setVisible(bool(text))

    def show_report(self, report: dict[str, Any], figures: bool = True) -> None:
        """The headline, the tables and (``figures``) one tab per plot of ``report``."""
        self.headline.setText(report["headline"])
        self.details.setText(details_text(report))
        fill(self.outcomes, outcome_rows(report))
        fill(self.characters, [
            (c["id"], c["side"], c["cost"], f"{c['damage_dealt']:.1f}",
             f"{c['damage_taken']:.1f}", f"{c['kills']:.2f}", pct(c["survival"]), c["hits"],
             f"{c['expected_hits']:.1f}") for c in report["characters"]])
        fill(self.abilities, ability_rows(report) or [
            ("", "no character of this map or team carries an area ability")])
        if not figures:
            return
        while self.tabs.count() > FIXED_TABS:
            page = self.tabs.widget(FIXED_TABS)
            self.tabs.removeTab(FIXED_TABS)
            if page is not None:
                page.deleteLater()
        self.canvases = []
        for make, title in zip(FIGURES, FIGURE_TABS, strict=True):
            canvas = FigureCanvasQTAgg(make(report))
            self.canvases.append(canvas)
            self.tabs.addTab(canvas, title)
