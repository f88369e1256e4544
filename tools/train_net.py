"""Trains a small policy/value network on self-play shards and exports it to ONNX for hx.OnnxEvaluator.

Needs PyTorch (``pip install "hexengine[train]"``; the engine itself does not)::

    # data: the playout search against itself (about 0.13 s a game on 7x7 at 800
    # simulations, one core; run two at once on two cores)
    hexengine selfplay --size 7 --swap off --games 3000 --simulations 800 --seed 1 --out data/r1-a
    hexengine selfplay --size 7 --swap off --games 3000 --simulations 800 --seed 2 --out data/r1-b
    # a network, ten minutes on two cores
    python tools/train_net.py data/r1-a data/r1-b --minutes 10 --out net1.onnx
    # twice the data (seeds 3 and 4 into data/r1-3, data/r1-4), and a network trained on all of it
    python tools/train_net.py data/r1-* --init net1.pt --minutes 12 --seed 1 --out net2.onnx
    # how it plays
    python bench/net_strength.py --onnx net2.onnx --games 400 --simulations 400 --jobs 2

This is how the network that comes with hexengine (``hx.OnnxEvaluator("hex7")``)
was made; docs/networks.md has its figures.

The network (``--channels`` C, ``--blocks`` B) is a small residual net: a 3x3
convolution from the ``len(hx.PLANES)`` input planes to C channels, B residual
blocks of two 3x3 convolutions, then a policy head (1x1 convolution to 2 channels,
a linear layer to ``rows * cols + 1`` logits, the swap last) and a value head (1x1
convolution to 1 channel, a hidden layer of 64, ``tanh``). Illegal actions are
masked out of the logits before the softmax, so the loss is the cross-entropy
between the policy over the legal actions and the search's visit distribution,
plus the squared error of the value against the game's outcome (+1 or -1 for the
player to move). Every batch is augmented with the board turned by 180 degrees,
the one symmetry of Hex that keeps each player's edges (and so the colours):
cell ``(r, c)`` becomes ``(rows - 1 - r, cols - 1 - c)``, the swap stays the swap.
(Mirroring across the diagonal swaps the colours' edges; it is not used.) One game
in twenty is held out, and the held-out losses are printed after every epoch with
the policy's agreement with the search's most visited move.

The ONNX file has the names ``hx.OnnxEvaluator`` reads: input ``planes``
``(B, len(hx.PLANES), rows, cols)`` with a dynamic batch axis, outputs
``logits`` ``(B, rows * cols + 1)`` and ``value`` ``(B, 1)``. ``--out net.onnx``
also writes the PyTorch weights to ``net.pt`` (for ``--init``).
"""

from __future__ import annotations

import argparse
import inspect
import math
import time
import warnings
from pathlib import Path

import numpy as np

try:
    import torch
    from torch import nn
    from torch.nn import functional as F
except ModuleNotFoundError:
    raise SystemExit('tools/train_net.py needs PyTorch: pip install "hexengine[train]"') from None

import hexengine as hx


class Residual(nn.Module):
    """Two 3x3 convolutions with batch norm, added to the input."""

    def __init__(self, channels: int) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = F.relu(self.bn1(self.conv1(x)))
        return F.relu(x + self.bn2(self.conv2(y)))


class PolicyValueNet(nn.Module):
    """The small residual policy/value network of the module's text."""

    def __init__(self, planes: int, rows: int, cols: int, channels: int = 32, blocks: int = 4) -> None:
        super().__init__()
        self.shape = {"planes": planes, "rows": rows, "cols": cols, "channels": channels, "blocks": blocks}
        cells = rows * cols
        self.stem = nn.Sequential(
            nn.Conv2d(planes, channels, 3, padding=1, bias=False), nn.BatchNorm2d(channels), nn.ReLU()
        )
        self.trunk = nn.Sequential(*(Residual(channels) for _ in range(blocks)))
        self.policy = nn.Sequential(
            nn.Conv2d(channels, 2, 1, bias=False),
            nn.BatchNorm2d(2),
            nn.ReLU(),
            nn.Flatten(),
            nn.Linear(2 * cells, cells + 1),
        )
        self.value = nn.Sequential(
            nn.Conv2d(channels, 1, 1, bias=False),
            nn.BatchNorm2d(1),
            nn.ReLU(),
            nn.Flatten(),
            nn.Linear(cells, 64),
            nn.ReLU(),
            nn.Linear(64, 1),
            nn.Tanh(),
        )

    def forward(self, planes: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        x = self.trunk(self.stem(planes))
        return self.policy(x), self.value(x)


def load(folders: list[str]) -> dict[str, np.ndarray]:
    """The positions of every self-play folder, concatenated; game ids made distinct per folder."""
    parts, offset, shape = [], 0, None
    for folder in folders:
        data = hx.read_selfplay(folder)
        if shape is not None and data["planes"].shape[1:] != shape:
            raise SystemExit(f"{folder}: planes {data['planes'].shape[1:]}, the others {shape}")
        shape = data["planes"].shape[1:]
        data["game"] = data["game"].astype(np.int64) + offset
        offset = int(data["game"].max()) + 1 if len(data["game"]) else offset
        parts.append(data)
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def rotate(planes: torch.Tensor, mask: torch.Tensor, policy: torch.Tensor) -> tuple[torch.Tensor, ...]:
    """The positions turned by 180 degrees: the cells reversed, the swap (last action) kept."""
    cells = planes.shape[2] * planes.shape[3]

    def actions(a: torch.Tensor) -> torch.Tensor:
        return torch.cat([a[:, :cells].flip(1), a[:, cells:]], dim=1)

    return planes.flip(2, 3), actions(mask), actions(policy)


def losses(
    net: nn.Module, planes: torch.Tensor, mask: torch.Tensor, policy: torch.Tensor, outcome: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Policy cross-entropy over the legal actions, value squared error, and the share of
    positions whose most likely action is the search's most visited."""
    logits, value = net(planes)
    logits = logits.masked_fill(~mask, -1e9)
    policy_loss = -(policy * F.log_softmax(logits, dim=1)).sum(dim=1).mean()
    value_loss = F.mse_loss(value.squeeze(1), outcome)
    agree = (logits.argmax(dim=1) == policy.argmax(dim=1)).float().mean()
    return policy_loss, value_loss, agree


def export(net: PolicyValueNet, path: Path) -> None:
    """Writes the network as ONNX with hx.OnnxEvaluator's names, batch axis dynamic."""
    s = net.shape
    net.eval()
    example = torch.zeros(1, s["planes"], s["rows"], s["cols"])
    options = {"dynamo": False} if "dynamo" in inspect.signature(torch.onnx.export).parameters else {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the TorchScript exporter's deprecation notice
        torch.onnx.export(
            net,
            (example,),
            str(path),
            input_names=["planes"],
            output_names=["logits", "value"],
            dynamic_axes={"planes": {0: "B"}, "logits": {0: "B"}, "value": {0: "B"}},
            opset_version=17,
            **options,
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("folders", nargs="+", help="self-play folders (hexengine selfplay --out)")
    parser.add_argument("--out", required=True, help="the ONNX file to write (the weights go beside it, .pt)")
    parser.add_argument("--epochs", type=int, default=100, help="at most this many epochs (default 100)")
    parser.add_argument("--minutes", type=float, default=5.0, help="at most this many minutes of training")
    parser.add_argument("--channels", type=int, default=32)
    parser.add_argument("--blocks", type=int, default=4)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--weight-decay", type=float, default=1e-4)
    parser.add_argument("--init", help="start from these weights (a .pt this script wrote)")
    parser.add_argument("--threads", type=int, default=2, help="PyTorch's threads (default 2)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    started = time.perf_counter()
    data = load(args.folders)
    held_out = data["game"] % 20 == 0
    tensors = {
        "planes": torch.from_numpy(data["planes"]),
        "mask": torch.from_numpy(data["mask"]),
        "policy": torch.from_numpy(data["policy"]),
        "outcome": torch.from_numpy(data["outcome"]),
    }
    train = {k: v[torch.from_numpy(~held_out)] for k, v in tensors.items()}
    valid = {k: v[torch.from_numpy(held_out)] for k, v in tensors.items()}
    _, planes, rows, cols = data["planes"].shape
    games, loading = len(np.unique(data["game"])), time.perf_counter() - started
    print(
        f"{len(data['outcome']):,} positions from {games:,} games ({len(valid['outcome']):,} held out), "
        f"{rows}x{cols}, loaded in {loading:.1f} s",
        flush=True,
    )
    net = PolicyValueNet(planes, rows, cols, args.channels, args.blocks)
    if args.init:
        net.load_state_dict(torch.load(args.init)["state"])
    optimiser = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    n = len(train["outcome"])
    steps = args.epochs * ((n + args.batch - 1) // args.batch)
    step, done, training = 0, False, time.perf_counter()
    for epoch in range(1, args.epochs + 1):
        net.train()
        order = torch.randperm(n)
        totals, seen = np.zeros(3), 0
        for start in range(0, n, args.batch):
            # Cosine decay over the steps or the minutes, whichever runs out first.
            progress = max(step / steps, (time.perf_counter() - training) / (60 * args.minutes))
            if progress >= 1:
                done = True
                break
            for group in optimiser.param_groups:
                group["lr"] = args.lr * min(1.0, (step + 1) / 100) * 0.5 * (1 + math.cos(math.pi * progress))
            index = order[start : start + args.batch]
            batch = [train[k][index] for k in ("planes", "mask", "policy")]
            turned = torch.rand(len(index)) < 0.5
            rotated = rotate(*(b[turned] for b in batch))
            for b, r in zip(batch, rotated, strict=True):
                b[turned] = r
            p_loss, v_loss, agree = losses(net, *batch, train["outcome"][index])
            optimiser.zero_grad()
            (p_loss + v_loss).backward()
            optimiser.step()
            step += 1
            totals += np.array([p_loss.item(), v_loss.item(), agree.item()]) * len(index)
            seen += len(index)
        net.eval()
        with torch.no_grad():
            held = [
                x.item()
                for x in losses(net, valid["planes"], valid["mask"], valid["policy"], valid["outcome"])
            ]
        p, v, a = totals / max(seen, 1)
        minutes = (time.perf_counter() - training) / 60
        print(
            f"epoch {epoch:3d}  train policy {p:.4f} value {v:.4f} agree {a:.3f}  "
            f"held out policy {held[0]:.4f} value {held[1]:.4f} agree {held[2]:.3f}  {minutes:.1f} min",
            flush=True,
        )
        if done:
            break
    out = Path(args.out)
    torch.save({"state": net.state_dict(), "shape": net.shape}, out.with_suffix(".pt"))
    export(net, out)
    print(f"wrote {out} ({out.stat().st_size:,} bytes) and {out.with_suffix('.pt')}", flush=True)


if __name__ == "__main__":
    main()
