"""Ratings: OpenSkill updates per pool (variant and board), memory and SQLite stores, the
leaderboard, the Elo-like display, histories, and what a table rates and what it refuses."""

from __future__ import annotations

import pytest
from _tablecheck import MessageChecker

import hexengine as hx
from hexengine.table.ratings import display_rating, pool_of

ANN = hx.PlayerInfo("Ann", id="ann")
BOB = hx.PlayerInfo("Bob", id="bob")
EASY = hx.PlayerInfo("Computer (easy)", "computer", "easy", "computer:easy")
HEX11 = "hex:11x11"


@pytest.fixture(params=["memory", "sqlite"])
def store(request, tmp_path):
    if request.param == "memory":
        return hx.MemoryRatingStore()
    return hx.SQLiteRatingStore(tmp_path / "ratings.db")


def test_a_win_raises_the_winner_and_lowers_the_loser(store):
    """One rated game: the winner's mu rises, the loser's falls, both grow more certain."""
    ratings = hx.Ratings(store)
    changes = ratings.rate(ANN, BOB, pool=HEX11)
    ann, bob = changes["ann"], changes["bob"]
    assert ann["after"]["mu"] > ann["before"]["mu"] and bob["after"]["mu"] < bob["before"]["mu"]
    assert ann["after"]["sigma"] < ann["before"]["sigma"]
    assert ratings.get("ann", HEX11).wins == 1 and ratings.get("bob", HEX11).losses == 1
    assert ratings.get("nobody", HEX11) is None


def test_leaderboard_orders_by_conservative_rating_and_filters_kind(store):
    """The leaderboard ranks by mu - 3 sigma; computer levels are rated players too."""
    ratings = hx.Ratings(store)
    for _ in range(3):
        ratings.rate(ANN, EASY, pool=HEX11)
    ratings.rate(BOB, ANN, pool=HEX11)
    board = ratings.leaderboard(pool=HEX11)
    assert [p.rating for p in board] == sorted((p.rating for p in board), reverse=True)
    assert {p.id for p in board} == {"ann", "bob", "computer:easy"}
    assert [p.id for p in ratings.leaderboard(kind="computer")] == ["computer:easy"]
    assert len(ratings.leaderboard(limit=1)) == 1
    for bad in [0, -1, True, "3"]:
        with pytest.raises(hx.HexError):
            ratings.leaderboard(limit=bad)
    with pytest.raises(hx.HexError):
        ratings.leaderboard(kind="robot")


def test_each_variant_and_board_has_its_own_rating(store):
    """Winning at 11x11 Hex moves nothing at 7x7 Hex or at 4x3 Dark Hex (rows x cols kept apart
    from cols x rows); the leaderboard of a pool lists only that pool's players."""
    ratings = hx.Ratings(store)
    ratings.rate(ANN, BOB, pool=HEX11)
    ratings.rate(BOB, ANN, pool="dark:4x3")
    ratings.rate(BOB, ANN, pool="dark:4x3")
    assert ratings.get("ann", HEX11).wins == 1 and ratings.get("ann", "dark:4x3").losses == 2
    assert ratings.get("ann", "hex:7x7") is None and ratings.get("ann", "dark:3x4") is None
    assert [p.id for p in ratings.leaderboard(pool=HEX11)] == ["ann", "bob"]
    assert [p.id for p in ratings.leaderboard(pool="dark:4x3")] == ["bob", "ann"]
    assert {(p.id, p.pool) for p in ratings.leaderboard()} == {
        ("ann", HEX11),
        ("bob", HEX11),
        ("ann", "dark:4x3"),
        ("bob", "dark:4x3"),
    }
    assert pool_of(hx.Rules("dark", 4, 3)) == "dark:4x3" and pool_of(hx.Rules("rex", 7, 7)) == "rex:7x7"
    for bad in ["hex", "hex:11", "chess:8x8", "hex:0x5", "hex:11x11 ", "hex:25x25", 7]:
        with pytest.raises(hx.HexError, match="rating pool"):
            ratings.leaderboard(pool=bad)


def test_history_keeps_every_rated_game(store):
    """Each rated game adds (time, displayed rating) to both players' history in that pool."""
    ratings = hx.Ratings(store)
    ratings.rate(ANN, BOB, pool=HEX11, time=10.0)
    ratings.rate(ANN, BOB, pool=HEX11, time=20.0)
    ratings.rate(BOB, ANN, pool=HEX11, time=30.0)
    history = ratings.history("ann", HEX11)
    assert [t for t, _ in history] == [10.0, 20.0, 30.0]
    assert history[0][1] < history[1][1] and history[-1][1] == ratings.get("ann", HEX11).display
    assert ratings.history("ann", "hex:7x7") == [] and ratings.history("nobody", HEX11) == []


def test_the_display_scale_starts_at_1500_and_never_looks_negative():
    """A newcomer shows 1500; winners climb above it, a long losing run stops at 100."""
    ratings = hx.Ratings()
    assert ratings.rating(ANN, HEX11).display == 1500 == display_rating(25.0, 25.0 / 3.0)
    for _ in range(40):
        ratings.rate(BOB, ANN, pool=HEX11)
    ann, bob = ratings.get("ann", HEX11), ratings.get("bob", HEX11)
    assert bob.display > 1500 > ann.display >= 100
    assert display_rating(-100.0, 1.0) == 100
    assert bob.to_dict()["display"] == bob.display


def test_a_player_cannot_be_rated_against_themselves(store):
    """The same id on both sides is refused, naming the id; nothing is stored."""
    ratings = hx.Ratings(store)
    with pytest.raises(hx.HexError, match=r"two different players.*computer:easy"):
        ratings.rate(EASY, EASY, pool=HEX11)
    assert ratings.get("computer:easy", HEX11) is None


def test_sqlite_store_persists(tmp_path):
    """Ratings and histories written through one SQLite store are there when it is reopened."""
    path = tmp_path / "r.db"
    first = hx.SQLiteRatingStore(path)
    hx.Ratings(first).rate(ANN, BOB, pool=HEX11, time=5.0)
    first.close()
    again = hx.Ratings(hx.SQLiteRatingStore(path))
    assert [p.id for p in again.leaderboard()] == ["ann", "bob"]
    assert again.get("ann", HEX11).games == 1 and again.get("ann", HEX11).updated == 5.0
    assert len(again.history("bob", HEX11)) == 1


def rated_table(ratings, **settings):
    checker = MessageChecker()
    table = hx.Table(
        hx.TableSettings(rated=True, **settings),
        ratings=ratings,
        clock=hx.FakeClock(),
        bots=lambda level, rules: hx.RandomBot(seed=3),
        listener=checker,
    )
    checker.table = table
    return table


def test_rated_table_updates_both_players_and_tells_everyone():
    """A rated game at a table updates both seats' ratings in the game's pool (a computer level
    too) and sends a ratings message to every recipient; unrated tables leave the store alone."""
    ratings = hx.Ratings()
    table = rated_table(ratings, size=3)
    ann = table.sit("A", "Ann", player_id="ann")
    table.sit_computer("B", "medium")
    table.resign(ann)
    msg = [m for m in table.poll("A") if m["type"] == "ratings"][-1]
    assert msg["pool"] == "hex:3x3" and msg["unrated"] is None
    assert msg["changes"]["B"]["id"] == "computer:medium"
    assert msg["changes"]["A"]["after"]["mu"] < msg["changes"]["A"]["before"]["mu"]
    assert msg["changes"]["A"]["after"]["display"] < 1500
    assert [m["type"] for m in table.poll("spectators")][-1] == "ratings"
    assert ratings.get("computer:medium", "hex:3x3").wins == 1
    assert ratings.get("computer:medium", HEX11) is None

    unrated = hx.Ratings()
    t2 = hx.Table(hx.TableSettings(size=3), ratings=unrated, clock=hx.FakeClock())
    t2.sit("A", "Ann")
    t2.resign(t2.sit("B", "Bob"))
    assert unrated.leaderboard() == []


def test_a_game_the_computer_played_for_an_absent_person_is_not_rated():
    """Bob leaves; after the grace period the computer plays his seat; whoever wins, nobody's
    rating moves, and the ratings message says why."""
    ratings = hx.Ratings()
    table = rated_table(ratings, size=3, grace=5)
    ann = table.sit("A", "Ann", player_id="ann")
    bob = table.sit("B", "Bob", player_id="bob")
    table.play(ann, "a1")
    table.disconnect(bob)
    table.clock.advance(6)
    table.tick()
    assert table.record().actions[-1].by == "computer"
    table.reconnect(bob)
    table.resign(bob)
    msg = [m for m in table.poll("A") if m["type"] == "ratings"][-1]
    assert msg["changes"] == {} and "computer played for Bob (seat B)" in msg["unrated"]
    assert ratings.leaderboard() == []


def test_a_rated_table_refuses_the_same_player_on_both_seats():
    """Both seats with one rating id would be silently unrated: refused at sitting down, clearly."""
    table = rated_table(hx.Ratings(), size=3)
    table.sit("A", "Ann", player_id="ann")
    with pytest.raises(hx.TableError, match=r"two different players.*'ann'") as refused:
        table.sit("B", "Ann again", player_id="ann")
    assert refused.value.code == "same-player"
    with pytest.raises(hx.TableError, match="two different players"):
        rated_table(hx.Ratings(), size=3).sit_together("Ann", "Ann")
    bots = rated_table(hx.Ratings(), size=3)
    bots.sit_computer("A", "easy")
    with pytest.raises(hx.TableError, match="computer:easy"):
        bots.sit_computer("B", "easy")
    bots.sit_computer("B", "medium")
    plain = hx.Table(hx.TableSettings(size=3), clock=hx.FakeClock())
    plain.sit("A", "Ann")
    plain.sit("B", "Ann")  # unrated: fine


def test_person_ids_cannot_pose_as_computers():
    """A person's rating id cannot be a computer level's id."""
    table = hx.Table(hx.TableSettings(size=3))
    with pytest.raises(hx.TableError):
        table.sit("A", "Ann", player_id="computer:hard")
