"""ONNX networks as evaluators: hx.OnnxEvaluator reads a model with the documented names and
shapes, gives the search priors and values, and refuses models it cannot use."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx", reason="building test models needs onnx")
pytest.importorskip("onnxruntime", reason="the nn extra (onnxruntime) is not installed")
from onnx import TensorProto, helper  # noqa: E402

import hexengine as hx  # noqa: E402

SIZE = 5
ACTIONS = SIZE * SIZE + 1
FEATURES = len(hx.PLANES) * SIZE * SIZE


def linear_model(path: Path, favoured: int, *, head: str = "logits", with_mask: bool = False) -> Path:
    """A linear policy/value net: logits favour one action; the value is tanh of a weighted sum."""
    weights = np.zeros((FEATURES, ACTIONS), np.float32)
    bias = np.zeros(ACTIONS, np.float32)
    bias[favoured] = 5.0
    value_weights = np.full((FEATURES, 1), 0.01, np.float32)
    nodes = [
        helper.make_node("Flatten", ["planes"], ["flat"], axis=1),
        helper.make_node("MatMul", ["flat", "w"], ["scores"]),
        helper.make_node("Add", ["scores", "b"], ["logits_raw"]),
        helper.make_node("MatMul", ["flat", "vw"], ["v_raw"]),
        helper.make_node("Tanh", ["v_raw"], ["value"]),
    ]
    if head == "priors":
        nodes.append(helper.make_node("Softmax", ["logits_raw"], ["priors"], axis=1))
    else:
        nodes.append(helper.make_node("Identity", ["logits_raw"], ["logits"]))
    inputs = [helper.make_tensor_value_info("planes", TensorProto.FLOAT, ["B", len(hx.PLANES), SIZE, SIZE])]
    if with_mask:
        inputs.append(helper.make_tensor_value_info("mask", TensorProto.BOOL, ["B", ACTIONS]))
        nodes.append(helper.make_node("Identity", ["mask"], ["mask_seen"]))
    outputs = [
        helper.make_tensor_value_info(head, TensorProto.FLOAT, ["B", ACTIONS]),
        helper.make_tensor_value_info("value", TensorProto.FLOAT, ["B", 1]),
    ]
    if with_mask:
        outputs.append(helper.make_tensor_value_info("mask_seen", TensorProto.BOOL, ["B", ACTIONS]))
    graph = helper.make_graph(
        nodes,
        "linear",
        inputs,
        outputs,
        initializer=[
            helper.make_tensor("w", TensorProto.FLOAT, weights.shape, weights.ravel()),
            helper.make_tensor("b", TensorProto.FLOAT, bias.shape, bias),
            helper.make_tensor("vw", TensorProto.FLOAT, value_weights.shape, value_weights.ravel()),
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, path)
    return path


@pytest.mark.parametrize(("head", "with_mask"), [("logits", False), ("priors", False), ("logits", True)])
def test_an_onnx_model_guides_the_search(tmp_path: Path, head: str, with_mask: bool) -> None:
    evaluator = hx.OnnxEvaluator(linear_model(tmp_path / "net.onnx", 7, head=head, with_mask=with_mask))
    game = hx.Game("hex", size=SIZE, swap="off")
    game.play("c3")
    view = game.view(hx.BLUE)
    priors, values = evaluator(view.planes()[None], view.action_mask()[None])
    assert priors.shape == (1, ACTIONS) and values.shape == (1,) and -1 <= values[0] <= 1
    assert priors[0, ~view.action_mask()].sum() < 1e-6 or head == "priors"
    assert priors[0].argmax() == 7 and priors[0].sum() == pytest.approx(1.0, abs=1e-5)
    bot = hx.MCTSBot(evaluator=evaluator, simulations=200, batch_size=8)
    assert bot.choose(view) == hx.Cell.parse("c2")  # action 7: row 1, column 2


def test_models_without_the_documented_names_are_refused(tmp_path: Path) -> None:
    path = linear_model(tmp_path / "net.onnx", 0)
    model = onnx.load(path)
    model.graph.input[0].name = "board"
    model.graph.node[0].input[0] = "board"
    onnx.save(model, tmp_path / "renamed.onnx")
    with pytest.raises(hx.ConfigError, match="inputs must be 'planes' and optionally 'mask'"):
        hx.OnnxEvaluator(tmp_path / "renamed.onnx")
    with pytest.raises(hx.ConfigError, match="cannot load the ONNX model"):
        hx.OnnxEvaluator(tmp_path / "missing.onnx")


def test_a_match_player_and_selfplay_take_the_model_by_its_path(tmp_path: Path) -> None:
    from hexengine.match import run_match

    path = linear_model(tmp_path / "net.onnx", 12)
    rules = hx.Rules("hex", SIZE, SIZE, "off")
    result = run_match(f"mcts:onnx={path};simulations=50", "random", games=2, rules=rules, jobs=1)
    assert result.games_played == 2 and "onnx" in result.names[0]
    played = hx.selfplay(tmp_path / "data", size=SIZE, swap="off", games=1, simulations=30, onnx=path)
    first = hx.read_selfplay(tmp_path / "data")
    assert played.games == 1 and first["policy"][0].argmax() == 12  # the favoured centre, despite the noise


def test_a_model_for_another_board_is_refused_and_the_bot_goes_on(tmp_path: Path) -> None:
    evaluator = hx.OnnxEvaluator(linear_model(tmp_path / "net.onnx", 7))
    bot = hx.MCTSBot(evaluator=evaluator, simulations=50)
    with pytest.raises(hx.ConfigError, match=r"is for 5x5 boards, not 7x7"):
        bot.choose(hx.Game("hex", size=7).view(hx.RED))
    game = hx.Game("hex", size=SIZE, swap="off")
    assert bot.choose(game.view(hx.RED)) in game.legal_moves()


def test_the_network_that_comes_with_hexengine(tmp_path: Path) -> None:
    """``hx.OnnxEvaluator("hex7")`` reads the packaged 7x7 network: Red is ahead on the empty board,
    the opening the network likes best is one the solver proves wins, and it beats a random player."""
    from hexengine.match import run_match

    assert hx.networks.network_path("hex7").endswith("hex7.onnx")
    evaluator = hx.OnnxEvaluator("hex7")
    game = hx.Game("hex", size=7, swap="off")
    view = game.view(hx.RED)
    priors, values = evaluator(view.planes()[None], view.action_mask()[None])
    assert priors.shape == (1, 50) and values.shape == (1,) and values[0] > 0
    game.play(hx.move_of(int(priors[0].argmax()), game.rules))
    assert hx.solve(game).winner == hx.RED
    rules = hx.Rules("hex", 7, 7, "off")
    result = run_match("mcts:onnx=hex7;simulations=50", "random", games=4, rules=rules, jobs=1)
    assert result.wins["A"] == 4
    assert hx.selfplay(tmp_path, size=7, swap="off", games=1, simulations=20, onnx="hex7").games == 1
