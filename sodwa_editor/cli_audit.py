"""``sodwa audit-log LOG.json``: re-derive every attack's numbers of a battle log from
its own header (:mod:`sodwa_editor.battle.audit_log`, docs/battle-log.md).

Exit 0 when every number matches, 1 with one line per mismatch (``LOG.json:
events[12] (attacked): tdv is 95, the header gives 105``) or for a file that is not
a battle log.  ``-`` reads the log from standard input (``sodwa battle MAP --json |
sodwa audit-log -``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from .cli_common import CliError
from .cli_common import emit as _emit

#: Mismatch lines printed before the rest are counted (``--json`` lists them all).
SHOWN = 20


def add_parser(sub: Any) -> None:
    a = sub.add_parser("audit-log", help="re-derive every attack's numbers of a battle log "
                                         "(sodwa battle --json) from its own header")
    a.add_argument("log", type=Path, metavar="LOG.json",
                   help="a battle log (schemas/battle-log.schema.json); - reads stdin")
    a.add_argument("--json", action="store_true",
                   help="print {events, attacks, problems: [{index, what}]}")


def cmd_audit_log(args: argparse.Namespace) -> int:
    from .battle.audit_log import audit
    from .battle.jsonfiles import BattleInputError, read_json

    source = str(args.log)
    if source == "-":
        import json

        try:
            doc = json.loads(sys.stdin.read())
        except ValueError as exc:
            raise CliError(f"-: not JSON: {exc}") from None
        source = "<stdin>"
    else:
        try:
            doc = read_json(args.log)
        except BattleInputError as exc:
            raise CliError(str(exc)) from None
    result = audit(doc, source)
    if args.json:
        _emit({"events": result.events, "attacks": result.attacks,
               "problems": [{"index": p.index, "what": p.what} for p in result.problems]})
        return 0 if result.ok else 1
    for p in result.problems[:SHOWN]:
        print(p.what if p.what.startswith(source) else f"{source}: {p.what}")
    if len(result.problems) > SHOWN:
        print(f"{source}: ... and {len(result.problems) - SHOWN} more mismatch(es)")
    if not result.ok:
        return 1
    print(f"{source}: audited {result.events} events, {result.attacks} attack roll(s): "
          "every number re-derived from the header matches")
    return 0
