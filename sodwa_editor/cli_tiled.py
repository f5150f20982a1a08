"""``sodwa export-tiled`` and ``sodwa import-tiled`` (issue 29): a map as a Tiled map
(``.tmj``, with its tileset ``.tsj`` and image ``.png`` beside it) and back, thin
over :mod:`.io.tiled_export` and :mod:`.io.tiled_import` (docs/map-format.md,
*Tiled*).  Outputs are checked as every command's are (:func:`.cli_common.check_output`):
never one of the files read, never a FIFO, device or read-only file.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from .cli_common import CliError, check_output, load_map


def add_tiled_parsers(sub: Any) -> None:
    """The two subcommands' arguments (``sub``: the ``sodwa`` subparsers)."""
    e = sub.add_parser("export-tiled", help="write a map as a Tiled map (.tmj) with its "
                                            "tileset (.tsj and .png) beside it")
    e.add_argument("map", type=Path, metavar="MAP")
    e.add_argument("-o", "--output", type=Path, required=True, metavar="OUT.tmj",
                   help="the Tiled map (.tmj or .json); OUT.tsj and OUT.png are written "
                        "beside it")
    e.add_argument("--labels", action="store_true",
                   help="write the map's labels as text objects in an object layer 'labels' "
                        "(import-tiled reads them back)")
    i = sub.add_parser("import-tiled", help="read a Tiled map (.tmj) as a SODWA map")
    i.add_argument("tiled", type=Path, metavar="IN.tmj")
    i.add_argument("-o", "--output", type=Path, required=True, metavar="MAP.json")


def cmd_export_tiled(args: argparse.Namespace) -> int:
    """``sodwa export-tiled``: exit 0 with the three files written."""
    from .io.tiled_export import TILED_SUFFIXES, tileset_paths, write_tiled

    out: Path = args.output
    if out.suffix.lower() not in TILED_SUFFIXES:
        raise CliError(f"-o {out}: a Tiled map file ends in .tmj (or .json); its tileset "
                       "and image are written beside it as .tsj and .png", code=2)
    outputs = [out, *tileset_paths(out)]
    for path in outputs:
        check_output(path, [args.map], "not exported")
    model = load_map(args.map)
    for path in outputs:  # (again, after reading)
        check_output(path, [args.map], "not exported")
    try:
        from .io.tiled_labels import moved_reference

        model = moved_reference(model, args.map.parent, out.parent)  # the image stays found
        write_tiled(model, out, labels=args.labels)
    except OSError as exc:  # MapSaveError: says what and where
        raise CliError(f"not exported: {exc}") from exc
    labels = f", {len(model.labels)} label(s)" if args.labels else ""
    print(f"wrote {out} ({model.width}x{model.height}{labels}), its tileset "
          f"{outputs[1].name} and image {outputs[2].name}")
    return 0


def cmd_import_tiled(args: argparse.Namespace) -> int:
    """``sodwa import-tiled``: exit 0 with the map written (warnings listed), 1 when
    the Tiled map cannot be read or has errors (nothing written)."""
    from .io import save_map
    from .io.tiled_import import import_tiled

    check_output(args.output, [args.tiled], "map not written")
    result = import_tiled(args.tiled)
    for p in result.problems:
        print(f"  {p.severity}: {p}", file=sys.stderr)
    errors = [p for p in result.problems if p.is_error]
    if result.model is None or errors:
        hint = (" (the editor opens it to fix them: sodwa-editor "
                f"{args.tiled})" if result.model is not None else "")
        raise CliError(f"map not written: {len(errors)} error(s), listed above{hint}")
    check_output(args.output, result.inputs, "map not written")  # and its tilesets
    from .io.tiled_labels import moved_reference

    # the image path is relative to the .tmj; the map's is relative to the map file,
    # rebased as the editor's Save As does (issue 29), so the image stays found
    model = moved_reference(result.model, args.tiled.parent, args.output.parent)
    try:
        save_map(model, args.output)
    except OSError as exc:  # MapSaveError: says what and where
        raise CliError(f"map not written: {exc}") from exc
    warnings = len(result.problems)
    print(f"wrote {args.output}: {result.model.name!r}, "
          f"{result.model.width}x{result.model.height}"
          + (f", {warnings} warning(s) listed above" if warnings else ""))
    return 0
