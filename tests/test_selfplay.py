"""Self-play data: every recorded position is the mover's own view with the search's visits and
the game's outcome, a replay of the recorded actions gives the same planes, and a folder can
be continued (after Ctrl-C too) into exactly the data of one uninterrupted run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import hexengine as hx
from hexengine.selfplay import ARRAYS

TESTS = Path(__file__).resolve().parent


def uniform(planes: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """An evaluator for the tests: even priors, values from the stone count (so not all 0)."""
    values = np.tanh(planes[:, 0].sum(axis=(1, 2)) - planes[:, 1].sum(axis=(1, 2))) * 0.5
    return np.ones(mask.shape, np.float32), values.astype(np.float32)


class Counting:
    """The tests' evaluator, counting its calls; from the ``interrupt_at``-th on it raises
    KeyboardInterrupt, as Ctrl-C in a search does."""

    def __init__(self, interrupt_at: int = 0) -> None:
        self.calls, self.interrupt_at = 0, interrupt_at

    def __call__(self, planes: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        self.calls += 1
        if self.calls == self.interrupt_at:
            raise KeyboardInterrupt
        return uniform(planes, mask)


def games_of(data: dict[str, np.ndarray]) -> list[dict[str, np.ndarray]]:
    return [{k: v[data["game"] == g] for k, v in data.items()} for g in np.unique(data["game"])]


def check_data(data: dict[str, np.ndarray], rules: hx.Rules, temperature_moves: int) -> None:
    """Shapes and dtypes, masks, visit distributions and outcomes, and a replay of every game
    from its actions that meets each recorded position as the mover's view."""
    n, cells = len(data["outcome"]), rules.rows * rules.cols
    assert data["planes"].shape == (n, len(hx.PLANES), rules.rows, rules.cols)
    assert data["mask"].shape == data["policy"].shape == (n, cells + 1)
    dtypes = {k: data[k].dtype for k in ARRAYS}
    assert dtypes == {
        "planes": np.float32, "mask": np.bool_, "policy": np.float32, "outcome": np.float32,
        "game": np.int32, "move": np.int32, "action": np.int32, "color": np.int8,
    }  # fmt: skip
    assert np.allclose(data["policy"].sum(axis=1), 1.0, atol=1e-5)
    assert not data["policy"][~data["mask"]].any(), "visits on an illegal action"
    assert data["mask"][np.arange(n), data["action"]].all()
    assert set(np.unique(data["outcome"]).tolist()) <= {-1.0, 1.0}
    if not rules.is_dark:
        # In Hex and Rex every empty cell is legal, and the swap exactly when the swap plane says so.
        assert (data["mask"][:, :cells] == data["planes"][:, 2].reshape(n, cells).astype(bool)).all()
        assert (data["mask"][:, cells] == data["planes"][:, 5, 0, 0].astype(bool)).all()
    late = data["move"] >= temperature_moves
    chosen = data["policy"][np.arange(n), data["action"]]
    assert (chosen[late] == data["policy"][late].max(axis=1)).all(), "a late move is not the most visited"
    for game_data in games_of(data):
        game = hx.Game(rules)
        for k in range(len(game_data["action"])):
            assert len(game.history) == game_data["move"][k]
            mover = game.to_move
            assert int(mover) == game_data["color"][k]
            assert np.array_equal(game.view(mover).planes(), game_data["planes"][k])
            assert np.array_equal(game.view(mover).action_mask(), game_data["mask"][k])
            game.apply(int(game_data["action"][k]))
        assert game.is_over
        won = game_data["color"] == int(game.winner)
        assert np.array_equal(game_data["outcome"], np.where(won, 1.0, -1.0))


def test_playout_selfplay_records_the_positions_as_played(tmp_path: Path) -> None:
    rules = hx.Rules("hex", 4, 4, "sides")
    result = hx.selfplay(tmp_path, variant="hex", size=4, games=6, simulations=60, seed=3, games_per_shard=4)
    assert (result.games, result.shards, result.red_wins + result.blue_wins) == (6, 2, 6)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "manifest.json",
        "shard-00000.npz",
        "shard-00001.npz",
    ]
    data = hx.read_selfplay(tmp_path)
    assert result.positions == len(data["outcome"])
    assert data["game"].tolist() == sorted(data["game"].tolist()) and set(data["game"].tolist()) == set(
        range(6)
    )
    check_data(data, rules, temperature_moves=16 // 3)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["settings"]["search"] == "playout" and "noise_fraction" not in manifest["settings"]
    assert [s["games"] for s in manifest["shards"]] == [4, 2]


def test_evaluator_selfplay_visits_the_swap_as_an_action(tmp_path: Path) -> None:
    rules = hx.Rules("hex", 4, 4, "sides")
    hx.selfplay(tmp_path, size=4, games=4, simulations=64, evaluator="test_selfplay:uniform", seed=1)
    data = hx.read_selfplay(tmp_path)
    check_data(data, rules, temperature_moves=5)
    swap_offered = data["mask"][:, -1]
    assert swap_offered.sum() == 4 and (data["policy"][swap_offered, -1] > 0).all()
    settings = json.loads((tmp_path / "manifest.json").read_text())["settings"]
    assert (settings["search"], settings["noise_fraction"], settings["noise_alpha"]) == (
        "evaluator",
        0.25,
        10 / 16,
    )


def test_dark_hex_records_only_the_movers_view(tmp_path: Path) -> None:
    rules = hx.Rules("dark", 4, 4)
    hx.selfplay(tmp_path, variant="dark", size=4, games=4, simulations=60, seed=2)
    data = hx.read_selfplay(tmp_path)
    check_data(data, rules, temperature_moves=5)  # planes equal to the mover's view, replayed
    hidden_somewhere = False
    for game_data in games_of(data):
        game = hx.Game(rules)
        for planes, action in zip(game_data["planes"], game_data["action"], strict=True):
            # The recorded opponent plane holds only the stones the mover has found.
            seen = planes[1].astype(bool)
            enemy = int(hx.BLUE if game.to_move == hx.RED else hx.RED)
            true_enemy = game.board == enemy
            assert not (seen & ~true_enemy).any()
            hidden_somewhere |= bool((true_enemy & ~seen).any())
            game.apply(int(action))
    assert hidden_somewhere, "no position had a hidden stone to keep out of the planes"


def test_a_resumed_folder_equals_one_run(tmp_path: Path) -> None:
    settings = {"size": 4, "swap": "off", "simulations": 40, "seed": 7, "games_per_shard": 2}
    hx.selfplay(tmp_path / "one", games=6, **settings)
    hx.selfplay(tmp_path / "two", games=3, **settings)  # the second shard is left with one game
    resumed = hx.selfplay(tmp_path / "two", games=6, **settings)
    assert (resumed.games, resumed.new, resumed.shards) == (6, 3, 3)
    one, two = hx.read_selfplay(tmp_path / "one"), hx.read_selfplay(tmp_path / "two")
    for k in ARRAYS:
        assert np.array_equal(one[k], two[k]), k
    again = hx.selfplay(tmp_path / "two", games=6, **settings)
    assert again.new == 0 and again.games == 6


def test_ctrl_c_keeps_the_finished_games_and_the_run_continues(tmp_path: Path, monkeypatch) -> None:
    settings = {"size": 4, "swap": "off", "simulations": 32, "seed": 4, "games_per_shard": 3}
    settings["evaluator"] = "test_selfplay:counted"
    module = sys.modules[__name__]
    monkeypatch.setattr(module, "counted", counting := Counting(), raising=False)
    hx.selfplay(tmp_path / "whole", games=5, **settings)
    # The same evaluator under the same name, interrupted two thirds of the way.
    monkeypatch.setattr(module, "counted", Counting(interrupt_at=counting.calls * 2 // 3))
    with pytest.raises(KeyboardInterrupt):
        hx.selfplay(tmp_path / "cut", games=5, **settings)
    kept = hx.read_selfplay(tmp_path / "cut")
    finished = len(np.unique(kept["game"]))
    assert 1 <= finished < 5 and kept["game"].max() == finished - 1
    monkeypatch.setattr(module, "counted", Counting())
    hx.selfplay(tmp_path / "cut", games=5, **settings)
    whole, cut = hx.read_selfplay(tmp_path / "whole"), hx.read_selfplay(tmp_path / "cut")
    for k in ARRAYS:
        assert np.array_equal(whole[k], cut[k]), k


def test_other_settings_in_the_same_folder_are_an_error(tmp_path: Path) -> None:
    hx.selfplay(tmp_path, size=4, swap="off", games=1, simulations=30)
    with pytest.raises(hx.ConfigError, match=r"simulations 30 there, 40 here"):
        hx.selfplay(tmp_path, size=4, swap="off", games=2, simulations=40)
    with pytest.raises(hx.ConfigError, match=r"rows 4 there, 5 here"):
        hx.selfplay(tmp_path, size=5, swap="off", games=2, simulations=30)
    assert hx.selfplay(tmp_path, size=4, swap="off", games=2, simulations=30).games == 2


def test_the_command_line(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")])}
    command = [sys.executable, "-m", "hexengine.cli", "selfplay", "--size", "3", "--swap", "off"]
    command += ["--games", "4", "--evaluator", "test_selfplay:uniform", "--out", str(tmp_path / "d")]
    done = subprocess.run(
        [*command, "--simulations", "20"], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("4 games, ") and "Red won" in done.stdout and done.stderr == ""
    assert len(hx.read_selfplay(tmp_path / "d")["game"]) > 0
    again = subprocess.run(
        [*command, "--simulations", "21"], capture_output=True, text=True, env=env, timeout=120
    )
    assert again.returncode == 2 and "simulations 20 there, 21 here" in again.stderr


def test_cluster_without_ray_says_what_to_install(tmp_path: Path, monkeypatch, capsys) -> None:
    """Without Ray, cluster= and --cluster fail with what to install, before anything is written."""
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(hx.ConfigError, match=r"--cluster needs Ray: pip install 'hexengine\[cluster\]'"):
        hx.selfplay(tmp_path / "d", size=3, games=1, simulations=10, cluster="auto")
    assert not (tmp_path / "d").exists()
    from hexengine.cli import main

    capsys.readouterr()
    args = ["selfplay", "--size", "3", "--games", "1", "--out", str(tmp_path / "d"), "--cluster", "auto"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "hexengine selfplay: --cluster needs Ray: pip install 'hexengine[cluster]'" in err
    assert not (tmp_path / "d").exists()
