"""The battle engine (GUI-free): rules config, sheets and rosters, teams, the battle
clock, the d100, karma and the attack roll; on them the battle state, turns and
actions, targeting, attacks on terrain, the abilities interface, the event log and
the turn loop with its controllers (``ai/``).  It imports the engine, never Qt, io
or the editor.  See docs/rules.md, section Battle."""
