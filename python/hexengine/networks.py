"""Networks trained anywhere, as evaluators of the search: ``hx.OnnxEvaluator`` (extra ``hexengine[nn]``).

Export a policy/value network to ONNX (from PyTorch with ``torch.onnx.export``,
from JAX through ``jax2onnx`` or ``tf2onnx``) with these names and shapes:

- input ``planes``: float32 ``(B, len(hx.PLANES), rows, cols)``, the planes of
  :meth:`hexengine.View.planes` for the player to move (``B`` may be dynamic);
- input ``mask`` (optional): bool ``(B, rows * cols + 1)``, the legal actions;
  a model that has this input receives the mask, one that has not does not;
- output ``logits`` (``(B, rows * cols + 1)``, turned into priors by a softmax
  over the legal actions) or ``priors`` (the same shape, probabilities used as
  they are);
- output ``value``: ``(B,)`` or ``(B, 1)``, in [-1, 1] for the player to move
  (a ``tanh`` head).

The evaluator is a plain callable, ``evaluator(planes, mask) -> (priors,
values)``, so it goes straight into ``hx.MCTSBot(evaluator=...)``;
``threads`` sets onnxruntime's threads for one call (1 by default: the search
runs its own threads).

>>> import hexengine as hx
>>> evaluator = hx.OnnxEvaluator("policy_value_5x5.onnx")   # doctest: +SKIP
>>> bot = hx.MCTSBot(evaluator=evaluator, simulations=400)   # doctest: +SKIP

Where an evaluator is named in text (``hexengine selfplay --onnx`` or
``--evaluator``, a match player ``mcts:onnx=net.onnx``), :func:`load_evaluator`
makes it.

hexengine comes with one small network, named in :data:`NETWORKS`; its name
stands for its file wherever a model's path is asked for:

>>> sorted(NETWORKS)
['hex7']
>>> bot = hx.MCTSBot(evaluator=hx.OnnxEvaluator("hex7"), simulations=400)   # doctest: +SKIP
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from ._checks import whole_number
from .errors import ConfigError

__all__ = ["NETWORKS", "OnnxEvaluator", "load_evaluator", "network_path"]

NETWORKS = {
    "hex7": "7x7 Hex without the swap: 32 channels, 4 residual blocks, trained on the playout "
    "search's self-play (docs/networks.md)",
}
"""The networks that come with hexengine, by name: each is the file ``weights/NAME.onnx`` of
the package."""


def network_path(path: str | os.PathLike[str]) -> str:
    """The file of the model ``path``: a path as it is, or the file of the network of that name
    in :data:`NETWORKS` (when no file of that name is here).

    >>> network_path("net.onnx")
    'net.onnx'
    >>> Path(network_path("hex7")).parts[-2:]
    ('weights', 'hex7.onnx')
    """
    text = os.fspath(path)
    if text in NETWORKS and not os.path.exists(text):
        return str(Path(__file__).resolve().parent / "weights" / f"{text}.onnx")
    return text


class OnnxEvaluator:
    """An ONNX policy/value network as an evaluator of the search (see the module's names);
    ``path`` is the model's file or the name of a network in :data:`NETWORKS`."""

    def __init__(self, path: str | os.PathLike[str], *, threads: int = 1) -> None:
        path = network_path(path)
        try:
            import onnxruntime
        except ModuleNotFoundError:
            raise ModuleNotFoundError(
                "hx.OnnxEvaluator needs onnxruntime: pip install 'hexengine[nn]'", name="onnxruntime"
            ) from None
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = whole_number(threads, "threads", 256, least=1)
        options.inter_op_num_threads = 1
        try:
            self._session = onnxruntime.InferenceSession(
                os.fspath(path), options, providers=["CPUExecutionProvider"]
            )
        except Exception as e:  # onnxruntime raises its own types for a missing or broken file
            raise ConfigError(f"cannot load the ONNX model {os.fspath(path)!r}: {e}") from None
        inputs = {i.name: i for i in self._session.get_inputs()}
        outputs = [o.name for o in self._session.get_outputs()]
        if "planes" not in inputs or not set(inputs) <= {"planes", "mask"}:
            raise ConfigError(
                f"the model's inputs must be 'planes' and optionally 'mask', not {sorted(inputs)}"
            )
        heads = [name for name in ("logits", "priors") if name in outputs]
        if len(heads) != 1 or "value" not in outputs:
            raise ConfigError(
                f"the model's outputs must be 'logits' or 'priors', and 'value'; it has {outputs}"
            )
        self.path = path
        # The board the model was exported for, where its input fixes it: (rows, cols), None if dynamic.
        shape = list(inputs["planes"].shape)[-2:] if len(inputs["planes"].shape) == 4 else [None, None]
        self._board = tuple(d if isinstance(d, int) else None for d in shape)
        self._mask = "mask" in inputs
        self._head = heads[0]
        self._outputs = [self._head, "value"]

    def __call__(self, planes: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Priors ``(B, actions)`` and values ``(B,)`` for a batch of positions."""
        board = tuple(planes.shape[-2:])
        if any(want is not None and want != got for want, got in zip(self._board, board, strict=True)):
            raise ConfigError(
                f"the model {self.path!r} is for {self._board[0]}x{self._board[1]} boards, "
                f"not {board[0]}x{board[1]}"
            )
        feed: dict[str, Any] = {"planes": np.ascontiguousarray(planes, dtype=np.float32)}
        if self._mask:
            feed["mask"] = np.ascontiguousarray(mask, dtype=bool)
        head, value = self._session.run(self._outputs, feed)
        head = np.asarray(head, dtype=np.float32)
        if self._head == "logits":
            logits = np.where(mask, head, -np.inf)
            logits -= logits.max(axis=1, keepdims=True)
            head = np.exp(logits)
            head /= head.sum(axis=1, keepdims=True)
        return head, np.asarray(value, dtype=np.float32).reshape(len(planes))

    def __repr__(self) -> str:
        return f"OnnxEvaluator({self.path!r})"


def load_evaluator(
    *, onnx: str | os.PathLike[str] | None = None, evaluator: str | None = None
) -> Callable[[np.ndarray, np.ndarray], Any] | None:
    """The evaluator named by ``onnx`` (a model file, read by :class:`OnnxEvaluator`) or
    ``evaluator`` (``"module:name"``, a function ``fn(planes, mask) -> (priors, values)``
    imported from an importable module); ``None`` when neither is given.

    >>> fn = load_evaluator(evaluator="hexengine._checks:whole_number")   # any callable will do
    >>> fn.__name__
    'whole_number'
    >>> load_evaluator(evaluator="hexengine")
    Traceback (most recent call last):
    ...
    hexengine.errors.ConfigError: an evaluator is named 'module:function', not 'hexengine'
    """
    if onnx is not None and evaluator is not None:
        raise ConfigError("give an ONNX model or an evaluator function, not both")
    if onnx is not None:
        return OnnxEvaluator(onnx)
    if evaluator is None:
        return None
    module_name, _, name = str(evaluator).partition(":")
    if not module_name or not name:
        raise ConfigError(f"an evaluator is named 'module:function', not {evaluator!r}")
    try:
        fn = getattr(importlib.import_module(module_name), name)
    except (ImportError, AttributeError) as e:
        raise ConfigError(f"cannot load the evaluator {evaluator!r}: {e}") from None
    if not callable(fn):
        raise ConfigError(f"the evaluator {evaluator!r} is not a function fn(planes, mask)")
    return fn  # type: ignore[no-any-return]
