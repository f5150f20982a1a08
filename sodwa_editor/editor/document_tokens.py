"""The characters and objects part of :class:`~.document.Document` (a mixin, so
the document module stays readable): placing, editing, moving and removing
them, with the checks that refuse what a map file cannot hold."""

from __future__ import annotations

import copy
import dataclasses
import itertools
from typing import TYPE_CHECKING

from ..engine.creatures import occupied_squares, where_refused
from ..engine.footprint import cannot_stand
from ..engine.model import MAX_ATTRIBUTE, MAX_MOVE, MAX_RANGE, Character, MapObject
from ..engine.symmetry import footprint_images, other_team
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

    def _refuse_footprint(self, ch: Character, verb: str) -> bool:
        """Emit why ``ch`` may not stand where it is (its whole footprint, docs/rules.md
        S4: off the map, a wall, two levels, a wall through it, another creature) and
        return True, or return False."""
        why = where_refused(self.model, ch)
        if why is not None:
            self.message.emit(f"Cannot {verb} {ch.name or ch.id} ({ch.size.capitalize()} "
                              f"{ch.footprint_at()}) at {ch.x}, {ch.y}: {why.text}")
        return why is not None

    def place_character(self, character: Character) -> bool:
        m = self.model
        if not m.in_bounds(character.x, character.y):
            if not self._layer_refused("characters"):
                self._refuse_footprint(character, "place")
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
        if (before is None or _placed_differently(before, character)) and \
                self._refuse_footprint(character, "place"):
            return False
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
        fp = character.footprint_at()
        for (x, y), _fp, swap in footprint_images(self.symmetry, m.width, m.height,
                                                  (character.x, character.y), fp):
            team = (other_team(m, character.team) or character.team) if swap else character.team
            image = dataclasses.replace(copy.deepcopy(character), x=x, y=y, team=team)
            # where it may stand, clear of the character and the images made before
            taken = [(tx, ty, o.id) for o in (character, *out) for tx, ty in o.squares()]
            if (x, y) == (character.x, character.y) or m.character_at(x, y) is not None \
                    or cannot_stand(m, (x, y), fp, others=[
                        *occupied_squares(m, exclude=[character.id]), *taken]) is not None:
                continue
            out.append(image)
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
            if other is not None and other.id != character_id:
                self.message.emit(f"({after.x}, {after.y}) already holds {other.id}")
                return False
            text = "Move Character"
        else:
            text = "Resize Character" if _placed_differently(before, after) else \
                "Edit Character"
        if _placed_differently(before, after) and \
                self._refuse_footprint(after, "move" if moved else "resize"):
            return False
        return self.push(c.PutCharacter(self, text, before, after))

    def remove_character(self, character_id: str) -> bool:
        before = self.model.characters.get(character_id)
        if before is None or self._layer_refused("characters"):
            return False
        m = self.model
        fp = before.footprint_at()
        images = [] if self.symmetry == "off" else [  # the creature standing on an image
            ch for (ix, iy), _fp, _swap in footprint_images(self.symmetry, m.width, m.height,
                                                            (before.x, before.y), fp)
            if (ch := m.character_at(ix, iy)) is not None and ch is not before
            and (ch.x, ch.y, ch.footprint_at()) == (ix, iy, fp)]
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


def _placed_differently(a: Character, b: Character) -> bool:
    """Whether two versions of a character cover different tiles (moved or resized)."""
    return (a.x, a.y, a.size, a.footprint) != (b.x, b.y, b.size, b.footprint)
