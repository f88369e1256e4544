"""Learn to beat the random bot at 5x5 Hex with the batched environment (numpy only).

    python examples/train_5x5.py [--iterations 150] [--envs 256] [--seed 0]

A linear softmax policy over the 26 actions reads the observation planes
(``hx.PLANES``) of the player to move. It plays half of the games of an
``hx.VectorEnv`` as Red and half as Blue; the random player takes the other
side with ``env.sample_actions()``. After each batch of steps, every finished
game updates the policy by REINFORCE: each of the learner's moves is pushed
towards or away from what it chose by the game's result (+1 or -1) minus a
running average of results. At the end the policy plays ``hx.RandomBot`` on
``hx.Game`` boards, through the views, and the script prints its score.

On one core, the default settings train in about ten seconds and the policy
wins about 90% of its games against the random bot (the random bot against
itself: about 50%).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import hexengine as hx

SIZE = 5
ACTIONS = SIZE * SIZE + 1


class LinearPolicy:
    """Softmax over the legal actions of logits ``weights @ planes + bias``."""

    def __init__(self, features: int, rng: np.random.Generator) -> None:
        self.weights = np.zeros((ACTIONS, features))
        self.bias = np.zeros(ACTIONS)
        self.rng = rng

    def probabilities(self, features: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Action probabilities for a batch of flattened planes and legal-action masks."""
        logits = features @ self.weights.T + self.bias
        logits = np.where(masks, logits, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        weights = np.exp(logits)
        return weights / weights.sum(axis=1, keepdims=True)

    def choose(self, features: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """A sampled action per row, with the probabilities it was drawn from."""
        probs = self.probabilities(features, masks)
        totals = probs.cumsum(axis=1)
        picks = (totals > self.rng.random((len(probs), 1)) * totals[:, -1:]).argmax(axis=1)
        return picks, probs

    def move(self, view: hx.View) -> int:
        """The most likely action in ``view`` (for play after training)."""
        probs = self.probabilities(view.planes().reshape(1, -1), view.action_mask()[None])
        return int(probs.argmax())


def train(iterations: int, envs: int, steps: int, lr: float, seed: int) -> LinearPolicy:
    """Trains a policy against the random player; ``steps`` batch steps per iteration."""
    env = hx.VectorEnv("hex", size=SIZE, num_envs=envs, seed=seed, dtype=np.float32)
    policy = LinearPolicy(len(hx.PLANES) * SIZE * SIZE, np.random.default_rng(seed))
    learner = np.where(np.arange(envs) < envs // 2, hx.RED, hx.BLUE)  # its colour in each game
    obs, info = env.reset(seed=seed)
    episodes: list[list[tuple[np.ndarray, np.ndarray, int]]] = [[] for _ in range(envs)]
    baseline = 0.0
    for _ in range(iterations):
        finished: list[tuple[list[tuple[np.ndarray, np.ndarray, int]], float]] = []
        for _ in range(steps):
            actions = env.sample_actions()
            mine = np.flatnonzero(info["to_play"] == learner)
            features = obs[mine].reshape(len(mine), -1)
            picks, probs = policy.choose(features, info["action_mask"][mine])
            actions[mine] = picks
            for k, i in enumerate(mine):
                episodes[i].append((features[k], probs[k], int(picks[k])))
            movers = info["to_play"]
            obs, rewards, terminated, _, info = env.step(actions)
            for i in np.flatnonzero(terminated):
                result = rewards[i] if movers[i] == learner[i] else -rewards[i]
                finished.append((episodes[i], float(result)))
                episodes[i] = []
        if not finished:
            continue
        grad_w, grad_b = np.zeros_like(policy.weights), np.zeros_like(policy.bias)
        for moves, result in finished:
            advantage = result - baseline
            for features, probs, action in moves:
                step = -probs
                step[action] += 1.0  # d log pi(action) / d logits
                grad_w += advantage * np.outer(step, features)
                grad_b += advantage * step
        policy.weights += lr * grad_w / len(finished)
        policy.bias += lr * grad_b / len(finished)
        baseline = 0.9 * baseline + 0.1 * float(np.mean([r for _, r in finished]))
    return policy


def score_against_random(policy: LinearPolicy, games: int, seed: int) -> float:
    """The share of ``games`` the policy wins against hx.RandomBot, colours alternating."""
    wins = 0
    for n in range(games):
        game = hx.Game("hex", size=SIZE, swap="off")
        me = hx.RED if n % 2 == 0 else hx.BLUE
        opponent = hx.RandomBot(seed=seed + n)
        while not game.is_over:
            view = game.view(game.to_move)
            if game.to_move == me:
                game.apply(policy.move(view))
            else:
                game.play(opponent.choose(view))
        wins += game.winner == me
    return wins / games


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--iterations", type=int, default=150)
    parser.add_argument("--envs", type=int, default=256)
    parser.add_argument("--steps", type=int, default=8, help="batch steps between updates")
    parser.add_argument("--lr", type=float, default=0.5)
    parser.add_argument("--games", type=int, default=400, help="games against the random bot at the end")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    start = time.perf_counter()
    policy = train(args.iterations, args.envs, args.steps, args.lr, args.seed)
    trained = time.perf_counter() - start
    score = score_against_random(policy, args.games, args.seed + 1)
    print(f"trained in {trained:.1f} s; wins {score:.1%} of {args.games} games against the random bot")


if __name__ == "__main__":
    main()
