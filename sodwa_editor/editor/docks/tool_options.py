"""Tool options bar: the settings of the active tool (terrain, brush size,
border type and Indoor flag, elevation mode and level, team, roster entry,
object kind).  Widgets write :class:`~..tools.base.EditorState`.

The bar takes the document (the map's terrain types and teams) and the editing
state; which options show is the active tool's (:meth:`ToolOptionsBar.show_for`).
Enter or Escape in an option emits :attr:`ToolOptionsBar.finished`, so that the
map view can take the keyboard back."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QComboBox, QLabel, QLineEdit, QSpinBox, QToolBar, QWidget

from ...engine.creatures import SIZE_NAMES
from ...engine.model import MAX_ELEVATION
from ...engine.property_layers import LIGHT_KIND
from ...engine.symmetry import MODES as SYMMETRY_MODES
from ...engine.terrain import BORDER_BASES
from ...engine.terrain_properties import PRESETS
from ...io.schemas import map_text_limits
from ..properties.document_props import max_light_radius, preset_id, preset_of
from ..roster import entries_in_use, load_roster
from ..tools.area import read_notation, roster_areas
from ..tools.border import BORDER_MODES
from ..tools.elevation import MODES
from ..tools.zone import ZONE_MODES
from .creature_size import battle_grid_scale, size_choice_text

if TYPE_CHECKING:
    from ..document import Document
    from ..tools.base import EditorState, Tool

INDOOR_CHOICES = (("map default", None), ("indoor", True), ("outdoor", False))


def _capped_edit(limit: int) -> QLineEdit:
    """A line edit that takes at most ``limit`` characters (the map format's limit)."""
    edit = QLineEdit()
    edit.setMaxLength(limit)
    return edit


class ToolOptionsBar(QToolBar):
    """The active tool's options (see the module docstring)."""

    #: Enter or Escape in an option: the keys go back to the map (after the key)
    finished = Signal()

    def __init__(self, document: Document, state: EditorState,
                 parent: QWidget | None = None) -> None:
        super().__init__("Tool Options", parent)
        self.setObjectName("tool_options")
        self.document = document
        self.state = state
        st = state
        self.widgets: dict[str, list] = {}

        self.terrain = QComboBox()
        self.terrain.currentIndexChanged.connect(
            lambda i: self._chosen(i, "terrain_id", self.terrain))
        self._add("terrain_id", "Terrain", self.terrain)

        self.size_spin = QSpinBox()
        self.size_spin.setRange(1, 32)
        self.size_spin.setValue(st.brush_size)
        self.size_spin.valueChanged.connect(lambda v: st.set("brush_size", v))
        self._add("brush_size", "Size", self.size_spin)

        self.border_mode = QComboBox()
        self.border_mode.addItems(BORDER_MODES)
        self.border_mode.setToolTip("edges: click or drag along grid lines; room: drag a "
                                    "rectangle for its four walls, click a wall for a door")
        self.border_mode.currentTextChanged.connect(lambda t: st.set("border_mode", t))
        self._add("border_mode", "Draw", self.border_mode)

        self.border = QComboBox()
        self.border.currentIndexChanged.connect(
            lambda i: self._chosen(i, "border_id", self.border))
        self._add("border_id", "Border", self.border)

        self.indoor = QComboBox()
        for label, value in INDOOR_CHOICES:
            self.indoor.addItem(label, value)
        self.indoor.currentIndexChanged.connect(
            lambda i: st.set("border_indoor", INDOOR_CHOICES[i][1]))
        self._add("border_indoor", "Obstruction", self.indoor)

        self.mode = QComboBox()
        self.mode.addItems(MODES)
        self.mode.currentTextChanged.connect(lambda t: st.set("elevation_mode", t))
        self._add("elevation_mode", "Mode", self.mode)

        self.level = QSpinBox()
        self.level.setRange(0, MAX_ELEVATION)
        self.level.setValue(st.elevation_level)
        self.level.valueChanged.connect(lambda v: st.set("elevation_level", v))
        self._add("elevation_level", "Level", self.level)

        self.zone_mode = QComboBox()
        self.zone_mode.addItems(ZONE_MODES)
        self.zone_mode.currentTextChanged.connect(lambda t: st.set("zone_mode", t))
        self._add("zone_mode", "Shape", self.zone_mode)

        self.team = QComboBox()
        self.team.setEditable(True)
        self.team.setMinimumWidth(100)
        self.team.setLineEdit(_capped_edit(map_text_limits()["team"]))
        self.team.currentTextChanged.connect(lambda t: st.set("team", t.strip()))
        self._add("team", "Team", self.team)

        roster = load_roster() if st.roster_in_use is None else st.roster_in_use.current.doc
        self.roster = QComboBox()
        self.roster.setObjectName("roster_entry")
        self.roster.currentIndexChanged.connect(
            lambda i: self._chosen(i, "roster_entry", self.roster))
        self._add("roster_entry", "Character", self.roster)
        # which roster the list is (the roster in use: the Roster Editor's last)
        self.roster_label = QLabel()
        self.roster_label.setObjectName("roster_in_use")
        self.widgets["roster_entry"].append(self.addWidget(self.roster_label))
        self._fill_roster()

        self.creature_size = QComboBox()
        self.creature_size.setObjectName("creature_size")
        self.creature_size.setToolTip("The size of the creature placed: its footprint in "
                                      "tiles (the roster entry's size when it has one)")
        scale = battle_grid_scale()  # the rules' grid scale: the footprint in battles
        for name in SIZE_NAMES:
            self.creature_size.addItem(size_choice_text(name, scale), name)
        self.creature_size.setCurrentIndex(SIZE_NAMES.index(st.creature_size))
        self.creature_size.currentIndexChanged.connect(
            lambda i: self._chosen(i, "creature_size", self.creature_size))
        self._add("creature_size", "Size", self.creature_size)

        self.kind = QComboBox()
        self.kind.setEditable(True)
        self.kind.setLineEdit(_capped_edit(map_text_limits()["object_kind"]))
        kinds = list(roster.get("objects", ["crate"]))
        self.kind.addItems(kinds + ([LIGHT_KIND] if LIGHT_KIND not in kinds else []))
        self.kind.currentTextChanged.connect(lambda t: st.set("object_kind", t.strip()))
        self._add("object_kind", "Object", self.kind)

        # a light source's radius (the object tool, while the kind is "light")
        self.light_radius = QSpinBox()
        self.light_radius.setObjectName("tool_light_radius")
        self.light_radius.setRange(0, max_light_radius())
        self.light_radius.setValue(st.light_radius)
        self.light_radius.setToolTip("Light radius: tiles up to this many adjacency steps "
                                     "away are lit (Dark and Full Dark suppressed there)")
        self.light_radius.valueChanged.connect(lambda v: st.set("light_radius", v))
        self._add("light_radius", "Radius", self.light_radius)

        # the AoE template's area: typed, or one of the roster's abilities or the
        # recent entries; what is wrong with it in one line beside it
        self.area = QComboBox()
        self.area.setEditable(True)
        self.area.setObjectName("area_notation")
        # as wide as a usual notation, whatever the list's labels (it fits 1280 pixels)
        self.area.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.area.setMinimumContentsLength(36)
        self.area.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.area.setToolTip("The area of effect, as the rulebook writes it (AoE - Type - "
                             "Shape: sizes); the list holds the roster's abilities and the "
                             "recent entries")
        self._roster_areas = roster_areas(roster)
        self.area.activated.connect(self._area_picked)
        self.area.setEditText(st.area_notation)
        self.area.editTextChanged.connect(lambda t: st.set("area_notation", t))
        self._add("area_notation", "Area", self.area)
        self.area_said = QLabel()
        self.area_said.setObjectName("area_said")
        self.widgets["area_notation"].append(self.addWidget(self.area_said))
        self._fill_areas()
        self._say_area()
        if st.roster_in_use is not None:
            st.roster_in_use.changed.connect(self._roster_changed)

        self.symmetry = QComboBox()
        self.symmetry.setObjectName("symmetry")
        for mode, label in SYMMETRY_MODES.items():
            self.symmetry.addItem(label, mode)
        self.symmetry.currentIndexChanged.connect(
            lambda i: self._chosen(i, "symmetry", self.symmetry))
        self._add("symmetry", "Symmetry", self.symmetry)

        self.none_label = QLabel("")
        self.none_label.setEnabled(False)  # greyed: says the tool has nothing to set
        self.none_action = self.addWidget(self.none_label)

        self._types: list = []  # the map's types the lists show
        document.model_replaced.connect(self._model_replaced)
        document.edited.connect(self._refresh_teams)
        document.edited.connect(self._follow_types)
        st.changed.connect(self._state_changed)
        self.refresh_lists()
        # The bar keeps the height of its tallest widgets whatever the tool shows (a
        # tool without options must not move the map up under the pointer).
        self.setFixedHeight(self.sizeHint().height())
        for widget in self.findChildren(QWidget):
            if isinstance(widget, QSpinBox | QComboBox | QLineEdit):
                widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        """Enter or Escape in an option hands the keyboard back to the map view, so
        single-key shortcuts (R, P...) work again at once; the key itself still
        reaches the widget first (Enter commits a typed size)."""
        if event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent) and \
                event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Escape):
            QTimer.singleShot(0, self.finished.emit)
        return False

    def _roster_changed(self) -> None:
        """Another roster in use (or its file saved again): its archetypes and abilities."""
        self._fill_roster()
        in_use = self.state.roster_in_use
        if in_use is not None:
            self._roster_areas = roster_areas(in_use.current.doc)
        self._fill_areas()

    def _fill_roster(self) -> None:
        """The archetypes of the roster in use; the chosen one kept by name when the
        roster still has it (with its new values), else its first."""
        in_use = self.state.roster_in_use
        entries = entries_in_use(in_use)
        chosen = self.state.roster_entry
        self.roster.blockSignals(True)
        self.roster.clear()
        for entry in entries:
            size = str(entry.get("size", "medium"))
            self.roster.addItem(f"{entry['name']} (Move {entry.get('move', 5)}, "
                                f"Range {entry.get('range', 5)}"
                                + ("" if size == "medium" else f", {size.capitalize()}")
                                + ")", entry)
        names = [e.get("name") for e in entries]
        index = names.index(chosen["name"]) if chosen and chosen.get("name") in names else 0
        self.roster.setCurrentIndex(index)
        self.roster.blockSignals(False)
        label = "Roster: shipped" if in_use is None else in_use.label
        self.roster_label.setText(f" {label} ")
        self.roster_label.setToolTip("The roster in use: the one the Roster Editor opened or "
                                     "saved last, else the shipped roster")
        if chosen is None or chosen != entries[index]:
            self.state.set("roster_entry", entries[index])

    def _fill_areas(self) -> None:
        """The list: the recent notations, then the roster's abilities (the edit keeps
        what is typed)."""
        text = self.area.currentText()
        self.area.blockSignals(True)
        self.area.clear()
        for notation in self.state.area_recent:
            self.area.addItem(f"recent: {notation}", notation)
        for label, notation in self._roster_areas:
            self.area.addItem(label, notation)
        self.area.setEditText(text)
        self.area.blockSignals(False)

    def _area_picked(self, index: int) -> None:
        """An entry of the list: its notation in the edit (not its label)."""
        notation = self.area.itemData(index)
        if isinstance(notation, str):
            self.area.setEditText(notation)

    def _say_area(self) -> None:
        spec, said = read_notation(self.state.area_notation)
        self.area_said.setText(f" {said} ")
        self.area_said.setStyleSheet("color: #b00020" if spec is None else "color: #555")

    def _model_replaced(self, _model: object) -> None:
        self.refresh_lists()

    def _chosen(self, index: int, key: str, box: QComboBox) -> None:
        """A combo box choice goes to the editor state (-1 = the box was cleared)."""
        if index >= 0:
            self.state.set(key, box.itemData(index))

    def _add(self, key: str, label: str, widget: QWidget) -> None:
        la = self.addWidget(QLabel(f" {label} "))
        wa = self.addWidget(widget)
        self.widgets[key] = [la, wa]

    def show_for(self, tool: Tool) -> None:
        """Show the options of ``tool`` (its ``options``), or say it has none; a
        light's radius only while the object kind is a light."""
        self._tool = tool
        for key, acts in self.widgets.items():
            for a in acts:
                a.setVisible(key in tool.options and (
                    key != "light_radius" or self.state.object_kind == LIGHT_KIND))
        self.none_label.setText(f" {tool.label}: no options")
        self.none_action.setVisible(not tool.options)

    def _follow_types(self) -> None:
        """A step declared or changed a terrain type (a preset's first stroke)."""
        if list(self.document.model.registry) != self._types:
            self.refresh_lists()

    def refresh_lists(self) -> None:
        reg = self.document.model.registry
        self._types = list(reg)
        st = self.state
        chosen = preset_of(st.terrain_id)
        if chosen is not None and chosen.name in reg:  # a preset painted: the map's type
            st.set("terrain_id", reg.id_of(chosen.name))
        for combo, pred, key in ((self.terrain, lambda t: True, "terrain_id"),
                                 (self.border, lambda t: t.base in BORDER_BASES, "border_id")):
            combo.blockSignals(True)
            combo.clear()
            for tid, t in enumerate(reg):
                if pred(t):
                    combo.addItem(t.name.capitalize(), tid)
            if combo is self.terrain:  # the presets this map has not declared yet
                for name, preset in PRESETS.items():
                    if name not in reg:
                        combo.addItem(f"{preset.label} (preset)", preset_id(name))
            idx = combo.findData(getattr(st, key))
            combo.setCurrentIndex(max(idx, 0))
            combo.blockSignals(False)
            if idx < 0 and combo.count():  # not a type of this kind in this map
                st.set(key, combo.currentData())
        self._refresh_teams()

    def _refresh_teams(self) -> None:
        m = self.document.model
        teams = sorted(set(m.start_zones) | {c.team for c in m.characters.values()})
        current = self.state.team
        names = [self.team.itemText(i) for i in range(self.team.count())]
        wanted = sorted(set(teams) | ({current} if current else set()))
        if names != wanted:
            self.team.blockSignals(True)
            self.team.clear()
            self.team.addItems(wanted)
            self.team.setCurrentText(current)
            self.team.blockSignals(False)

    def _state_changed(self, name: str) -> None:
        st = self.state
        if name == "area_notation":
            if self.area.currentText() != st.area_notation:
                self.area.setEditText(st.area_notation)
            self._say_area()
        elif name == "area_recent":
            self._fill_areas()
        if name == "brush_size" and self.size_spin.value() != st.brush_size:
            self.size_spin.blockSignals(True)
            self.size_spin.setValue(st.brush_size)
            self.size_spin.blockSignals(False)
        elif name == "terrain_id":
            i = self.terrain.findData(st.terrain_id)
            if i >= 0 and i != self.terrain.currentIndex():
                self.terrain.setCurrentIndex(i)
        elif name == "border_id":
            i = self.border.findData(st.border_id)
            if i >= 0 and i != self.border.currentIndex():
                self.border.setCurrentIndex(i)
        elif name == "team" and self.team.currentText() != st.team:
            self.team.setCurrentText(st.team)
        elif name == "elevation_level" and self.level.value() != st.elevation_level:
            self.level.setValue(st.elevation_level)
        elif name == "elevation_mode" and self.mode.currentText() != st.elevation_mode:
            self.mode.setCurrentText(st.elevation_mode)
        elif name == "border_indoor":
            i = [v for _, v in INDOOR_CHOICES].index(st.border_indoor)
            if i != self.indoor.currentIndex():
                self.indoor.setCurrentIndex(i)
        elif name == "symmetry" and self.symmetry.currentData() != st.symmetry:
            self.symmetry.setCurrentIndex(self.symmetry.findData(st.symmetry))
        elif name == "object_kind":
            if self.kind.currentText() != st.object_kind:
                self.kind.setCurrentText(st.object_kind)
            if getattr(self, "_tool", None) is not None:
                self.show_for(self._tool)  # the radius shows for a light only
        elif name == "light_radius" and self.light_radius.value() != st.light_radius:
            self.light_radius.setValue(st.light_radius)
        elif name == "creature_size" and self.creature_size.currentData() != st.creature_size:
            self.creature_size.setCurrentIndex(self.creature_size.findData(st.creature_size))
        elif name == "roster_entry":
            if st.roster_entry:  # the archetype's size is the default of the placed size
                st.set("creature_size", str(st.roster_entry.get("size", "medium")))
            i = self.roster.findText(f"{st.roster_entry['name']} (", Qt.MatchFlag.MatchStartsWith) \
                if st.roster_entry else -1
            if i >= 0 and i != self.roster.currentIndex():
                self.roster.setCurrentIndex(i)
