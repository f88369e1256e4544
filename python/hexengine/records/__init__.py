"""Game records and their formats: hexengine's JSON, HexGui's SGF and trmph links.

The format layer, below the table, the command line and the web server, and
above the game: :class:`GameRecord` (:mod:`~hexengine.records.record`) holds a
whole game and replays it through the referee, so a record that breaks a rule
never loads; :mod:`~hexengine.records.sgf` and :mod:`~hexengine.records.trmph`
read and write the other formats; :mod:`~hexengine.records.model` holds what
they share (seats, players, recorded actions, :class:`RecordError`).

>>> import hexengine as hx
>>> record = hx.read_record("https://trmph.com/hex/board#3,b2a1b1c1b3")
>>> record.winner
<Color.RED: 1>
>>> record.to_sgf()
'(;FF[4]AP[hexengine:...]GM[11]SZ[3]RU[hex]SW[sides]RS[A]PB[A]PW[B]RE[B+];B[b2];W[a1];B[b1];W[c1];B[b3])'
>>> hx.read_record(record.to_json()) == record
True
"""

from __future__ import annotations

from .model import SEATS, MissingRecordFile, PlayerInfo, RecordedAction, RecordError, SeatName
from .position import Position
from .record import RECORD_FORMAT, GameRecord, load_text, read_game, read_record, read_trmph
from .sgf import SgfMove, SgfPosition, read_sgf, read_sgf_position, write_sgf
from .trmph import TRMPH_PREFIX, parse_trmph, write_trmph

__all__ = [
    "RECORD_FORMAT",
    "SEATS",
    "TRMPH_PREFIX",
    "GameRecord",
    "MissingRecordFile",
    "PlayerInfo",
    "Position",
    "RecordError",
    "RecordedAction",
    "SeatName",
    "SgfMove",
    "SgfPosition",
    "load_text",
    "parse_trmph",
    "read_game",
    "read_record",
    "read_sgf",
    "read_sgf_position",
    "read_trmph",
    "write_sgf",
    "write_trmph",
]
