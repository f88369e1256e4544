"""tools/train_net.py trains on self-play shards and writes an ONNX network that hx.OnnxEvaluator
reads and the search plays with (skipped without PyTorch, which CI does not install)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch", reason="tools/train_net.py needs PyTorch (the train extra)")
pytest.importorskip("onnxruntime", reason="the nn extra (onnxruntime) is not installed")

import hexengine as hx

ROOT = Path(__file__).resolve().parent.parent


def test_a_network_is_trained_exported_and_played(tmp_path: Path) -> None:
    hx.selfplay(tmp_path / "data", size=3, swap="off", games=30, simulations=30)
    command = [sys.executable, str(ROOT / "tools" / "train_net.py"), str(tmp_path / "data")]
    command += ["--epochs", "2", "--channels", "8", "--blocks", "1", "--batch", "32", "--threads", "1"]
    done = subprocess.run(
        [*command, "--out", str(tmp_path / "net.onnx")], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "epoch   2  train policy" in done.stdout and (tmp_path / "net.pt").exists()
    evaluator = hx.OnnxEvaluator(tmp_path / "net.onnx")
    view = hx.Game("hex", size=3, swap="off").view(hx.RED)
    priors, values = evaluator(np.stack([view.planes()] * 3), np.stack([view.action_mask()] * 3))
    assert priors.shape == (3, 10) and values.shape == (3,) and priors[:, 9].sum() == 0  # no swap here
    assert hx.MCTSBot(evaluator=evaluator, simulations=50).choose(view) in view.legal_moves()
