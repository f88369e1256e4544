#include "core/notation.h"

#include <cctype>

#include "core/errors.h"

namespace hexengine {

namespace {

std::string size_text(const Geometry& g) { return std::to_string(g.rows) + "x" + std::to_string(g.cols); }

std::string last_name(const Geometry& g) { return cell_name(g, g.cells - 1); }

}  // namespace

std::string cell_name(const Geometry& g, int cell) {
  const int r = cell / g.cols, c = cell % g.cols;
  return std::string(1, static_cast<char>('a' + c)) + std::to_string(r + 1);
}

int parse_cell(const Geometry& g, const std::string& text) {
  const auto bad = [&](const std::string& why) {
    const std::string quoted = text.size() <= 24 ? text : text.substr(0, 20) + "...";
    throw IllegalMove("'" + quoted + "' is not a cell: " + why, -1, -1, "notation");
  };
  if (text.size() < 2 || text.size() > 3) bad("write a column letter and a row number, like 'a1' or '" + last_name(g) + "'");
  const char letter = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
  if (letter < 'a' || letter > 'z') bad("it must start with a column letter");
  int row = 0;
  for (size_t i = 1; i < text.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) bad("the column letter must be followed by a row number");
    row = row * 10 + (text[i] - '0');
  }
  if (text[1] == '0') bad("row numbers start at 1");
  const int col = letter - 'a';
  if (col >= g.cols || row < 1 || row > g.rows) {
    throw IllegalMove("cell " + text + " is off the " + size_text(g) + " board (cells run from a1 to " +
                          last_name(g) + ")",
                      -1, -1, "off-board");
  }
  return (row - 1) * g.cols + col;
}

int cell_at(const Geometry& g, int row, int col) {
  if (row < 0 || row >= g.rows || col < 0 || col >= g.cols) {
    throw IllegalMove("cell (" + std::to_string(row) + ", " + std::to_string(col) + ") is off the " + size_text(g) +
                          " board (rows 0-" + std::to_string(g.rows - 1) + ", columns 0-" +
                          std::to_string(g.cols - 1) + ")",
                      -1, -1, "off-board");
  }
  return row * g.cols + col;
}

int checked_cell(const Geometry& g, long long cell) {
  if (cell < 0 || cell >= g.cells) {
    throw IllegalMove("cell index " + std::to_string(cell) + " is off the " + size_text(g) + " board (indices 0-" +
                          std::to_string(g.cells - 1) + ")",
                      -1, -1, "off-board");
  }
  return static_cast<int>(cell);
}

}  // namespace hexengine
