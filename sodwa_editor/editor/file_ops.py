"""File menu and map-wide operations: New, Open (a SODWA map or a Tiled map),
Open Recent, Save, Save As, Revert, Export PNG, Export Map Pack, Export As Tiled
Map, Resize, properties, and the question about unsaved changes before the map
is replaced or the window closed.

The controller takes the editor context (the document, the settings, the
scene it exports, the status bar's :attr:`~.context.EditorContext.message`),
the recovery file it deletes on save, and the window its dialogs belong to.

Every method takes its inputs as optional arguments and asks the user only for
what is missing, so tests (and scripts) drive the same code path as the menus.
A failed save shows the error and leaves the open document untouched and
still marked modified.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QDialog, QFileDialog, QGraphicsItem, QMenu, QMessageBox, QWidget

from ..engine.model import MapModel, Setting
from ..engine.terrain import Base
from ..io.paths import resolved
from . import APP_NAME
from .dialogs import (
    OPEN_MAP,
    ExportPackDialog,
    NewMapDialog,
    ProblemsDialog,
    PropertiesDialog,
    ResizeDialog,
    TerrainTypeDialog,
)

if TYPE_CHECKING:
    from .context import EditorContext
    from .recovery import Recovery

MAP_FILTER = "SODWA maps (*.json);;All files (*)"
OPEN_FILTER = "Maps (*.json *.tmj);;SODWA maps (*.json);;Tiled maps (*.tmj);;All files (*)"
TILED_FILTER = "Tiled maps (*.tmj)"
PACK_FILTER = "SODWA map packs (*.json);;All files (*)"
MAX_RECENT = 10


def ask(dialog):
    """Run a modal dialog; its ``values()`` when accepted, else None.  The dialog is
    deleted afterwards (a dialog parented to the window and left alive until exit
    made PySide6 abort at quit)."""
    try:
        return dialog.values() if dialog.exec() == QDialog.DialogCode.Accepted else None
    finally:
        dialog.deleteLater()


class FileController(QObject):
    """The file operations of one window (see the module docstring)."""

    #: Open Recent changed (the files, most recent first)
    recent_changed = Signal(list)

    def __init__(self, context: EditorContext, recovery: Recovery, window: QWidget) -> None:
        super().__init__(window)
        self.context = context
        self.doc = context.document
        self.settings = context.settings
        self.recovery = recovery
        self.window = window
        self.last_dialog: QDialog | None = None

    def maybe_save(self) -> bool:
        """Ask about unsaved changes; False when the user cancels."""
        if not self.doc.modified:
            return True
        answer = QMessageBox.warning(
            self.window, APP_NAME, f"{self.doc.display_name()} has unsaved changes.",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Save)
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    # ------------------------------------------------------------- new/open
    def new_map(self, values: tuple[str, int, int, str] | None = None) -> bool:
        if not self.maybe_save():
            return False
        if values is None:
            values = ask(NewMapDialog(self.window))
            if values is None:
                return False
        name, w, h, setting = values
        if setting not in ("outdoor", "indoor"):
            raise ValueError(f"map setting {setting!r} is neither 'outdoor' nor 'indoor'")
        kind: Setting = "indoor" if setting == "indoor" else "outdoor"
        self.doc.reset(MapModel(w, h, name=name, setting=kind), None)  # fits the view
        return True

    def open_map(self, path: Path | str | None = None, *, ask_save: bool = True) -> bool:
        """Open a map file; a file that cannot be read shows its problem list."""
        if ask_save and not self.maybe_save():
            return False
        if path is None:
            name, _ = QFileDialog.getOpenFileName(self.window, "Open Map", self._dir(),
                                                  OPEN_FILTER)
            if not name:
                return False
            path = name
        path = Path(path)
        tiled = path.suffix.lower() == ".tmj"
        if tiled:
            from ..io.tiled_import import import_tiled

            result = import_tiled(path)
            model, problems = result.model, result.problems
        else:
            from ..io import read_map

            model, problems = read_map(path)
        if model is None:
            if not path.exists():
                self.forget_recent(path)  # a deleted or moved file leaves Open Recent
            self._show_problems("Cannot Open Map", f"{path.name} could not be opened:", problems)
            return False
        if tiled and model.reference_image is not None:  # relative to the .tmj (issue 29)
            from .scene.reference_image_item import anchored

            model.reference_image = anchored(model.reference_image, path.parent)
        # a Tiled map is never saved over: Save asks where the SODWA map goes
        self.doc.reset(model, None if tiled else path)
        self.add_recent(path)
        left_out = [p for p in problems if p.code.startswith("tiled")]
        if left_out:  # (the Validation dock lists the map's own problems)
            self._show_problems("Tiled Map Opened", f"{path.name} was opened without what "
                                "SODWA has no use for:", left_out)
        errors = [p for p in problems if p.severity == "error"]
        if errors:
            self.context.say(f"{path.name} opened with {len(errors)} error(s): see the "
                             "Validation dock", "note")
        return True

    def _show_problems(self, title: str, summary: str, problems: list) -> None:
        dlg = ProblemsDialog(title, summary, problems, self.window)
        self.last_dialog = dlg
        dlg.open()

    def revert(self, confirm: bool = True) -> bool:
        path = self.doc.path
        if path is None:
            return False
        if confirm and self.doc.modified:
            answer = QMessageBox.question(self.window, "Revert",
                                          f"Drop all unsaved changes to {path.name}?")
            if answer != QMessageBox.StandardButton.Yes:
                return False
        return self.open_map(path, ask_save=False)

    # ------------------------------------------------------------------ save
    def save(self) -> bool:
        if self.doc.path is None:
            return self.save_as()
        return self.save_to(self.doc.path)

    def save_as(self, path: Path | str | None = None) -> bool:
        if path is None:
            start = str(self.doc.path or Path(self._dir()) / f"{self.doc.model.name}.json")
            name, _ = QFileDialog.getSaveFileName(self.window, "Save Map As", start, MAP_FILTER)
            if not name:
                return False
            path = name
        return self.save_to(Path(path))

    def save_to(self, path: Path) -> bool:
        from ..io import save_map

        rebased = self.doc.rebase_reference_image(path)  # the image stays found (issue 29)
        try:
            save_map(self.doc.model, path)
        except (OSError, ValueError) as exc:
            if rebased:
                self.doc.undo_stack.undo()
            self.last_error = str(exc)
            box = QMessageBox(QMessageBox.Icon.Critical, "Save Failed",
                              f"The map was not saved:\n{exc}\n\nYour changes are still open.",
                              QMessageBox.StandardButton.Ok, self.window)
            self.last_dialog = box
            box.open()
            return False
        self.doc.mark_saved(path)
        self.add_recent(path)
        self.recovery.discard()
        self.context.say(f"Saved {path}", "brief")
        return True

    # ---------------------------------------------------------------- recent
    def recent(self) -> list[str]:
        value = self.settings.value("recent_files", [])
        if isinstance(value, str):  # QSettings gives a one-item list back as a string
            return [value]
        return [str(v) for v in value] if isinstance(value, list | tuple) else []

    def add_recent(self, path: Path) -> None:
        p = str(resolved(path))  # (a symlink loop does not raise)
        files = [p] + [f for f in self.recent() if f != p]
        self.settings.setValue("recent_files", files[:MAX_RECENT])
        self.settings.setValue("last_dir", str(Path(p).parent))
        self.refresh_recent()

    def forget_recent(self, path: Path) -> None:
        p = str(resolved(path))  # (a symlink loop does not raise)
        self.settings.setValue("recent_files", [f for f in self.recent() if f != p])
        self.refresh_recent()

    def refresh_recent(self) -> None:
        """Tell Open Recent (:class:`RecentFilesMenu`) the files it lists."""
        self.recent_changed.emit(self.recent())

    def _dir(self) -> str:
        return str(self.settings.value("last_dir", str(Path.home())))

    def map_folder(self) -> Path:
        """The open map's folder (the last folder used for a map never saved)."""
        return self.doc.path.parent if self.doc.path is not None else Path(self._dir())

    def beside_map(self, suffix: str, stem: str | None = None) -> Path:
        """A file named after the open map (or ``stem``) in its folder: where Export
        PNG and Export Map Pack open (they opened in the working folder)."""
        if stem is None:
            stem = self.doc.path.stem if self.doc.path is not None else self.doc.model.name
        return self.map_folder() / f"{stem or 'untitled'}{suffix}"

    # ---------------------------------------------------------------- export
    def export_png(self, path: Path | str | None = None, scale: float = 1.0) -> bool:
        from .render import MAX_IMAGE_SIDE, save_png

        if path is None:
            name, _ = QFileDialog.getSaveFileName(self.window, "Export PNG",
                                                  str(self.beside_map(".png")), "PNG (*.png)")
            if not name:
                return False
            path = name
        hidden = [item for item in self._transient_items() if item.isVisible()]
        for item in hidden:  # the map and its visible layers only, not the tools' marks
            item.setVisible(False)
        try:
            used = save_png(self.context.scene, Path(path), scale)
        except OSError as exc:
            QMessageBox.critical(self.window, "Export Failed", str(exc))
            return False
        finally:
            for item in hidden:
                item.setVisible(True)
        note = f" at {used * 100:.0f}% (largest image side {MAX_IMAGE_SIDE} px)" \
            if used < scale else ""
        self.context.say(f"Exported {path}{note}", "status")
        return True

    def export_tiled(self, path: Path | str | None = None) -> bool:
        """Write the map as a Tiled map (``.tmj``) with its tileset beside it."""
        from ..io.paths import refuse_output_among_inputs
        from ..io.tiled_export import tileset_paths, write_tiled

        if path is None:
            name, _ = QFileDialog.getSaveFileName(self.window, "Export As Tiled Map",
                                                  str(self.beside_map(".tmj")), TILED_FILTER)
            if not name:
                return False
            path = name
        target = Path(path)
        if target.suffix.lower() not in (".tmj", ".json"):
            target = target.with_name(target.name + ".tmj")
        try:
            for out in (target, *tileset_paths(target)):  # never over the open map's file
                refuse_output_among_inputs(out, [self.doc.path] if self.doc.path else [])
            from ..io.tiled_labels import moved_reference

            model = moved_reference(self.doc.model,  # the reference image stays found
                                    self.doc.path.parent if self.doc.path else None,
                                    target.parent)
            written = write_tiled(model, target,  # labels: when shown (issue 29)
                                  labels=self.context.layers.visible.get("labels", True))
        except OSError as exc:  # MapSaveError: says what and where
            QMessageBox.critical(self.window, "Export Failed", str(exc))
            return False
        self.context.say(f"Exported {target} with its tileset {written[1].name} and image "
                         f"{written[2].name}", "status")
        return True

    def _transient_items(self) -> list[QGraphicsItem]:
        """What the view shows besides the map (the scene's transient items: hover,
        tool preview, selection, highlight, notes, the paste preview), and the
        pinned-source marker unless a preview it belongs to is on."""
        scene = self.context.scene
        items: list[QGraphicsItem] = scene.transient_items()
        if not any(self.context.previews.enabled.values()):
            items.append(scene.marker)
        return items

    def export_pack(self, out: Path | str | None = None, values: dict | None = None) -> bool:
        from ..io import build_pack, save_pack

        if values is None:
            start = [self.doc.path or OPEN_MAP]
            values = ask(ExportPackDialog(start, self.window, self.map_folder()))
            if values is None:
                return False
        if out is None:
            name, _ = QFileDialog.getSaveFileName(
                self.window, "Save Map Pack", str(self.beside_map(".json", values["name"])),
                PACK_FILTER)
            if not name:
                return False
            out = name
        from ..io.paths import refuse_output_among_inputs

        carried = {key: values.get(key) for key in ("rules", "roster")}
        try:  # a pack written over one of its maps (or its rules, roster) would lose it
            refuse_output_among_inputs(out, [p for p in values["maps"] if p != OPEN_MAP]
                                       + [p for p in carried.values() if p is not None]
                                       + list(values.get("scenarios", [])))
        except OSError as exc:
            QMessageBox.critical(self.window, "Export Failed", str(exc))
            return False
        # The open map goes in as it is on screen, unsaved edits included.
        live = {self.doc.path or OPEN_MAP: self.doc.model}
        pack, problems = build_pack(values["maps"], name=values["name"],
                                    version=values["version"], author=values.get("author", ""),
                                    description=values.get("description", ""), open_maps=live,
                                    rules=carried["rules"], roster=carried["roster"],
                                    scenarios=values.get("scenarios", []))
        if pack is None:
            self._show_problems("Pack Not Exported", "The pack was not written:", problems)
            return False
        try:
            save_pack(pack, Path(out))
        except OSError as exc:
            QMessageBox.critical(self.window, "Export Failed", str(exc))
            return False
        extra = [k for k in ("rules", "roster") if k in pack]
        self.context.say(f"Wrote pack {out} ({len(pack['maps'])} maps"
                         + (f" and its {' and '.join(extra)}" if extra else "") + ")", "brief")
        return True

    # ------------------------------------------------------------ map-wide
    def resize_map(self, values: tuple[int, int, int, int] | None = None) -> bool:
        from ..engine.resize import resized

        m = self.doc.model
        interactive = values is None
        if values is None:
            values = ask(ResizeDialog(m.width, m.height, self.window))
            if values is None:
                return False
        w, h, dx, dy = values
        if (w, h, dx, dy) == (m.width, m.height, 0, 0):
            return False
        try:
            new = resized(m, w, h, dx, dy)
        except ValueError as exc:
            self.context.say(f"cannot resize: {exc}", "note")
            return False
        lost = _resize_losses(m, new)
        if lost and interactive and QMessageBox.question(
                self.window, "Resize Map", f"Resizing removes {lost}. Resize anyway?"
        ) != QMessageBox.StandardButton.Yes:
            return False
        if not self.doc.replace_map(new, "Resize Map"):
            return False
        if lost:
            self.context.say(f"Resized to {w} x {h}; removed {lost} (Undo restores them)",
                             "note")
        return True

    def transform_map(self, how: str) -> bool:
        """Rotate or mirror the whole map (engine.transform), as one undo step."""
        from ..engine import transform

        ops = {"cw": (lambda m: transform.rotate90(m, 1), "Rotate Map Clockwise"),
               "ccw": (lambda m: transform.rotate90(m, 3), "Rotate Map Counter-clockwise"),
               "mirror_x": (transform.mirror_x, "Mirror Map Left-Right"),
               "mirror_y": (transform.mirror_y, "Mirror Map Top-Bottom")}
        fn, text = ops[how]
        return self.doc.replace_map(fn(self.doc.model), text)

    def edit_properties(self, values: tuple[str, str] | None = None) -> bool:
        m = self.doc.model
        if values is None:
            values = ask(PropertiesDialog(m.name, m.description, self.window))
            if values is None:
                return False
        return self.doc.set_properties(*values)

    def add_terrain_type(self, values: tuple[str, Base] | None = None) -> bool:
        if values is None:
            values = ask(TerrainTypeDialog(self.window))
            if values is None:
                return False
        name, base = values
        new = self.doc.model.copy()
        try:
            new.registry.register(name, base)
        except ValueError as exc:
            self.context.say(str(exc), "note")
            return False
        return self.doc.replace_map(new, f"Add Terrain Type {name}")


def _resize_losses(old: MapModel, new: MapModel) -> str:
    """What a resize drops besides tiles: "2 characters, 1 start-zone tile", or ""."""
    counts = (
        (len(old.characters) - len(new.characters), "character"),
        (len(old.objects) - len(new.objects), "object"),
        (sum(map(len, old.start_zones.values())) - sum(map(len, new.start_zones.values())),
         "start-zone tile"),
    )
    return ", ".join(f"{n} {what}{'s' if n > 1 else ''}" for n, what in counts if n > 0)


class RecentFilesMenu(QMenu):
    """File > Open Recent: the controller's recent files (two files of one name are
    told apart by their folder); an entry opens its file."""

    def __init__(self, files: FileController, parent: QWidget | None = None) -> None:
        super().__init__("Open &Recent", parent)
        self.files = files
        files.recent_changed.connect(self.show_files)
        self.show_files(files.recent())

    def show_files(self, files: list[str]) -> None:
        self.clear()
        names = [Path(f).name for f in files]
        for f in files:
            label = Path(f).name if names.count(Path(f).name) == 1 else \
                f"{Path(f).name}  ({Path(f).parent})"
            act = self.addAction(label)
            act.setToolTip(f)
            act.triggered.connect(lambda _c=False, p=f: self.files.open_map(p))
        self.setEnabled(bool(files))
