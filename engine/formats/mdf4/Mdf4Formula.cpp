// A recursive-descent parser for the arithmetic formulas of algebraic conversions and their stack evaluation.
#include "formats/mdf4/Mdf4Formula.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <numbers>

namespace lv::formats::mdf4 {

namespace {

using Code = FormulaOp::Code;

struct Parser {
    std::string_view s;
    std::size_t at = 0;
    std::vector<FormulaOp> out;
    std::vector<bool> dependsOnX; // per value on the (virtual) stack: whether it varies with X
    std::string why;
    int depth = 0;

    void skipSpace()
    {
        while (at < s.size() && std::isspace(static_cast<unsigned char>(s[at]))) ++at;
    }
    bool take(std::string_view token)
    {
        skipSpace();
        if (s.substr(at, token.size()) != token) return false;
        at += token.size();
        return true;
    }
    bool fail(const std::string& what)
    {
        if (why.empty()) why = what + " at character " + std::to_string(at + 1);
        return false;
    }
    void push(FormulaOp op, bool variable)
    {
        out.push_back(op);
        dependsOnX.push_back(variable);
    }
    void binary(Code code)
    {
        const bool variable = dependsOnX[dependsOnX.size() - 1] || dependsOnX[dependsOnX.size() - 2];
        dependsOnX.resize(dependsOnX.size() - 2);
        push({code, 0}, variable);
    }

    bool expression()
    {
        if (++depth > 200) return fail("the formula nests too deep");
        if (!term()) return false;
        for (;;) {
            skipSpace();
            if (at < s.size() && (s[at] == '+' || s[at] == '-')) {
                const Code code = s[at++] == '+' ? Code::Add : Code::Sub;
                if (!term()) return false;
                binary(code);
            } else {
                --depth;
                return true;
            }
        }
    }
    bool term()
    {
        if (!factor()) return false;
        for (;;) {
            skipSpace();
            if (s.substr(at, 2) == "**" || at >= s.size() || (s[at] != '*' && s[at] != '/')) return true;
            if (s.substr(at, 2) == "//") return fail("floor division is not read");
            const Code code = s[at++] == '*' ? Code::Mul : Code::Div;
            if (!factor()) return false;
            binary(code);
        }
    }
    bool factor() // unary signs bind less tightly than the power on their right, as in Python
    {
        if (++depth > 200) return fail("the formula nests too deep");
        skipSpace();
        bool ok = true;
        if (take("-")) {
            ok = factor();
            if (ok) {
                const bool variable = dependsOnX.back();
                dependsOnX.pop_back();
                push({Code::Neg, 0}, variable);
            }
        } else if (take("+")) {
            ok = factor();
        } else {
            ok = power();
        }
        --depth;
        return ok;
    }
    bool power()
    {
        if (!atom()) return false;
        if (!take("**") && !take("^")) return true;
        const std::size_t exponentStart = out.size();
        if (!factor()) return false;
        const bool baseVariable = dependsOnX[dependsOnX.size() - 2], exponentVariable = dependsOnX.back();
        if (baseVariable && !exponentVariable) { // numpy's array ** scalar, the exponent computed first
            const double exponent = evaluate(Formula{{out.begin() + exponentStart, out.end()}}, 0);
            out.resize(exponentStart);
            dependsOnX.pop_back();
            out.push_back({Code::PowScalar, exponent});
            return true;
        }
        binary(Code::Pow);
        return true;
    }
    bool atom()
    {
        skipSpace();
        if (at >= s.size()) return fail("the formula ends early");
        const char c = s[at];
        if (c == '(') {
            ++at;
            if (!expression()) return false;
            return take(")") || fail("a ')' is missing");
        }
        if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') return number();
        if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
            std::size_t end = at;
            while (end < s.size() && (std::isalnum(static_cast<unsigned char>(s[end])) || s[end] == '_')) ++end;
            const std::string_view name = s.substr(at, end - at);
            if (name == "X" || name == "X1" || name == "x") {
                at = end;
                push({Code::X, 0}, true);
                return true;
            }
            if (name == "pi" || name == "PI" || name == "e") {
                at = end;
                push({Code::Number, name == "e" ? std::numbers::e : std::numbers::pi}, false);
                return true;
            }
            return fail("\"" + std::string(name) + "\" is not read (only X, numbers, + - * / ^ and parentheses)");
        }
        return fail(std::string("'") + c + "' is not read");
    }
    bool number()
    {
        std::size_t end = at;
        while (end < s.size() && (std::isdigit(static_cast<unsigned char>(s[end])) || s[end] == '.')) ++end;
        if (end < s.size() && (s[end] == 'e' || s[end] == 'E')) {
            std::size_t exp = end + 1;
            if (exp < s.size() && (s[exp] == '+' || s[exp] == '-')) ++exp;
            if (exp < s.size() && std::isdigit(static_cast<unsigned char>(s[exp]))) {
                end = exp;
                while (end < s.size() && std::isdigit(static_cast<unsigned char>(s[end]))) ++end;
            }
        }
        const std::string token(s.substr(at, end - at));
        char* stop = nullptr;
        const double value = std::strtod(token.c_str(), &stop);
        if (token == "." || stop != token.c_str() + token.size()) return fail("a malformed number");
        at = end;
        push({Code::Number, value}, false);
        return true;
    }
};

} // namespace

std::optional<Formula> parseFormula(std::string_view text, std::string* why)
{
    Parser p;
    p.s = text;
    bool ok = p.expression();
    p.skipSpace();
    if (ok && p.at != text.size()) ok = p.fail(std::string("'") + text[p.at] + "' is not read");
    if (!ok) {
        if (why) *why = p.why;
        return std::nullopt;
    }
    return Formula{std::move(p.out)};
}

double evaluate(const Formula& f, double x)
{
    double stack[256];
    std::size_t n = 0;
    for (const FormulaOp& op : f.program) {
        if (op.code == Code::Number || op.code == Code::X) {
            if (n == 256) return std::nan("");
            stack[n++] = op.code == Code::X ? x : op.number;
            continue;
        }
        if (op.code == Code::Neg) {
            stack[n - 1] = -stack[n - 1];
            continue;
        }
        if (op.code == Code::PowScalar) {
            double& b = stack[n - 1];
            const double e = op.number;
            b = e == 1     ? b
                : e == -1  ? 1.0 / b
                : e == 0   ? 1.0
                : e == 0.5 ? std::sqrt(b)
                : e == 2   ? b * b
                           : std::pow(b, e);
            continue;
        }
        const double r = stack[--n];
        double& l = stack[n - 1];
        switch (op.code) {
        case Code::Add:
            l = l + r;
            break;
        case Code::Sub:
            l = l - r;
            break;
        case Code::Mul:
            l = l * r;
            break;
        case Code::Div:
            l = l / r;
            break;
        default:
            l = std::pow(l, r);
            break;
        }
    }
    return n == 1 ? stack[0] : std::nan("");
}

} // namespace lv::formats::mdf4
