// Cell names: column letter plus 1-based row number, "a1" top-left.
//
// Contract: names are those of HexGui and trmph: columns a..s, rows 1..19, so
// "k11" is the bottom-right cell of an 11x11 board. Parsing is case-insensitive
// and throws IllegalMove (rule "notation" or "off-board") on anything else.
#pragma once

#include <string>

#include "core/geometry.h"

namespace hexengine {

// Name of public cell `cell` on `g`, e.g. "f6".
std::string cell_name(const Geometry& g, int cell);
// Public index of the cell called `text` on `g`; throws IllegalMove.
int parse_cell(const Geometry& g, const std::string& text);
// Public index of cell (row, col) on `g`; throws IllegalMove if off the board.
int cell_at(const Geometry& g, int row, int col);
// Checks a public index; throws IllegalMove if off the board.
int checked_cell(const Geometry& g, long long cell);

}  // namespace hexengine
