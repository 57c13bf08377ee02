// Algebraic conversion formulas (cc_type 3) that are arithmetic in X, parsed into a small stack program.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lv::formats::mdf4 {

struct FormulaOp {
    enum class Code : std::uint8_t { Number, X, Add, Sub, Mul, Div, Pow, PowScalar, Neg };
    Code code = Code::Number;
    double number = 0; // Number: the constant; PowScalar: the constant exponent
};

// A parsed formula: operations in postfix order. Empty when the formula was not understood.
struct Formula {
    std::vector<FormulaOp> program;
    bool empty() const { return program.empty(); }
};

// Parses a formula of numbers, X (also X1 and x), pi, e, + - * /, ^ or ** (power, right-associative, above
// unary minus as in Python) and parentheses; nullopt with `why` set for anything else (functions, comparisons).
std::optional<Formula> parseFormula(std::string_view text, std::string* why = nullptr);

// The formula at `x`, evaluated as mdf-check's numpy eval does: the same operations in the same order, a constant
// power of X as numpy's fast paths (X^2 = X*X, X^0.5 = sqrt, X^-1 = 1/X).
double evaluate(const Formula& formula, double x);

} // namespace lv::formats::mdf4
