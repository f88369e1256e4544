// Variants, swap forms and the validated rule set of one game.
//
// Contract: a Rules value exists only after `make_rules` accepted it, so every
// other part of the core may assume a valid combination: a size from 1x1 to
// 19x19, swap only in Hex and Rex, the `pieces` swap only on square boards.
#pragma once

#include <string>

#include "core/geometry.h"

namespace hexengine {

// The four games of the family.
enum class Variant : int { Hex = 0, Rex = 1, Dark = 2, DarkAbrupt = 3 };

// How the swap (pie) rule works, if at all.
enum class SwapForm : int { Off = 0, Sides = 1, Pieces = 2 };

// Whether stones of the opponent are hidden (Dark Hex, classic or abrupt).
constexpr bool is_dark(Variant v) { return v == Variant::Dark || v == Variant::DarkAbrupt; }
// Whether completing your own chain loses (Rex) instead of winning.
constexpr bool is_misere(Variant v) { return v == Variant::Rex; }

// A validated rule set: variant, board size and swap form.
struct Rules {
  Variant variant = Variant::Hex;
  int rows = 11;
  int cols = 11;
  SwapForm swap = SwapForm::Sides;

  // Same variant, shape and swap form.
  bool operator==(const Rules&) const = default;
};

// Parses "hex", "rex", "dark" or "dark-abrupt"; throws RulesError otherwise.
Variant parse_variant(const std::string& name);
// Parses "sides", "pieces" or "off"; throws RulesError otherwise.
SwapForm parse_swap(const std::string& name);
// The name `parse_variant` accepts for `v`.
std::string variant_name(Variant v);
// The name `parse_swap` accepts for `s`.
std::string swap_name(SwapForm s);
// The swap form a variant uses when none is given: sides in Hex and Rex, off in Dark Hex.
SwapForm default_swap(Variant v);
// Checks a combination and returns it as Rules; throws RulesError naming the problem.
Rules make_rules(Variant variant, int rows, int cols, SwapForm swap);

}  // namespace hexengine
