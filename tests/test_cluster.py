"""Matches, tournaments and self-play on a real Ray cluster: a head node and a second node, one
CPU each, started on this machine for these tests and stopped after them (also when one fails).

They check that a game played on Ray gives the record a local run gives, that a worker killed
mid-game has its game played again and counted once, that a driver stopped mid-match (killed,
or Ctrl-C) is resumed from its folder, that HTP engines start on the worker that plays, and
that self-play on Ray writes the shards of a local run.
Marked ``cluster``: deselect them with ``-m 'not cluster'``; they skip without Ray.
"""

from __future__ import annotations

import faulthandler
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import hexengine as hx
from hexengine.match import MatchError, run_match
from hexengine.selfplay import ARRAYS

ray = pytest.importorskip("ray")

pytestmark = [
    pytest.mark.cluster,
    pytest.mark.skipif(sys.platform != "linux", reason="the tests find Ray's workers in /proc"),
]

HEXENGINE_HTP = f"htp:{sys.executable} -m hexengine.cli htp"
SMALL = hx.Rules("hex", 5, 5, "off")
# No test may take longer than this (seconds); the cluster is stopped all the same. A test
# stuck where Python cannot raise (inside Ray's C++) ends the run a minute later, with every
# thread's traceback, rather than holding CI.
LIMIT = 150


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def cluster() -> Iterator[object]:
    """Two Ray nodes of one CPU each; ``.client`` is the head's Ray client address."""
    from ray.cluster_utils import Cluster

    port = free_port()
    nodes = Cluster()
    try:
        nodes.add_node(num_cpus=1, ray_client_server_port=port)
        nodes.add_node(num_cpus=1)
        nodes.wait_for_nodes(timeout=60)
        nodes.client = f"ray://127.0.0.1:{port}"  # type: ignore[attr-defined]
        yield nodes
    finally:
        nodes.shutdown()


@pytest.fixture(autouse=True)
def _deadline() -> Iterator[None]:
    def expire(signum: int, frame: object) -> None:
        raise TimeoutError(f"a cluster test ran past {LIMIT} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(LIMIT)
    faulthandler.dump_traceback_later(LIMIT + 60, exit=True)
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def busy_workers(cluster: object) -> list[int]:
    """The process ids of the cluster's workers that are playing a game now: children of its
    raylets whose title Ray has set to the task they run (``ray::game N``)."""
    raylets = {n.all_processes["raylet"][0].process.pid for n in cluster.list_all_nodes()}  # type: ignore[attr-defined]
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            title = (entry / "cmdline").read_bytes()
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if parent in raylets and title.startswith(b"ray::game "):
            found.append(int(entry.name))
    return found


def records(result: object) -> list[tuple[int, str, str, str]]:
    return [(g.index, g.winner, g.reason, g.sgf) for g in result.games]  # type: ignore[attr-defined]


def saved(folder: Path) -> list[int]:
    """The indices in a folder's games.jsonl, in the order they were written."""
    return [json.loads(line)["index"] for line in (folder / "games.jsonl").read_text().splitlines()]


def test_games_on_ray_give_the_records_of_a_local_run(cluster, tmp_path, monkeypatch):
    """The same match and the same tournament, with the same seeds, played here and on the
    cluster (joined by address, and with ``auto`` through RAY_ADDRESS): the same records, the
    same totals and ratings."""
    options = {"games": 6, "rules": SMALL, "seed": 4}
    here = run_match("mcts:simulations=300", "random", jobs=1, **options)
    there = run_match("mcts:simulations=300", "random", cluster=cluster.address, sgf_dir=tmp_path, **options)
    assert records(there) == records(here)
    drop = ("seconds", "games")
    assert {k: v for k, v in there.to_dict().items() if k not in drop} == {
        k: v for k, v in here.to_dict().items() if k not in drop
    }
    assert sorted(saved(tmp_path)) == list(range(6))
    players = ["mcts:simulations=200", "random:seed=1", "random:seed=2"]
    local = hx.run_tournament(players, games_per_pair=2, rules=SMALL, jobs=1)
    monkeypatch.setenv("RAY_ADDRESS", cluster.address)
    remote = hx.run_tournament(players, games_per_pair=2, rules=SMALL, cluster="auto")
    assert records(remote) == records(local)
    assert remote.wins == local.wins and remote.ratings == local.ratings


def test_a_killed_worker_loses_and_duplicates_nothing(cluster, tmp_path):
    """A worker process killed in the middle of a game: Ray plays that game again elsewhere,
    and the match ends with every game once, in the folder and in the result, with the records
    of a local run."""
    players = ("mcts:simulations=8000", "mcts:simulations=8000;name=other")
    options = {"games": 4, "rules": hx.Rules("hex", 7, 7, "off"), "seed": 1}
    killed: list[int] = []

    def kill_one(result: object) -> None:
        if not killed:
            # Three games are left: one is under way or about to start (its worker takes a moment
            # to pick it up and show its title), so wait for a busy worker, a few seconds at most.
            deadline = time.monotonic() + 10
            while not (busy := busy_workers(cluster)) and time.monotonic() < deadline:
                time.sleep(0.01)
            assert busy, "no worker was playing a game in the 10 s after the first one finished"
            os.kill(busy[0], signal.SIGKILL)
            killed.append(busy[0])

    there = run_match(*players, cluster=cluster.address, sgf_dir=tmp_path, progress=kill_one, **options)
    assert killed
    assert [g.index for g in there.games] == [0, 1, 2, 3]
    assert sorted(saved(tmp_path)) == [0, 1, 2, 3]
    here = run_match(*players, jobs=2, **options)
    assert records(there) == records(here)


def test_a_stopped_driver_is_resumed_from_its_folder(cluster, tmp_path):
    """`hexengine match --cluster ADDRESS --out DIR`, killed after two games and interrupted
    (Ctrl-C) two games later, then run to the end (the games take about a second each, so that
    the signals come while games are left): the games already saved are kept as they were,
    the others played once each, and the records are a local run's."""
    out = tmp_path / "m"
    command = [
        sys.executable, "-m", "hexengine.cli", "match", "-n", "10", "--size", "7", "--swap", "off",
        "-p", "mcts:simulations=20000", "-p", "mcts:simulations=5000", "--seed", "2",
        "--cluster", cluster.address, "--out", str(out),
    ]  # fmt: skip

    def stop_after(games: int, how: signal.Signals) -> subprocess.CompletedProcess[str]:
        # The driver must hear Ctrl-C even where this process was started with SIGINT ignored
        # (a child inherits that, and Python then installs no KeyboardInterrupt handler).
        driver = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )  # fmt: skip
        try:
            while not (out / "games.jsonl").exists() or len(saved(out)) < games:
                assert driver.poll() is None, driver.communicate()
                time.sleep(0.05)
            driver.send_signal(how)
            stdout, stderr = driver.communicate(timeout=60)
        finally:
            if driver.poll() is None:
                driver.kill()
                driver.wait()
        return subprocess.CompletedProcess(command, driver.returncode, stdout, stderr)

    stop_after(2, signal.SIGKILL)
    first = (out / "games.jsonl").read_text()
    assert 2 <= len(saved(out)) < 10
    interrupted = stop_after(len(saved(out)) + 2, signal.SIGINT)
    assert interrupted.returncode == 130, interrupted.stderr
    assert "interrupted; the same command plays the rest" in interrupted.stderr
    middle = (out / "games.jsonl").read_text()
    assert middle.startswith(first) and len(saved(out)) < 10
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    bar = [line for line in done.stderr.splitlines() if line.startswith("[")]
    assert f"] {len(middle.splitlines())}/10 " in bar[0], "the bar starts from the games already saved"
    assert (out / "games.jsonl").read_text().startswith(middle) and sorted(saved(out)) == list(range(10))
    here = run_match("mcts:simulations=20000", "mcts:simulations=5000", games=10,
                     rules=hx.Rules("hex", 7, 7, "off"), seed=2, jobs=2)  # fmt: skip
    for g in here.games:
        assert (out / f"game-{g.index + 1:04d}.sgf").read_text() == g.sgf + "\n"
    assert json.loads((out / "results.json").read_text())["wins"] == here.wins


def test_engines_start_on_the_worker_that_plays(cluster):
    """An HTP engine given by command starts on the worker that plays the game; a program that
    a worker does not have stops the match with the node and the path named."""
    result = run_match("mcts:simulations=100", f"{HEXENGINE_HTP};simulations=100", games=2,
                       rules=hx.Rules("hex", 4, 4), cluster=cluster.address)  # fmt: skip
    assert [g.reason for g in result.games] == ["connection", "connection"]
    with pytest.raises(MatchError) as failed:
        run_match("htp:/no/such/engine --quiet", "random", games=2, rules=SMALL, cluster=cluster.address)
    message = str(failed.value)
    assert "no program '/no/such/engine' on Ray node" in message and socket.gethostname() in message


def test_the_ray_client_and_a_wrong_address(cluster):
    """A ``ray://`` address goes through the Ray client to the same records; an address with no
    cluster behind it is a clear error."""
    options = {"games": 2, "rules": SMALL, "seed": 9}
    assert records(run_match("random", "random:seed=1", cluster=cluster.client, **options)) == records(
        run_match("random", "random:seed=1", jobs=1, **options)
    )
    with pytest.raises(MatchError, match=r"cannot reach the Ray cluster '127\.0\.0\.1:1'"):
        run_match("random", "random", cluster="127.0.0.1:1", **options)


def same_shards(here: Path, there: Path) -> None:
    """Two self-play folders hold the same shards, array for array and byte for byte, and the
    same manifest but for the seconds spent."""
    manifests = [json.loads((folder / "manifest.json").read_text()) for folder in (here, there)]
    for manifest in manifests:
        del manifest["seconds"]
    assert manifests[0] == manifests[1]
    for shard in manifests[0]["shards"]:
        with np.load(here / shard["file"]) as a, np.load(there / shard["file"]) as b:
            for k in ARRAYS:
                assert a[k].dtype == b[k].dtype and a[k].shape == b[k].shape, k
                assert a[k].tobytes() == b[k].tobytes(), (shard["file"], k)


def test_selfplay_on_ray_writes_the_shards_of_a_local_run(cluster, tmp_path):
    """Self-play with one search thread, played on the cluster: the shards of a local run of the
    same seed, byte for byte, for the playout search, and for an ONNX network (read here and
    sent to the workers); a folder begun here is finished there."""
    settings = {"size": 4, "swap": "off", "simulations": 40, "seed": 5, "games_per_shard": 2}
    hx.selfplay(tmp_path / "here", games=5, **settings)
    hx.selfplay(tmp_path / "there", games=1, **settings)
    there = hx.selfplay(tmp_path / "there", games=5, cluster=cluster.address, **settings)
    assert (there.games, there.new, there.shards) == (5, 4, 3)
    same_shards(tmp_path / "here", tmp_path / "there")
    from test_networks import SIZE, linear_model  # skips without onnx (the [test] extra has it)

    net = linear_model(tmp_path / "net.onnx", 12)
    settings = {"size": SIZE, "swap": "off", "simulations": 30, "seed": 2, "games_per_shard": 2, "onnx": net}
    hx.selfplay(tmp_path / "net-here", games=3, **settings)
    hx.selfplay(tmp_path / "net-there", games=3, cluster=cluster.address, **settings)
    same_shards(tmp_path / "net-here", tmp_path / "net-there")
    assert hx.read_selfplay(tmp_path / "net-there")["policy"][0].argmax() == 12


def test_the_speed_bench_runs(cluster):
    """bench/cluster_speed.py on a tiny match, on this cluster: every way gives the same records."""
    bench = Path(__file__).resolve().parent.parent / "bench" / "cluster_speed.py"
    if not bench.exists():
        pytest.skip("bench/ is not next to the tests")
    proc = subprocess.run(
        [sys.executable, str(bench), "--games", "4", "--size", "4", "--simulations", "50",
         "--address", cluster.address],
        capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    summary = json.loads(proc.stdout.strip().splitlines()[-1])
    assert summary["same_records"] and set(summary["seconds"]) == {"local 1", "local 2", "ray 1", "ray 2"}
    assert all(s > 0 for s in summary["seconds"].values()) and summary["cluster_cpus"] == 2
    ray_1, ray_2, local_1 = (summary["seconds"][way] for way in ("ray 1", "ray 2", "local 1"))
    assert summary["speedup_ray_2_over_ray_1"] == pytest.approx(ray_1 / ray_2, rel=0.05)
    assert summary["ray_overhead_per_game_seconds"] == pytest.approx((ray_1 - local_1) / 4, abs=1e-3)
