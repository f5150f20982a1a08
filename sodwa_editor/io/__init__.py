"""Map files and map packs: the JSON format, loading with full problem reports,
semantic validation and atomic saving.  No Qt; depends only on the engine.

The format is described in docs/map-format.md; the schemas are in ``schemas/``.
"""

from __future__ import annotations

from . import property_checks  # noqa: F401  (registers the terrain-property checks)
from .checks import MODEL_CHECKS, Locator, ModelCheck, register_check, validate_model
from .encode import (
    FORMAT_VERSION,
    MAP_FORMAT,
    PACK_FORMAT,
    dumps_map,
    dumps_map_doc,
    legend_chars,
    map_to_dict,
)
from .files import (
    MAX_FILE_BYTES,
    atomic_write_text,
    load_map,
    map_from_doc,
    parse_json,
    parse_map,
    read_map,
    save_map,
)
from .packs import (
    build_pack,
    dumps_pack,
    load_pack,
    pack_from_doc,
    read_any,
    read_pack,
    save_pack,
)
from .problems import MapLoadError, MapSaveError, Problem

__all__ = [
    "FORMAT_VERSION", "MAP_FORMAT", "MAX_FILE_BYTES", "MODEL_CHECKS", "PACK_FORMAT",
    "Locator", "MapLoadError", "MapSaveError", "ModelCheck", "Problem",
    "atomic_write_text", "build_pack", "dumps_map", "dumps_map_doc", "dumps_pack",
    "legend_chars", "load_map", "load_pack", "map_from_doc", "map_to_dict", "pack_from_doc",
    "parse_json", "parse_map", "read_any", "read_map", "read_pack", "register_check",
    "save_map", "save_pack", "validate_model",
]
