"""Inspector dock: the selected tile, border, character or object, with its
values editable.  Every edit goes through the Document (undoable).

The dock takes the document and the editing state (whose selection it shows);
what it refuses itself (attributes it cannot read) it says through
:attr:`InspectorDock.message`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ...engine.model import INDOOR_DEFAULT, INDOOR_YES, MAX_ELEVATION, MAX_MOVE, MAX_RANGE, Edge
from ...engine.terrain import BORDER_BASES, Base
from ...io.schemas import map_text_limits
from ..geometry import edge_changes_elevation, elevation_changes_at
from ..properties.commands import Owner
from ..properties.inspector_section import TilePropertiesView, custom_box, light_radius_spin
from .creature_size import CreatureSizeEditor

if TYPE_CHECKING:
    from ..document import Document
    from ..tools.base import EditorState

INDOOR_LABELS = (("map default", None), ("indoor", True), ("outdoor", False))


def _indoor_index(code: int) -> int:
    return 0 if code == INDOOR_DEFAULT else (1 if code == INDOOR_YES else 2)


def parse_attributes(text: str) -> dict[str, int]:
    """``"health=10, defense=90"`` -> ``{"health": 10, "defense": 90}``; an empty
    text is no attributes.

    Raises ``ValueError`` naming the first part that is not ``name=whole number``.
    """
    out = {}
    for part in text.split(","):
        if not part.strip():
            continue
        key, sep, value = part.partition("=")
        try:
            number = int(value.strip()) if sep and key.strip() else None
        except ValueError:
            number = None
        if number is None:
            raise ValueError(f"{part.strip()!r} is not name=whole number")
        out[key.strip()] = number
    return out


class InspectorDock(QWidget):
    """The form of the selected tile, edge, character or object (or the map line)."""

    #: an edit the dock refused itself, and why (a note for the status bar)
    message = Signal(str)
    #: "Edit Terrain Type..." for this terrain id
    edit_type_requested = Signal(int)

    def __init__(self, document: Document, state: EditorState,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc = document
        self.state = state
        self.outer = QVBoxLayout(self)
        self.outer.setContentsMargins(4, 4, 4, 4)
        self.body: QWidget | None = None
        self.fields: dict[str, QWidget] = {}
        self.summary: QLabel | None = None  # the map line shown when nothing is selected
        #: the hovered (else selected) tile's terrain properties, under the form
        self.tile_view = TilePropertiesView(document)
        self.tile_view.edit_requested.connect(self.edit_type_requested)
        self.outer.addWidget(self.tile_view)
        self.outer.addStretch(1)
        state.selection_changed.connect(self._selection_changed)
        document.edited.connect(self._on_edited)
        self.rebuild()

    def _selection_changed(self, _selection: object) -> None:
        self.rebuild()

    def _on_edited(self) -> None:
        """With nothing selected only the map line can change: update its text
        instead of rebuilding the form (a paint stroke edits many times a second)."""
        if self.state.selection is None and self.summary is not None:
            self.summary.setText(self._map_line())
        else:
            self.rebuild()

    def _map_line(self) -> str:
        m = self.doc.model
        return f"{m.name}: {m.width} x {m.height}, {m.setting}"

    def _form(self, title: str) -> QFormLayout:
        if self.body is not None:
            # removeWidget + hide, not setParent(None): reparenting a widget that
            # holds the focus to nothing left the window without focus or active
            # state, so tool shortcuts stopped working until it was clicked
            self.outer.removeWidget(self.body)
            self.body.hide()
            self.body.deleteLater()
        self.body = QWidget()
        self.summary = None
        form = QFormLayout(self.body)
        form.addRow(QLabel(f"<b>{title}</b>"))
        self.outer.insertWidget(0, self.body)
        self.fields = {}
        return form

    def _combo(self, items, current: int, on_change) -> QComboBox:
        box = QComboBox()
        for label, data in items:
            box.addItem(label, data)
        box.setCurrentIndex(current)
        box.currentIndexChanged.connect(lambda i: on_change(box.itemData(i)))
        return box

    def _spin(self, lo: int, hi: int, value: int, on_change) -> QSpinBox:
        """A spin box over lo..hi, widened to hold ``value`` (a file may carry e.g.
        Move 150): showing a value never changes it; only an edit calls ``on_change``."""
        s = QSpinBox()
        s.setRange(min(lo, value), max(hi, value))
        s.setValue(value)
        s.editingFinished.connect(lambda: s.value() != value and on_change(s.value()))
        return s

    def show_hover(self, pos: tuple[float, float] | None) -> None:
        """The pointer is at ``pos`` (tile units) on the map, or off it (None)."""
        self.tile_view.show_hover(None if pos is None else (int(pos[0] // 1), int(pos[1] // 1)))

    def rebuild(self) -> None:
        sel = self.state.selection
        m = self.doc.model
        self.tile_view.show_selected(sel.value if sel is not None and sel.kind == "tile"
                                     else None)
        if sel is None:
            form = self._form("Nothing selected")
            self.summary = QLabel(self._map_line())
            form.addRow(self.summary)
            hint = QLabel("Use the Select tool (S) to inspect a tile, edge or character.")
            hint.setWordWrap(True)  # the dock keeps its width (DockBody)
            form.addRow(hint)
            return
        if sel.kind == "tile" and m.in_bounds(*sel.value):
            self._tile(*sel.value)
        elif sel.kind == "edge" and m.edge_in_bounds(sel.value):
            self._edge(sel.value)
        elif sel.kind == "character" and sel.value in m.characters:
            self._character(sel.value)
        elif sel.kind == "object" and sel.value in m.objects:
            self._object(sel.value)
        elif sel.kind == "label" and sel.value in m.labels:  # issue 29
            from .label_form import label_rows

            self.fields = label_rows(self._form(f"Label {sel.value}"), self.doc, sel.value)
        elif sel.kind == "region":
            r = sel.value
            form = self._form("Region")
            form.addRow("From", QLabel(f"{r.x0}, {r.y0}"))
            form.addRow("To", QLabel(f"{r.x1}, {r.y1}"))
            if "tiles" in sel.extra:  # a magic-wand selection: not the whole rectangle
                form.addRow("Tiles", QLabel(f"{sel.extra['tiles']} of the rectangle's "
                                            f"{(r.x1 - r.x0 + 1) * (r.y1 - r.y0 + 1)}"))
            form.addRow(QLabel("Ctrl+C copy, Ctrl+X cut, Delete clears"))
        else:
            self.state.selection = None
            self._form("Nothing selected")

    def _tile(self, x: int, y: int) -> None:
        m, d = self.doc.model, self.doc
        form = self._form(f"Tile {x}, {y}")
        items = [(t.name.capitalize(), i) for i, t in enumerate(m.registry)]
        self.fields["terrain"] = self._combo(
            items, int(m.terrain[y, x]), lambda tid: d.paint_terrain([(x, y)], tid))
        form.addRow("Terrain", self.fields["terrain"])
        self.fields["elevation"] = self._spin(
            0, MAX_ELEVATION, int(m.elevation[y, x]), lambda v: d.set_elevation([(x, y)], v))
        form.addRow("Elevation", self.fields["elevation"])
        tr = QCheckBox()
        tr.setChecked(bool(m.transition[y, x]))
        tr.setEnabled(bool(m.transition[y, x]) or elevation_changes_at(m, (x, y)))
        tr.setToolTip("Only where a neighbouring tile is at another elevation")
        tr.toggled.connect(lambda on: d.set_transition_tiles([(x, y)], on))
        self.fields["transition"] = tr
        form.addRow("Transition tile", tr)
        if m.base_at(x, y) is Base.OBSTRUCTING:
            self.fields["indoor"] = self._combo(
                INDOOR_LABELS, _indoor_index(int(m.tile_indoor[y, x])),
                lambda v: d.set_tile_indoor([(x, y)], v))
            form.addRow("Obstruction", self.fields["indoor"])
        team = m.start_zone_of(x, y)
        form.addRow("Start zone", QLabel(team or "none"))
        c = m.character_at(x, y)
        form.addRow("Character", QLabel(c.id if c else "none"))
        objs = ", ".join(o.id for o in m.objects_at(x, y))
        form.addRow("Objects", QLabel(objs or "none"))
        t = m.registry[int(m.terrain[y, x])]
        if not t.builtin:
            form.addRow(custom_box(d, Owner("terrain", t.name), self.message,
                                   "Type's custom properties"))
        if team:
            form.addRow(custom_box(d, Owner("zone", team), self.message,
                                   "Zone's custom properties"))

    def _edge(self, e: Edge) -> None:
        m, d = self.doc.model, self.doc
        form = self._form(f"Edge {e}")
        (ax, ay), (bx, by) = e.tiles
        form.addRow("Between", QLabel(f"({ax}, {ay}) and ({bx}, {by})"))
        items = [("none", 0)] + [(t.name.capitalize(), i) for i, t in enumerate(m.registry)
                                 if t.base in BORDER_BASES]
        cur = m.border_at(e)
        index = next((i for i, (_l, tid) in enumerate(items) if tid == cur), 0)
        self.fields["border"] = self._combo(items, index, lambda tid: d.set_borders([e], tid))
        form.addRow("Border", self.fields["border"])
        if cur and m.registry[cur].base is Base.OBSTRUCTING:
            arr = m.indoor_e if e.side == "E" else m.indoor_s
            self.fields["indoor"] = self._combo(
                INDOOR_LABELS, _indoor_index(int(arr[e.y, e.x])),
                lambda v: d.set_border_indoor([e], v))
            form.addRow("Obstruction", self.fields["indoor"])
        tr = QCheckBox()
        tr.setChecked(m.is_transition_edge(e))
        tr.setEnabled(m.is_transition_edge(e) or edge_changes_elevation(m, e))
        tr.toggled.connect(lambda on: d.set_transition_edges([e], on))
        self.fields["transition"] = tr
        form.addRow("Transition border", tr)

    def _character(self, cid: str) -> None:
        m, d = self.doc.model, self.doc
        c = m.characters[cid]
        form = self._form(f"Character {cid}")
        limits = map_text_limits()
        name = QLineEdit(c.name)
        name.setMaxLength(limits["character_name"])
        name.editingFinished.connect(lambda: d.update_character(cid, name=name.text()))
        team = QLineEdit(c.team)
        team.setMaxLength(limits["team"])
        team.editingFinished.connect(
            lambda: team.text().strip() and d.update_character(cid, team=team.text().strip()))
        self.fields.update(name=name, team=team)
        form.addRow("Name", name)
        form.addRow("Team", team)
        for attr, hi in (("x", m.width - 1), ("y", m.height - 1), ("move", MAX_MOVE),
                         ("range", MAX_RANGE)):
            spin = self._spin(0, hi, getattr(c, attr),
                              lambda v, a=attr: d.update_character(cid, **{a: v}))
            self.fields[attr] = spin
            form.addRow(attr.capitalize(), spin)
        fl = QCheckBox()
        fl.setChecked(c.flight)
        fl.toggled.connect(lambda on: d.update_character(cid, flight=on))
        self.fields["flight"] = fl
        form.addRow("Flight", fl)
        self.fields["size"] = CreatureSizeEditor(d, cid)
        form.addRow("Size", self.fields["size"])
        shown = ", ".join(f"{k}={v}" for k, v in c.attributes.items())
        attrs = QLineEdit(shown)
        attrs.setToolTip("Other attributes as name=value, comma separated")

        def set_attrs() -> None:
            try:
                d.update_character(cid, attributes=parse_attributes(attrs.text()))
            except ValueError as exc:
                self.message.emit(f"attributes not changed: {exc} "
                                      "(write name=number, separated by commas)")
                attrs.setText(shown)  # the box shows what the character has

        attrs.editingFinished.connect(set_attrs)
        self.fields["attributes"] = attrs
        form.addRow("Attributes", attrs)
        form.addRow(custom_box(d, Owner("character", cid), self.message))

    def _object(self, oid: str) -> None:
        import copy

        m, d = self.doc.model, self.doc
        o = m.objects[oid]
        form = self._form(f"Object {oid}")
        kind = QLineEdit(o.kind)
        kind.setMaxLength(map_text_limits()["object_kind"])

        def changed(**kw) -> None:
            new = copy.deepcopy(m.objects[oid])
            for k, v in kw.items():
                setattr(new, k, v)
            d.place_object(new)

        kind.editingFinished.connect(lambda: changed(kind=kind.text().strip() or o.kind))
        form.addRow("Kind", kind)
        form.addRow("Tile", QLabel(f"{o.x}, {o.y}"))
        imp = QCheckBox()
        imp.setChecked(o.impedes_los)
        imp.toggled.connect(lambda on: changed(impedes_los=on))
        form.addRow("Impedes LoS", imp)
        self.fields.update(kind=kind, impedes_los=imp)
        if o.kind == "light":
            self.fields["radius"] = light_radius_spin(o.radius, lambda v: changed(radius=v))
            form.addRow("Light radius", self.fields["radius"])
        form.addRow(custom_box(d, Owner("object", oid), self.message))
