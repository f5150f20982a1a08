"""Labels and the reference image through Tiled (issue 29): ``sodwa export-tiled
--labels`` writes the labels as text objects in a ``labels`` object layer and
the importer reads them back (random maps, byte-identical once saved); the
reference image is an image layer; a maintained Tiled reader (pytiled-parser)
loads the files; hand-made text objects it cannot use are warnings."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tiled_maps import tiled_maps

from sodwa_editor.cli import main
from sodwa_editor.engine.annotations import Label, ReferenceImage
from sodwa_editor.engine.model import MapModel
from sodwa_editor.io import dumps_map, load_map, save_map
from sodwa_editor.io.tiled_export import write_tiled
from sodwa_editor.io.tiled_import import import_tiled

label_texts = st.text(min_size=1, max_size=30).filter(lambda t: t.strip() == t and t.strip())


@st.composite
def labelled_maps(draw: st.DrawFn) -> MapModel:
    m = draw(tiled_maps(max_side=6))
    for n in range(draw(st.integers(0, 5))):
        m.labels[f"label-{n + 1}"] = Label(
            f"label-{n + 1}", draw(st.integers(0, m.width - 1)),
            draw(st.integers(0, m.height - 1)), draw(label_texts),
            draw(st.sampled_from(["", "#a0b1c2", "#ffffff"])), draw(st.integers(0, 72)))
    if draw(st.booleans()):
        m.reference_image = ReferenceImage(
            draw(st.sampled_from(["ref.png", "../sketch/a b.jpg"])),
            draw(st.floats(0, 1)), draw(st.floats(0.01, 100)),
            draw(st.floats(-100, 100)), draw(st.floats(-100, 100)))
    return m


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.data_too_large])
@given(labelled_maps())
def test_random_maps_with_labels_round_trip_byte_identical(tmp_path_factory, model):
    folder = tmp_path_factory.mktemp("labels")
    path = write_tiled(model, folder / "m.tmj", labels=True)[0]
    result = import_tiled(path)
    assert result.model is not None, [str(p) for p in result.problems]
    assert dumps_map(result.model) == dumps_map(model)


def sample() -> MapModel:
    m = MapModel(8, 6, name="labelled")
    m.put_label(Label("label-1", 2, 3, "Ford", "#3366ff", 20))
    m.put_label(Label("label-2", 7, 0, "North tower (3 levels)"))
    m.reference_image = ReferenceImage("sketch.png", 0.4, 2.0, -1.0, 0.5)
    return m


def test_cli_export_with_labels_and_import_back(tmp_path, capsys):
    save_map(sample(), tmp_path / "m.json")
    assert main(["export-tiled", str(tmp_path / "m.json"), "-o", str(tmp_path / "t.tmj"),
                 "--labels"]) == 0
    assert "2 label(s)" in capsys.readouterr().out
    doc = json.loads((tmp_path / "t.tmj").read_text())
    layers = {ly["name"]: ly for ly in doc["layers"]}
    texts = [(o["name"], o["text"]) for o in layers["labels"]["objects"]]
    assert texts[0] == ("label-1", {"color": "#3366ff", "halign": "center", "pixelsize": 20,
                                    "text": "Ford", "valign": "center", "wrap": True})
    assert layers["reference image"]["type"] == "imagelayer"
    assert layers["reference image"]["offsetx"] == -32.0
    assert [ly["name"] for ly in doc["layers"]].index("reference image") == 1  # over terrain
    assert main(["import-tiled", str(tmp_path / "t.tmj"), "-o", str(tmp_path / "b.json")]) == 0
    assert (tmp_path / "b.json").read_bytes() == (tmp_path / "m.json").read_bytes()


def test_without_labels_flag_no_labels_layer(tmp_path):
    save_map(sample(), tmp_path / "m.json")
    assert main(["export-tiled", str(tmp_path / "m.json"), "-o", str(tmp_path / "t.tmj")]) == 0
    names = [ly["name"] for ly in json.loads((tmp_path / "t.tmj").read_text())["layers"]]
    assert "labels" not in names
    back = import_tiled(tmp_path / "t.tmj").model
    assert back.labels == {} and back.reference_image == sample().reference_image


def test_pytiled_parser_reads_the_labels(tmp_path):
    import pytiled_parser

    (tmp_path / "sketch.png").write_bytes((Path(__file__).parent.parent / "docs" /
                                           "screenshots" / "editor-paste.png").read_bytes())
    write_tiled(sample(), tmp_path / "t.tmj", labels=True)
    tiled = pytiled_parser.parse_map(tmp_path / "t.tmj")
    layer = next(ly for ly in tiled.layers if ly.name == "labels")
    assert [o.text for o in layer.tiled_objects] == ["Ford", "North tower (3 levels)"]
    image = next(ly for ly in tiled.layers if ly.name == "reference image")
    assert image.image.name == "sketch.png"


def test_hand_made_text_objects_and_what_is_left_out(tmp_path):
    write_tiled(MapModel(6, 4), tmp_path / "t.tmj")
    doc = json.loads((tmp_path / "t.tmj").read_text())
    objects = [
        {"id": 50, "name": "", "x": 70, "y": 40, "width": 40, "height": 20,
         "text": {"text": "  Well  ", "color": "#80ff0000"}},   # tile (2, 1), ARGB colour
        {"id": 51, "name": "n", "x": 5, "y": 5, "point": True},  # not a text object
        {"id": 52, "name": "far", "x": 900, "y": 5, "width": 10, "height": 10,
         "text": {"text": "off"}},
    ]
    doc["layers"].append({"id": 99, "name": "labels", "type": "objectgroup",
                          "objects": objects, "x": 0, "y": 0, "opacity": 1, "visible": True})
    (tmp_path / "t.tmj").write_text(json.dumps(doc))
    result = import_tiled(tmp_path / "t.tmj")
    assert result.model is not None
    assert list(result.model.labels.values()) == [Label("label-1", 2, 1, "Well", "#ff0000")]
    messages = [str(p) for p in result.problems]
    assert any("object 51 in layer 'labels'" in m and "not a text object" in m
               for m in messages)
    assert any("object 52" in m and "off the map" in m for m in messages)


def test_saved_map_with_labels_loads_in_the_sample_maps_format(tmp_path):
    save_map(sample(), tmp_path / "m.json")
    assert load_map(tmp_path / "m.json").same_content(sample())


def test_export_elsewhere_points_the_image_layer_at_the_image(tmp_path):
    (tmp_path / "maps").mkdir()
    save_map(sample(), tmp_path / "maps" / "m.json")  # its image: maps/sketch.png
    out = tmp_path / "tiled" / "t.tmj"
    out.parent.mkdir()
    assert main(["export-tiled", str(tmp_path / "maps" / "m.json"), "-o", str(out)]) == 0
    layers = {ly["name"]: ly for ly in json.loads(out.read_text())["layers"]}
    assert layers["reference image"]["image"] == "../maps/sketch.png"
    save_map(import_tiled(out).model, tmp_path / "tiled" / "back.json")
    assert load_map(tmp_path / "tiled" / "back.json").reference_image.path == \
        "../maps/sketch.png"  # beside the .tmj: the same file


def test_import_into_another_folder_rebases_the_image_path(tmp_path):
    """``sodwa import-tiled IN.tmj -o OTHER/MAP.json``: the image layer's path is
    relative to the .tmj, the map's to the map file: rebased, as Save As does."""
    (tmp_path / "maps").mkdir()
    (tmp_path / "maps" / "sketch.png").write_bytes(b"png")
    save_map(sample(), tmp_path / "maps" / "m.json")  # its image: maps/sketch.png
    tmj = tmp_path / "tiled" / "t.tmj"
    tmj.parent.mkdir()
    assert main(["export-tiled", str(tmp_path / "maps" / "m.json"), "-o", str(tmj)]) == 0
    for out, expected in ((tmp_path / "out" / "deep" / "m.json", "../../maps/sketch.png"),
                          (tmp_path / "maps" / "again.json", "sketch.png"),
                          (tmp_path / "tiled" / "here.json", "../maps/sketch.png")):
        out.parent.mkdir(parents=True, exist_ok=True)
        assert main(["import-tiled", str(tmj), "-o", str(out)]) == 0
        ref = load_map(out).reference_image
        assert ref.path == expected
        assert (out.parent / ref.path).resolve() == (tmp_path / "maps" / "sketch.png").resolve()
    # an absolute path stays as it is
    model = sample()
    model.reference_image = dataclasses.replace(model.reference_image,
                                                path=str(tmp_path / "maps" / "sketch.png"))
    save_map(model, tmp_path / "maps" / "abs.json")
    assert main(["export-tiled", str(tmp_path / "maps" / "abs.json"), "-o", str(tmj)]) == 0
    assert main(["import-tiled", str(tmj), "-o", str(tmp_path / "out" / "abs.json")]) == 0
    assert load_map(tmp_path / "out" / "abs.json").reference_image.path == str(
        tmp_path / "maps" / "sketch.png")


def test_import_with_a_relative_tmj_path_rebases_from_the_working_folder(tmp_path,
                                                                          monkeypatch):
    (tmp_path / "maps").mkdir()
    save_map(sample(), tmp_path / "maps" / "m.json")
    (tmp_path / "out").mkdir()
    monkeypatch.chdir(tmp_path)
    assert main(["export-tiled", "maps/m.json", "-o", "t.tmj"]) == 0
    assert main(["import-tiled", "t.tmj", "-o", "out/m.json"]) == 0
    assert load_map(tmp_path / "out" / "m.json").reference_image.path == "../maps/sketch.png"
