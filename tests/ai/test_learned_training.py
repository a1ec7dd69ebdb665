"""The learned evaluation is reproducible by one command from its seed (issue 15, point 2):
the same seed and number of games write the same model file, byte for byte."""

from __future__ import annotations

import json
from pathlib import Path

from westeros.ai.evaluation import FEATURES
from westeros.ai.learned import train


def trained(tmp_path: Path, name: str, seed: int) -> bytes:
    out = tmp_path / name
    train.main(["--seed", str(seed), "--games", "5", "--out", str(out)])
    return out.read_bytes()


def test_the_same_seed_writes_a_byte_identical_model(tmp_path: Path) -> None:
    first = trained(tmp_path, "a.json", 3)
    assert trained(tmp_path, "b.json", 3) == first
    model = json.loads(first)
    assert (model["seed"], model["games"]) == (3, 5)
    assert sorted(model["weights"]) == sorted(FEATURES)
    assert model["held_out"]["learned"]["positions"] > 0
    assert trained(tmp_path, "c.json", 4) != first


def test_the_packaged_model_names_the_evaluations_features() -> None:
    model = json.loads(Path(train.PACKAGED).read_text("utf-8"))
    assert model["features"] == list(FEATURES)
    assert model["games"] >= 1000
