#include "core/rules.h"

#include "core/errors.h"

namespace hexengine {

Variant parse_variant(const std::string& name) {
  if (name == "hex") return Variant::Hex;
  if (name == "rex") return Variant::Rex;
  if (name == "dark") return Variant::Dark;
  if (name == "dark-abrupt") return Variant::DarkAbrupt;
  throw RulesError("unknown variant '" + name +
                   "': expected one of 'hex', 'rex', 'dark', 'dark-abrupt'");
}

SwapForm parse_swap(const std::string& name) {
  if (name == "sides") return SwapForm::Sides;
  if (name == "pieces") return SwapForm::Pieces;
  if (name == "off") return SwapForm::Off;
  throw RulesError("unknown swap form '" + name + "': expected one of 'sides', 'pieces', 'off'");
}

std::string variant_name(Variant v) {
  switch (v) {
    case Variant::Hex: return "hex";
    case Variant::Rex: return "rex";
    case Variant::Dark: return "dark";
    case Variant::DarkAbrupt: return "dark-abrupt";
  }
  return "?";
}

std::string swap_name(SwapForm s) {
  switch (s) {
    case SwapForm::Off: return "off";
    case SwapForm::Sides: return "sides";
    case SwapForm::Pieces: return "pieces";
  }
  return "?";
}

SwapForm default_swap(Variant v) { return is_dark(v) ? SwapForm::Off : SwapForm::Sides; }

Rules make_rules(Variant variant, int rows, int cols, SwapForm swap) {
  make_geometry(rows, cols);  // throws on a bad size
  if (is_dark(variant) && swap != SwapForm::Off) {
    throw RulesError("swap '" + swap_name(swap) + "' is not available in " + variant_name(variant) +
                     ": in Dark Hex Blue cannot see Red's first stone, so swap must be 'off'");
  }
  if (swap == SwapForm::Pieces && rows != cols) {
    throw RulesError("swap 'pieces' mirrors the first stone across the board's diagonal, so it needs a "
                     "square board, not " + std::to_string(rows) + "x" + std::to_string(cols) +
                     "; use swap='sides' or swap='off'");
  }
  return Rules{variant, rows, cols, swap};
}

}  // namespace hexengine
