"""Fuzz the loaders, the engine queries of the editor's previews, the save/load
round trip and the battle files (teams, rosters, rules, AI profiles and replays
through ``sodwa battle`` and ``sodwa replay --verify``):
``python bench/fuzz.py --cases 10000 --seed 1 [--out fuzz-failures]``.

Prints a summary by outcome and failure kind; failing inputs are written to the
output folder (see ``sodwa_editor/io/fuzz_runner.py``).  Exit status 1 if any
case failed.
"""

import sys

from sodwa_editor.cli_fuzz import TARGET
from sodwa_editor.io.fuzz_runner import main

if __name__ == "__main__":
    sys.exit(main(target=TARGET))
