"""The battle engine (GUI-free): rules config, sheets and rosters, teams, the battle
clock, the d100, karma and the attack roll.  It imports the engine, never Qt, io or
the editor.  See docs/rules.md, section Battle."""
