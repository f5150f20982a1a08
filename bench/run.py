"""Run the engine benchmarks: ``python bench/run.py [--json]`` (same as ``sodwa bench``)."""

import sys

from sodwa_editor.cli import main

if __name__ == "__main__":
    sys.exit(main(["bench", *sys.argv[1:]]))
