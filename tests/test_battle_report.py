"""The balance report must not mislead (issue 24 section 1): its first line says what
was compared (the sides, by start zone and team, with points) and the answer (win
share with its 95 % interval and a verdict against a threshold); entries only when
the two sides had different AIs, profiles or team files, named by what differs;
swap or no swap said once, with its reason.  And area ability use per archetype
(issue 25): what a record counts and the report's table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sodwa_editor.battle.ability_use import AbilityTally, ability_rows
from sodwa_editor.battle.batch import play, run_batch
from sodwa_editor.battle.events import AbilityUsed, AreaHit, Defeated
from sodwa_editor.battle.report import REPORT_VERSION, characters_of, format_summary, summarize
from sodwa_editor.battle.report_html import render
from sodwa_editor.battle.report_verdict import judge, percent_bounds, verdict
from sodwa_editor.battle.setup import BattleSetup
from sodwa_editor.battle.sheet import load_roster
from sodwa_editor.battle.teams import teams_from_files
from sodwa_editor.cli import main
from sodwa_editor.engine.model import Character, MapModel
from sodwa_editor.io import read_map

MAPS = Path(__file__).resolve().parents[1] / "maps"
KEEP = MAPS / "tiered-keep.json"
COMPOUND = MAPS / "indoor-compound.json"


def zoned_map() -> MapModel:
    """8 x 4, two start zones of 4 tiles (east: team 0, west: team 1)."""
    m = MapModel(8, 4)
    m.characters["a"] = Character("a", "east", 7, 1, name="Knight")
    m.characters["b"] = Character("b", "west", 0, 1, name="Archer")
    m.start_zones = {"east": [(7, y) for y in range(4)], "west": [(0, y) for y in range(4)]}
    m.notify_bulk_change()
    return m


def team_file(path: Path, name: str, archetypes: list[str]) -> Path:
    path.write_text(json.dumps({"format": "sodwa-team", "format_version": 1, "name": name,
                                "members": [{"id": f"m{i}", "archetype": a}
                                            for i, a in enumerate(archetypes)]}))
    return path


def swap_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if "swap" in line]


def test_tiered_keep_greedy_vs_greedy_with_swap_ticked_reads_unbalanced():
    """The issue's case: the map's characters, greedy on both sides, swap ticked.  The
    old report said 'AI #1 greedy wins 50.6 %' (the AIs are one and the same) while
    team 0 won 93.8 %: the headline now names the sides and says unbalanced."""
    setup = BattleSetup.from_map(read_map(KEEP)[0], ai=("greedy", "greedy"))
    rep = summarize(setup, run_batch(setup, 40, seed=0, swap_sides=True), seed=0,
                    swap_sides=True)
    text = format_summary(rep)
    first = text.splitlines()[0]
    assert first == rep["headline"]
    assert first.startswith("attackers (team 0, 400 pts) wins ")
    assert "against defenders (team 1, 200 pts)" in first
    assert first.endswith(": unbalanced (outside 50 ± 5 %)")
    assert rep["verdict"]["word"] == "unbalanced" and rep["verdict"]["leader"] == 0
    lo, _hi = percent_bounds(rep["verdict"]["share"]["ci95"])
    assert lo >= 55 and f"[{lo}-" in first
    # both entries are greedy with one profile: no entry row, no "AI #1"
    assert rep["entries"] == [] and "AI #" not in text and "greedy wins" not in text
    # the swap said once, with its reason
    assert rep["swap"] == {"requested": True, "done": False, "reason": rep["swap"]["reason"]}
    assert rep["swap"]["reason"].startswith("requested but pointless: greedy with one "
                                            "profile plays both teams")
    assert len(swap_lines(text)) == 1
    assert rep["report_version"] == REPORT_VERSION == 2
    # the HTML: the same headline first, the swap once, no contradiction
    page = render([{**rep, "map": "tiered-keep", "map_hash": "sha256:ab", "file_hash":
                    "sha256:ab"}])
    assert page.index(rep["headline"]) < page.index("<pre>")
    assert "swapped every other battle" not in page
    assert page.count("sides swapped: no, requested but pointless") == 1


def test_two_team_files_are_named_by_file_and_swapped_or_not_said_once(tmp_path):
    roster = load_roster()
    model = zoned_map()
    knights = team_file(tmp_path / "knights.json", "knights", ["Knight", "Knight"])
    archers = team_file(tmp_path / "archers.json", "archers", ["Archer"])
    teams, docs = teams_from_files(model, [knights, archers], roster)
    setup = BattleSetup.from_map(model, roster=roster, teams=teams, ai=("random", "random"),
                                 docs={"teams": docs})
    names = {"team_file": ["knights.json", "archers.json"]}
    cost = {a: roster.find(a).sheet().cost for a in ("Knight", "Archer")}
    # swapped: each file plays both zones; the sides' points vary, the entries' do not
    rep = summarize(setup, run_batch(setup, 8, seed=1, swap_sides=True), seed=1,
                    swap_sides=True, names=names)
    assert rep["swap"]["done"] and rep["swap"]["reason"].startswith("requested and done")
    assert [e["label"] for e in rep["entries"]] == ["team file knights.json",
                                                    "team file archers.json"]
    assert [e["points"] for e in rep["entries"]] == [2 * cost["Knight"], cost["Archer"]]
    assert [s["label"] for s in rep["sides"]] == ["east (team 0)", "west (team 1)"]
    text = format_summary(rep)
    entry_line = next(line for line in text.splitlines() if "wins" in line and "team file"
                      in line)
    assert "each on both sides in turn" in entry_line
    assert "team file archers.json" in entry_line
    assert "AI #" not in text and len(swap_lines(text)) == 1
    # not swapped: a side is its file, said in the headline, and the mix is explained
    rep = summarize(setup, run_batch(setup, 4, seed=1), seed=1, swap_sides=False,
                    names=names)
    first = format_summary(rep).splitlines()[0]
    assert f"east (team 0, {2 * cost['Knight']} pts, team file knights.json)" in first
    assert f"west (team 1, {cost['Archer']} pts, team file archers.json)" in first
    assert rep["swap"]["reason"].startswith("not requested: east (team 0) always had team "
                                            "file knights.json, so the side rates mix")
    # one file twice: the same team on both sides, no entries
    teams, docs = teams_from_files(model, [knights], roster)
    same = BattleSetup.from_map(model, roster=roster, teams=teams, ai=("random", "random"))
    rep = summarize(same, run_batch(same, 2, seed=1, swap_sides=True), seed=1,
                    swap_sides=True, names={"team_file": ["knights.json"]})
    assert rep["entries"] == [] and rep["swap"]["done"]


def test_different_ais_are_named_by_their_ai_and_identical_ais_with_swap_are_not():
    model = zoned_map()
    setup = BattleSetup.from_map(model, ai=("pass", "random"))
    rep = summarize(setup, run_batch(setup, 6, seed=1, swap_sides=True), seed=1,
                    swap_sides=True)
    assert [e["label"] for e in rep["entries"]] == ["AI pass", "AI random"]
    text = format_summary(rep)
    assert "AI random wins 100 % [" in text and "against AI pass" in text
    # without the swap, each side's AI is in the headline
    rep = summarize(setup, run_batch(setup, 2, seed=1), seed=1, swap_sides=False)
    assert "(team 1, 100 pts, AI random)" in rep["headline"]
    assert "(team 0, 120 pts, AI pass)" in rep["headline"]
    # the same AI and profile on both sides, swap ticked: no entry, the swap pointless
    same = BattleSetup.from_map(model, ai=("random", "random"))
    rep = summarize(same, run_batch(same, 6, seed=1, swap_sides=True), seed=1,
                    swap_sides=True)
    text = format_summary(rep)
    assert rep["entries"] == [] and not rep["swap"]["done"]
    assert "random wins" not in text and "AI " not in text.splitlines()[0]
    assert len(swap_lines(text)) == 1


def test_profiles_differ_by_content_not_by_file_name(tmp_path):
    from sodwa_editor.battle.ai.profile import default_profile, load_profile

    bold = tmp_path / "bold.json"
    bold.write_text(json.dumps({"format": "sodwa-ai-profile", "format_version": 1,
                                "greedy": {"threat": 5.0}}))
    model = zoned_map()
    setup = BattleSetup.from_map(model, ai=("greedy", "greedy"),
                                 profiles=[default_profile(), load_profile(bold)])
    rep = summarize(setup, run_batch(setup, 2, seed=1, swap_sides=True), seed=1,
                    swap_sides=True, names={"profile": ["shipped.json", "bold.json"]})
    assert [e["label"] for e in rep["entries"]] == ["profile shipped.json", "profile bold.json"]
    same = BattleSetup.from_map(model, ai=("greedy", "greedy"),
                                profiles=[load_profile(bold), load_profile(bold)])
    assert summarize(same, [], seed=1, swap_sides=True,
                     names={"profile": ["bold.json", "copy.json"]})["entries"] == []


@pytest.mark.parametrize(("wins", "decided", "threshold", "word"), [
    (50, 100, 5, "not clear yet"), (50, 100, 10, "balanced"), (90, 100, 5, "unbalanced"),
    (10, 100, 5, "unbalanced"), (60, 100, 5, "not clear yet"), (500, 1000, 4, "balanced"),
    (0, 0, 5, "no decided battle")])
def test_the_verdict_is_the_interval_against_the_band(wins, decided, threshold, word):
    v = verdict(wins, decided, threshold)
    assert v["word"] == word
    lo, hi = percent_bounds(v["share"]["ci95"])  # as shown: rounded outwards
    low, high = 50 - threshold, 50 + threshold
    if word == "balanced":
        assert low <= lo and hi <= high
    elif word == "unbalanced":
        assert lo >= high or hi <= low
    elif decided:
        assert lo < low < hi or lo < high < hi


def test_the_threshold_judges_the_same_counts_again():
    setup = BattleSetup.from_map(zoned_map(), ai=("random", "random"))
    rep = summarize(setup, [], seed=0, swap_sides=False)
    rep["sides"][0]["wins"]["count"], rep["sides"][1]["wins"]["count"] = 50, 50
    rep["battles"] = 100
    assert judge(rep, 5)["verdict"]["word"] == "not clear yet"
    tolerant = judge(rep, 10)
    assert tolerant["verdict"]["word"] == "balanced" and tolerant["threshold"] == 10
    assert tolerant["headline"].endswith("balanced (within 50 ± 10 %)")


@pytest.mark.parametrize(("value", "message"), [
    ("0", "must be 1 or more, got 0"), ("26", "must be at most 25, got 26"),
    ("2.5", "expected a whole number, got '2.5'")])
def test_simulate_refuses_a_threshold_out_of_bounds_in_one_line(capsys, value, message):
    with pytest.raises(SystemExit) as exc:
        main(["simulate", str(KEEP), "--battles", "2", "--balanced-within", value])
    err = capsys.readouterr().err
    assert exc.value.code == 2
    assert err.splitlines()[-1] == f"sodwa simulate: error: argument --balanced-within: " \
                                   f"{message}"


def test_simulate_json_carries_the_headline_verdict_threshold_swap_and_entries(capsys):
    code = main(["simulate", str(KEEP), "--battles", "4", "--swap-sides", "--ai",
                 "greedy,random", "--balanced-within", "20", "--json"])
    assert code == 0
    rep = json.loads(capsys.readouterr().out)["maps"][0]
    assert rep["report_version"] == 2 and rep["threshold"] == 20
    assert rep["verdict"]["band"] == [30, 70] and rep["headline"]
    assert rep["swap"] == {"requested": True, "done": True, "reason": rep["swap"]["reason"]}
    assert [(e["entry"], e["label"], e["ai"]) for e in rep["entries"]] == [
        (0, "AI greedy", "greedy"), (1, "AI random", "random")]
    assert rep["map_hash"] == rep["file_hash"]
    assert not {"swap_sides", "swap_note", "ai_wins"} & set(rep)
    main(["simulate", str(KEEP), "--battles", "2"])
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith(f"{KEEP}: attackers (team 0, 400 pts) wins ")


def test_the_html_says_whether_unsaved_edits_were_played():
    setup = BattleSetup.from_map(zoned_map(), ai=("random", "random"))
    rep = summarize(setup, run_batch(setup, 2, seed=0), seed=0, swap_sides=False)
    saved = render([{**rep, "map": "m", "map_hash": "sha256:aa", "file_hash": "sha256:aa"}])
    assert "the file as saved" in saved and "unsaved" not in saved
    edited = render([{**rep, "map": "m", "map_hash": "sha256:aa", "file_hash": "sha256:bb"}])
    assert "includes unsaved edits (the file on disk has hash sha256:bb)" in edited
    never = render([{**rep, "map": "m", "map_hash": "sha256:aa", "file_hash": None}])
    assert "includes unsaved edits (the map was never saved)" in never


# ----------------------------------------------------------- ability use
def test_ability_rows_count_uses_victims_damage_and_kills():
    def hit(actor, target, ally, success, damage, hp):
        return AreaHit(actor, "Fireball", target, ally, -1, "ranged", 60, 100, 10, (), 50,
                       50, (4, 2), 42, False, 0, 0, 0, 0, success, False, damage, hp, 0,
                       False, "clear", True)

    events = [AbilityUsed(2, "Fireball", (3, 4), (3, 4), ((3, 4),), 250, 1),
              hit(2, 5, False, True, 4, 0), hit(2, 6, False, False, 0, 8),
              hit(2, 1, True, True, 3, 2), Defeated(5, 2, (3, 4)),
              AbilityUsed(2, "Fireball", (3, 5), (3, 5), ((3, 5),), 0, 0),
              hit(2, 1, True, True, 3, -1), Defeated(1, 2, (3, 5))]
    assert ability_rows(events) == [[2, "Fireball", 2, 2, 2, 1, 4, 6, 1, 1]]


def test_ability_use_per_archetype_adds_up_over_real_battles():
    """Greedy against greedy on the indoor compound (a Mage with Fireball, a Brute with
    Ground Slam): the report's per-archetype totals are the sums of the records' rows,
    and its text, JSON and HTML carry the table."""
    setup = BattleSetup.from_map(read_map(COMPOUND)[0], ai=("greedy", "greedy"))
    records = [play(setup, 3, i, False) for i in range(6)]
    rep = summarize(setup, records, seed=3, swap_sides=False)
    cast = characters_of(setup)[0]
    by_name = {(a["archetype"], a["ability"]): a for a in rep["abilities"]}
    assert set(by_name) == {("Mage", "Fireball"), ("Brute", "Ground Slam")}
    for (archetype, ability), row in by_name.items():
        mine = [r for rec in records for r in rec["abilities"]
                if cast[r[0]]["archetype"] == archetype and r[1] == ability]
        assert row["uses"] == sum(r[2] for r in mine)
        assert row["damage"] == sum(r[6] for r in mine)
        assert row["carriers"] == 6  # one such character per battle
    assert sum(a["uses"] for a in rep["abilities"]) > 0  # the AIs use them
    text = format_summary(rep)
    assert "area ability use per archetype" in text and "Ground Slam" in text
    assert "Fireball" in render([{**rep, "map": "c", "map_hash": "x", "file_hash": "x"}])
    tally = AbilityTally(characters_of(setup))
    for rec in records:
        tally.add(rec["swapped"], rec["abilities"])
    assert tally.report() == rep["abilities"]
