"""Ratings: OpenSkill updates after rated games, memory and SQLite stores, the leaderboard."""

from __future__ import annotations

import pytest

import hexengine as hx

ANN = hx.PlayerInfo("Ann", id="ann")
BOB = hx.PlayerInfo("Bob", id="bob")
EASY = hx.PlayerInfo("Computer (easy)", "computer", "easy", "computer:easy")


@pytest.fixture(params=["memory", "sqlite"])
def store(request, tmp_path):
    if request.param == "memory":
        return hx.MemoryRatingStore()
    return hx.SQLiteRatingStore(tmp_path / "ratings.db")


def test_a_win_raises_the_winner_and_lowers_the_loser(store):
    """One rated game: the winner's mu rises, the loser's falls, both grow more certain."""
    ratings = hx.Ratings(store)
    changes = ratings.rate(ANN, BOB)
    ann, bob = changes["ann"], changes["bob"]
    assert ann["after"]["mu"] > ann["before"]["mu"] and bob["after"]["mu"] < bob["before"]["mu"]
    assert ann["after"]["sigma"] < ann["before"]["sigma"]
    assert ratings.get("ann").wins == 1 and ratings.get("bob").losses == 1
    assert ratings.get("nobody") is None


def test_leaderboard_orders_by_conservative_rating_and_filters_kind(store):
    """The leaderboard ranks by mu - 3 sigma; computer levels are rated players too."""
    ratings = hx.Ratings(store)
    for _ in range(3):
        ratings.rate(ANN, EASY)
    ratings.rate(BOB, ANN)
    board = ratings.leaderboard()
    assert [p.rating for p in board] == sorted((p.rating for p in board), reverse=True)
    assert {p.id for p in board} == {"ann", "bob", "computer:easy"}
    assert [p.id for p in ratings.leaderboard(kind="computer")] == ["computer:easy"]
    assert len(ratings.leaderboard(limit=1)) == 1
    for bad in [0, -1, True, "3"]:
        with pytest.raises(hx.HexError):
            ratings.leaderboard(limit=bad)
    with pytest.raises(hx.HexError):
        ratings.leaderboard(kind="robot")


def test_playing_yourself_changes_nothing(store):
    """The same id on both sides (e.g. two computers of one level) leaves the rating alone."""
    ratings = hx.Ratings(store)
    before = ratings.rating(EASY)
    ratings.rate(EASY, EASY)
    assert ratings.get("computer:easy") is None and ratings.rating(EASY) == before


def test_sqlite_store_persists(tmp_path):
    """Ratings written through one SQLite store are there when the database is reopened."""
    path = tmp_path / "r.db"
    first = hx.SQLiteRatingStore(path)
    hx.Ratings(first).rate(ANN, BOB)
    first.close()
    again = hx.Ratings(hx.SQLiteRatingStore(path))
    assert [p.id for p in again.leaderboard()] == ["ann", "bob"]
    assert again.get("ann").games == 1


def test_rated_table_updates_both_players_and_tells_everyone():
    """A rated game at a table updates both seats' ratings (a computer level too) and sends a
    ratings message to every recipient; unrated tables leave the store alone."""
    ratings = hx.Ratings()
    table = hx.Table(
        hx.TableSettings(size=3, rated=True),
        ratings=ratings,
        clock=hx.FakeClock(),
        bots=lambda level, rules: hx.RandomBot(seed=3),
    )
    ann = table.sit("A", "Ann", player_id="ann")
    table.sit_computer("B", "medium")
    table.resign(ann)
    msg = [m for m in table.poll("A") if m["type"] == "ratings"][-1]
    assert msg["changes"]["B"]["id"] == "computer:medium"
    assert msg["changes"]["A"]["after"]["mu"] < msg["changes"]["A"]["before"]["mu"]
    assert [m["type"] for m in table.poll("spectators")][-1] == "ratings"
    assert ratings.get("computer:medium").wins == 1

    unrated = hx.Ratings()
    t2 = hx.Table(hx.TableSettings(size=3), ratings=unrated, clock=hx.FakeClock())
    t2.sit("A", "Ann")
    t2.resign(t2.sit("B", "Bob"))
    assert unrated.leaderboard() == []


def test_person_ids_cannot_pose_as_computers():
    """A person's rating id cannot be a computer level's id."""
    table = hx.Table(hx.TableSettings(size=3))
    with pytest.raises(hx.TableError):
        table.sit("A", "Ann", player_id="computer:hard")
