"""Regenerate ``previews-<map>.png``: the three engine previews of each sample
map side by side (LoS fan with the line to a target and the feature that
decided it, movement range, adjacency graph), as the editor draws them.

    QT_QPA_PLATFORM=offscreen .venv/bin/python docs/screenshots/previews.py
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import QRectF, Qt  # noqa: E402
from PySide6.QtGui import QColor, QFont, QImage, QPainter  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from sodwa_editor.editor import style  # noqa: E402
from sodwa_editor.editor.headless import build_scene  # noqa: E402
from sodwa_editor.editor.render import render_scene  # noqa: E402
from sodwa_editor.engine import samples  # noqa: E402
from sodwa_editor.engine.los import los  # noqa: E402

#: sample map -> (viewer id, target id): lines that cross zones, teams and terrain
SHOTS = {
    "rulebook-elevated-los": ("red", "blue"),
    "indoor-compound": ("archer", "rogue"),
    "tiered-keep": ("scout", "captain"),
    "outdoor-skirmish": ("ranger", "ogre"),
}
CAPTION_PX = 44
GAP = 12


def panels(name: str) -> list[tuple[str, QImage]]:
    model = samples.SAMPLE_MAPS[name]()
    viewer, target = (model.characters[c] for c in SHOTS[name])
    src, dst = (viewer.x, viewer.y), (target.x, target.y)
    result = los(model, src, dst)
    fan = build_scene(model, [("los", src, None)])
    fan.previews["path"].set_line(src, dst, result.crossing)
    fan.previews["path"].setVisible(True)
    fan.previews["culprit"].set_reason(result.reason, result.crossing)
    reach = build_scene(model, [("reach", src, None)])
    graph = build_scene(model, [("graph", None, None)])
    return [
        (f"LoS fan from {viewer.id} {src[0]},{src[1]}; line to {target.id}: "
         f"{result.describe()}", render_scene(fan)),
        (f"Movement range of {viewer.id} (Move {viewer.move})", render_scene(reach)),
        ("Adjacency graph", render_scene(graph)),
    ]


def sheet(name: str) -> QImage:
    shots = panels(name)
    w = sum(img.width() for _, img in shots) + GAP * (len(shots) - 1)
    h = max(img.height() for _, img in shots) + CAPTION_PX
    out = QImage(w, h, QImage.Format.Format_ARGB32_Premultiplied)
    out.fill(style.BACKGROUND)
    p = QPainter(out)
    p.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    font = QFont()
    font.setPixelSize(13)
    p.setFont(font)
    p.setPen(QColor(235, 235, 240))
    x = 0
    for caption, img in shots:
        p.drawText(QRectF(x + 6, 2, img.width() - 12, CAPTION_PX - 4),
                   int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
                   | int(Qt.TextFlag.TextWordWrap), caption)
        p.drawImage(x, CAPTION_PX, img)
        x += img.width() + GAP
    p.end()
    return out


def main() -> None:
    app = QApplication.instance() or QApplication([])
    for name in SHOTS:
        out = Path(__file__).with_name(f"previews-{name}.png")
        sheet(name).save(str(out))
        print(f"wrote {out}")
    del app


if __name__ == "__main__":
    main()
