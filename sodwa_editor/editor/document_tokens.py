"""The characters and objects part of :class:`~.document.Document` (a mixin, so
the document module stays readable): placing, editing, moving and removing
them, with the checks that refuse what a map file cannot hold."""

from __future__ import annotations

import copy
import dataclasses
import itertools
from typing import TYPE_CHECKING

import numpy as np

from ..engine.model import MAX_ATTRIBUTE, MAX_MOVE, MAX_RANGE, Character, MapObject
from ..engine.symmetry import other_team, tile_images
from ..engine.terrain import Base
from ..io.schemas import map_text_limits
from ..io.values import lone_surrogate
from . import commands as c

if TYPE_CHECKING:
    from PySide6.QtCore import SignalInstance
    from PySide6.QtGui import QUndoCommand

    from ..engine.model import MapModel


class TokenEdits:
    """Document methods for characters and objects (mixed into the Document)."""

    if TYPE_CHECKING:
        model: MapModel
        message: SignalInstance

        def push(self, cmd: QUndoCommand) -> bool: ...

        def _layer_refused(self, *layers: str) -> bool: ...

        def replace_model(self, model: MapModel) -> None: ...

        def begin_macro(self, text: str) -> None: ...

        def end_macro(self) -> None: ...

        symmetry: str

    def new_character_id(self, base: str) -> str:
        """A free character/object id made from ``base`` (a name or kind): lower case,
        other characters than letters, digits, '-' and '_' replaced, short enough
        for a numeric suffix within the file format's id limit."""
        base = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in base.lower()) or "char"
        base = base[:map_text_limits()["id"] - 8]
        taken = set(self.model.characters) | set(self.model.objects)
        if base not in taken:
            return base
        return next(f"{base}-{i}" for i in itertools.count(2) if f"{base}-{i}" not in taken)

    def _too_long(self, what: str, text: str, field: str) -> bool:
        """Refuse (with a message) text longer than the map format holds, or text
        no file can hold (a lone UTF-16 surrogate)."""
        limit = map_text_limits()[field]
        if len(text) > limit:
            self.message.emit(f"the {what} is {len(text)} characters long; "
                              f"a map file holds at most {limit}")
            return True
        why = lone_surrogate(text)
        if why is not None:
            self.message.emit(f"the {what} cannot be stored: {why}")
            return True
        return False

    def _out_of_range(self, ch: Character, before: Character | None) -> bool:
        """Refuse (with a message) a new or changed Move, Range or other attribute
        outside what the map format holds (Move and Range 0..MAX_MOVE/MAX_RANGE)."""
        for attr, limit in (("move", MAX_MOVE), ("range", MAX_RANGE)):
            value = getattr(ch, attr)
            if (before is None or value != getattr(before, attr)) and not 0 <= value <= limit:
                self.message.emit(f"{attr.capitalize()} {value} refused: it is a whole number "
                                  f"from 0 to {limit}")
                return True
        old = before.attributes if before is not None else {}
        for name, value in ch.attributes.items():
            if old.get(name) != value and not -MAX_ATTRIBUTE <= value <= MAX_ATTRIBUTE:
                self.message.emit(f"attribute {name} = {value} refused: a map holds "
                                  f"-{MAX_ATTRIBUTE}..{MAX_ATTRIBUTE}")
                return True
            why = lone_surrogate(name) if name not in old else None
            if why is not None:
                self.message.emit(f"the attribute name cannot be stored: {why}")
                return True
        return False

    def _refuse_token(self, what: str, ch: Character | MapObject, *, placed: bool) -> bool:
        """Emit why a character or object ``ch`` cannot be stored and return True, or return False.

        Refused: text longer than the file format holds, and (when ``placed`` on a
        new tile) an Obstructing tile (rulebook, Terrain Types: Obstructing terrain
        cannot be entered; the io check ``character-on-obstructing`` is the same rule
        for files).  A character already standing there may still be edited.
        """
        if placed and self.model.in_bounds(ch.x, ch.y) and \
                self.model.base_at(ch.x, ch.y) is Base.OBSTRUCTING:
            self.message.emit(f"{'An' if what[0] in 'aeiou' else 'A'} {what} cannot stand on "
                              f"the Obstructing tile ({ch.x}, {ch.y})")
            return True
        texts = [(f"{what} id", ch.id, "id")]
        if isinstance(ch, Character):
            texts += [("team name", ch.team, "team"), ("character name", ch.name, "character_name")]
        else:
            texts += [("object kind", ch.kind, "object_kind")]
        return any(self._too_long(label, text, field) for label, text, field in texts)

    def place_character(self, character: Character) -> bool:
        m = self.model
        if not m.in_bounds(character.x, character.y):
            return False
        if self._layer_refused("characters"):
            return False
        if self._refuse_token("character", character, placed=True) or \
                self._out_of_range(character, m.characters.get(character.id)):
            return False
        other = m.character_at(character.x, character.y)
        if other is not None and other.id != character.id:
            self.message.emit(f"({character.x}, {character.y}) already holds {other.id}")
            return False
        before = m.characters.get(character.id)
        text = "Place Character" if before is None else "Edit Character"
        if before is not None or self.symmetry == "off":
            return self.push(c.PutCharacter(self, text, before, character))
        self.begin_macro(text)  # the character and its images: one undo step
        self.push(c.PutCharacter(self, text, None, character))
        for image in self._images(character):
            image.id = self.new_character_id(character.name or character.id)
            self.push(c.PutCharacter(self, text, None, image))
        self.end_macro()
        return True

    def _images(self, character: Character) -> list[Character]:
        """Symmetry painting: the character's images (the other team where the
        symmetry swaps sides) on free tiles a character may stand on."""
        m = self.model
        out: list[Character] = []
        for ix, iy, swap in tile_images(self.symmetry, m.width, m.height,
                                        np.array([character.x]), np.array([character.y])):
            x, y = int(ix[0]), int(iy[0])
            if (x, y) == (character.x, character.y) or m.character_at(x, y) is not None \
                    or m.base_at(x, y) is Base.OBSTRUCTING or \
                    any((o.x, o.y) == (x, y) for o in out):
                continue
            team = (other_team(m, character.team) or character.team) if swap else character.team
            out.append(dataclasses.replace(copy.deepcopy(character), x=x, y=y, team=team))
        return out

    def update_character(self, character_id: str, **changes: object) -> bool:
        before = self.model.characters[character_id]
        after = copy.deepcopy(before)
        for k, v in changes.items():
            setattr(after, k, v)
        if after == before or self._layer_refused("characters"):
            return False
        moved = (after.x, after.y) != (before.x, before.y)
        if self._refuse_token("character", after, placed=moved) or \
                self._out_of_range(after, before):
            return False
        if moved:
            other = self.model.character_at(after.x, after.y)
            if other is not None:
                self.message.emit(f"({after.x}, {after.y}) already holds {other.id}")
                return False
            text = "Move Character"
        else:
            text = "Edit Character"
        return self.push(c.PutCharacter(self, text, before, after))

    def remove_character(self, character_id: str) -> bool:
        before = self.model.characters.get(character_id)
        if before is None or self._layer_refused("characters"):
            return False
        m = self.model
        images = [] if self.symmetry == "off" else [
            ch for ix, iy, _swap in tile_images(self.symmetry, m.width, m.height,
                                                np.array([before.x]), np.array([before.y]))
            if (ch := m.character_at(int(ix[0]), int(iy[0]))) is not None and ch is not before]
        if images:
            self.begin_macro("Remove Character")
        self.push(c.PutCharacter(self, "Remove Character", before, None))
        for ch in images:  # symmetry painting: the images go too, same step
            self.push(c.PutCharacter(self, "Remove Character", ch, None))
        if images:
            self.end_macro()
        return True

    def place_object(self, obj: MapObject) -> bool:
        before = self.model.objects.get(obj.id)
        text = "Place Object" if before is None else "Edit Object"
        if before == obj or self._layer_refused("characters"):
            return False
        moved = before is None or (before.x, before.y) != (obj.x, obj.y)
        if self._refuse_token("object", obj, placed=moved):
            return False
        return self.push(c.PutObject(self, text, before, obj))

    def remove_object(self, object_id: str) -> bool:
        before = self.model.objects.get(object_id)
        if before is None or self._layer_refused("characters"):
            return False
        return self.push(c.PutObject(self, "Remove Object", before, None))
