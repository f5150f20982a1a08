"""The palette's presets: the seed's example terrains (Plains ... River), each a
SODWA base with its properties, grouped by base.  A click chooses one to paint
(:func:`~.document_props.preset_id` until the first stroke declares it in the
map; a preset the map has already is its type).  Each row shows the type's fill
swatch, its name and its properties; the tooltip their effects."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt, Signal
from PySide6.QtGui import QColor, QIcon, QPainter, QPixmap
from PySide6.QtWidgets import QTreeWidget, QTreeWidgetItem, QWidget

from ...engine.terrain import Base, TerrainRegistry
from ...engine.terrain_properties import PRESETS, VOCABULARY
from .. import style
from .document_props import preset_id
from .glyphs import paint_glyph

ROLE = Qt.ItemDataRole.UserRole
#: group order and title per base
GROUPS = {"clear": "Open ground (base clear)", "difficult": "Rough ground (base difficult)",
          "impeding": "Woods and buildings (base impeding)",
          "liquid": "Water (base liquid)", "obstructing": "Walls (base obstructing)"}


def preset_icon(name: str, base: Base, props: list[str]) -> QIcon:
    """The swatch the type would get on the map, its first properties' icons on it."""
    fill = style.special_fills([(name, base)])[0]
    pix = QPixmap(20 + 14 * len(props), 20)
    pix.fill(Qt.GlobalColor.transparent)
    p = QPainter(pix)
    p.fillRect(0, 0, 20, 20, QColor(*fill))
    p.setPen(style.OUTLINE.get(base, QColor(0, 0, 0)))
    p.drawRect(0, 0, 19, 19)
    for i, prop in enumerate(props):
        paint_glyph(p, prop, QRectF(22 + 14 * i, 3, 13, 13))
    p.end()
    return QIcon(pix)


class PresetList(QTreeWidget):
    """The presets by base; :attr:`chosen` gives the terrain id to paint."""

    #: a preset was clicked: the id to paint (the map's type, or the preset's id)
    chosen = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("presets")
        self.setHeaderHidden(True)
        self.setColumnCount(1)
        self.setRootIsDecorated(True)
        self.setIndentation(10)
        self.items: dict[str, QTreeWidgetItem] = {}
        groups: dict[str, QTreeWidgetItem] = {}
        for base_name in GROUPS:
            group = QTreeWidgetItem([GROUPS[base_name]])
            group.setFlags(Qt.ItemFlag.ItemIsEnabled)
            font = group.font(0)
            font.setBold(True)
            group.setFont(0, font)
            groups[base_name] = group
        for key, preset in PRESETS.items():
            props = list(preset.properties)
            labels = ", ".join(VOCABULARY[n].label for n in props)
            item = QTreeWidgetItem([f"{preset.label}  —  {labels}"])
            base = Base[preset.base.upper()]
            item.setIcon(0, preset_icon(key, base, props[:4]))
            item.setData(0, ROLE, key)
            item.setToolTip(0, f"<b>{preset.label}</b> (base {preset.base}: LoS and movement "
                               f"as {preset.base} terrain)<br>" + "<br>".join(
                                   f"<b>{VOCABULARY[n].label}</b>: {p.effect_text()}"
                                   for n, p in preset.properties.items()))
            groups[preset.base].addChild(item)
            self.items[key] = item
        self.addTopLevelItems([g for g in groups.values() if g.childCount()])
        self.expandAll()
        self.setIconSize(self.iconSize().expandedTo(QPixmap(76, 20).size()))
        self.itemClicked.connect(self._clicked)
        self.registry: TerrainRegistry | None = None

    def show_registry(self, registry: TerrainRegistry) -> None:
        """Mark the presets this map has declared ("in this map")."""
        self.registry = registry
        for key, item in self.items.items():
            font = item.font(0)
            font.setItalic(key in registry)
            item.setFont(0, font)
            tip = item.toolTip(0).split("<br><i>")[0]
            if key in registry:
                tip += "<br><i>in this map: painting it paints the map's type</i>"
            item.setToolTip(0, tip)

    def terrain_id(self, key: str) -> int:
        reg = self.registry
        return reg.id_of(key) if reg is not None and key in reg else preset_id(key)

    def _clicked(self, item: QTreeWidgetItem, _column: int) -> None:
        key = item.data(0, ROLE)
        if key is not None:
            self.chosen.emit(self.terrain_id(key))

    def select_key(self, key: str | None) -> None:
        """Show ``key`` as the chosen preset (None: none)."""
        self.blockSignals(True)
        self.clearSelection()
        if key is not None:
            self.setCurrentItem(self.items[key])
        self.blockSignals(False)
