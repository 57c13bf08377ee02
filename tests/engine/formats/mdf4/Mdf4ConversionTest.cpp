// Conversions on hand-made CCs at the edges mdf-check defines (table ends, ties, range ends by raw type, nested
// outcomes, bitfields, text keys), and algebraic formulas against mdf-check's own evaluator, run at test time.
#include "Mdf4Oracle.h"

#include "formats/mdf4/Mdf4Conversion.h"
#include "support/TestSupport.h"

#include <bit>
#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <sstream>

using namespace lv::formats::mdf4;

namespace {

Conversion make(ConversionKind kind, std::vector<double> values, bool rawIsFloat = false)
{
    Conversion c;
    c.kind = kind;
    c.values = std::move(values);
    c.rawIsFloat = rawIsFloat;
    return c;
}

ConversionRef text(const std::string& t) { return ConversionRef{t, {}, false}; }
ConversionRef nested(const Conversion& c) { return ConversionRef{{}, {c}, false}; }
ConversionRef nil() { return ConversionRef{{}, {}, true}; }

} // namespace

TEST(Mdf4Conversion, InterpolationHoldsTheEndValuesOutsideTheTable)
{
    const Conversion c = make(ConversionKind::TableInterp, {0, 0, 10, 100, 20, 50});
    EXPECT_TRUE(isNumericConversion(c));
    EXPECT_EQ(convert(c, -5), 0);
    EXPECT_EQ(convert(c, 5), 50);
    EXPECT_EQ(convert(c, 15), 75);
    EXPECT_EQ(convert(c, 10), 100);
    EXPECT_EQ(convert(c, 20), 50);
    EXPECT_EQ(convert(c, 99), 50);
    EXPECT_TRUE(std::isnan(convert(c, std::nan(""))));
    EXPECT_EQ(convert(make(ConversionKind::TableInterp, {3, 7}), -1e9), 7); // one pair: its value everywhere
}

TEST(Mdf4Conversion, TableWithoutInterpolationTakesTheNearestKeyTheLowerOnATie)
{
    const Conversion c = make(ConversionKind::Table, {0, 1, 10, 2, 20, 3});
    EXPECT_EQ(convert(c, 5), 1);
    EXPECT_EQ(convert(c, 5.0001), 2);
    EXPECT_EQ(convert(c, 15), 2);
    EXPECT_EQ(convert(c, -30), 1);
    EXPECT_EQ(convert(c, 300), 3);
    EXPECT_EQ(convert(c, std::nan("")), 3); // numpy sorts NaN after every key
}

TEST(Mdf4Conversion, RationalsAreEvaluatedInAsammdfsOrder)
{
    // A pure factor p2/p6 is applied as x * (p2 / p6), as asammdf does: 3 * 0.1, not 3 / 10.
    EXPECT_EQ(convert(make(ConversionKind::Rational, {0, 1, 0, 0, 0, 10}), 3), 3 * (1.0 / 10));
    EXPECT_NE(3 * (1.0 / 10), 3.0 / 10);
    EXPECT_EQ(convert(make(ConversionKind::Rational, {2, 0, 0, 0, 20, 0}), 3), 3 * (2.0 / 20)); // p1 x^2 / p5 x
    EXPECT_EQ(convert(make(ConversionKind::Rational, {1, 2, 3, 0, 0, 7}), 2), (1 * 4.0 + 2 * 2.0 + 3) / 7);
}

TEST(Mdf4Conversion, RangeEndsAreInclusiveForIntegersExclusiveForFloats)
{
    const std::vector<double> v = {0, 10, 1, 10, 20, 2, -1};
    const Conversion ints = make(ConversionKind::RangeToValue, v, false),
                     floats = make(ConversionKind::RangeToValue, v, true);
    EXPECT_EQ(convert(ints, 10), 1);
    EXPECT_EQ(convert(floats, 10), 2);
    EXPECT_EQ(convert(ints, 20), 2);
    EXPECT_EQ(convert(floats, 20), -1);
    EXPECT_EQ(convert(ints, -0.5), -1);

    Conversion texts = make(ConversionKind::RangeToText, {0, 10, 10, 20}, true);
    texts.targets = {text("low"), text("high"), text("other")};
    EXPECT_EQ(convertToText(texts, 10), "high");
    EXPECT_EQ(convertToText(texts, 25), "other");
    texts.rawIsFloat = false;
    EXPECT_EQ(convertToText(texts, 10), "low");
}

TEST(Mdf4Conversion, ValueToTextGivesTextsOrNumbersOfNestedConversions)
{
    Conversion c = make(ConversionKind::ValueToText, {1, 2, 3});
    c.targets = {text("one"), nested(make(ConversionKind::Linear, {1, 2})), nil()}; // the default: missing
    EXPECT_FALSE(isNumericConversion(c));
    EXPECT_EQ(convertToText(c, 1), "one");
    EXPECT_TRUE(std::isnan(convert(c, 1)));
    EXPECT_EQ(convertToText(c, 2), std::nullopt);
    EXPECT_EQ(convert(c, 2), 5);
    EXPECT_EQ(convertToText(c, 3), ""); // a NIL reference is an empty text
    EXPECT_EQ(convertToText(c, 7), ""); // no default reference at all: empty too
    const Physical p = convertToPhysical(c, 2);
    EXPECT_FALSE(p.isText());
    EXPECT_EQ(p.number, 5);

    Conversion numeric = make(ConversionKind::ValueToText, {1});
    numeric.targets = {nested(make(ConversionKind::Linear, {0, 10})), nested(make(ConversionKind::Identity, {}))};
    EXPECT_TRUE(isNumericConversion(numeric));
    EXPECT_EQ(convert(numeric, 1), 10);
    EXPECT_EQ(convert(numeric, 4), 4);
}

TEST(Mdf4Conversion, BitfieldTextJoinsTheNamedPartsThatGiveText)
{
    Conversion low = make(ConversionKind::ValueToText, {1, 2});
    low.targets = {text("on"), text("error"), text("")};
    low.name = "low";
    Conversion high = make(ConversionKind::ValueToText, {16});
    high.targets = {text("HIGH"), nil()};
    Conversion c = make(ConversionKind::BitfieldToText,
                        {std::bit_cast<double>(std::uint64_t{0x0F}), std::bit_cast<double>(std::uint64_t{0xF0})});
    c.targets = {nested(low), nested(high)};
    EXPECT_FALSE(isNumericConversion(c));
    EXPECT_EQ(convertToText(c, 0x11), "low = on|HIGH");
    EXPECT_EQ(convertToText(c, 0x02), "low = error");
    EXPECT_EQ(convertToText(c, 0x00), "");
}

TEST(Mdf4Conversion, TextToValueAndTextToText)
{
    Conversion v = make(ConversionKind::TextToValue, {1, 2, -1});
    v.targets = {text("on"), text("off")};
    EXPECT_EQ(convertText(v, "off").number, 2);
    EXPECT_EQ(convertText(v, "other").number, -1);
    EXPECT_FALSE(convertText(v, "on").isText());

    Conversion t = make(ConversionKind::TextToText, {});
    t.targets = {text("a"), text("alpha"), text("b"), nil(), text("?")};
    EXPECT_EQ(convertText(t, "a").text, "alpha");
    EXPECT_EQ(convertText(t, "b").text, "b"); // a NIL value keeps the input
    EXPECT_EQ(convertText(t, "c").text, "?");
    t.targets.back() = nil();
    EXPECT_EQ(convertText(t, "c").text, "c");
    EXPECT_EQ(convertText(make(ConversionKind::Linear, {0, 2}), "x").text, "x"); // numbers leave a text alone
}

TEST(Mdf4Conversion, FormulasOutsideArithmeticAreRefusedWithTheReason)
{
    std::string why;
    EXPECT_FALSE(parseFormula("sin(X)", &why));
    EXPECT_EQ(why, "\"sin\" is not read (only X, numbers, + - * / ^ and parentheses) at character 1");
    EXPECT_FALSE(parseFormula("X > 1", &why));
    EXPECT_FALSE(parseFormula("(X + 1", &why));
    EXPECT_EQ(why, "a ')' is missing at character 7");
    EXPECT_FALSE(parseFormula("X // 2", &why));
    Conversion c = make(ConversionKind::Algebraic, {});
    EXPECT_FALSE(isNumericConversion(c)); // not understood: no numbers claimed
    EXPECT_TRUE(std::isnan(convert(c, 1)));
}

// The same doubles as mdf-check's eval_formula (Python's grammar on numpy arrays), bit for bit; except a power of X
// that numpy has no fast path for (X^3): numpy's pow is SVML's on AVX-512 machines (within 4 ulp), ours libm's.
TEST(Mdf4Conversion, FormulasEqualMdfChecksEvaluation)
{
    const std::vector<std::string> formulas = {
        "X*2+1",           "-X^2",           "2^-1*X",      "(X+1)/(X-1)", "X1*3 - 0.1", "x^0.5", "1/X", "X^-1", "X**3",
        "3*X^2 + 2*X + 1", "-(X-2)*(X+2)/7", "1e-3*X + .5", "pi*X",        "2^3^2 - X",  "X/3/7"};
    const std::vector<double> xs = {0.0, -0.0, 1.0, -2.5, 3.0, 0.1, 1e10, 255.0};
    std::string script = "import warnings; warnings.simplefilter('ignore')\n"
                         "import importlib.machinery, numpy as np\n"
                         "m = importlib.machinery.SourceFileLoader('mdfcheck', '" +
                         lv::test::mdf4::mdfCheck() +
                         "').load_module()\n"
                         "x = np.array([" +
                         [&] {
                             std::string s;
                             for (double x : xs) s += (std::signbit(x) && x == 0 ? "-0.0" : std::to_string(x)) + ",";
                             return s;
                         }() +
                         "], dtype=np.float64)\n";
    for (const std::string& f : formulas)
        script += "print(' '.join(repr(float(v)) for v in m.eval_formula('" + f + "', x)))\n";
    lv::test::TempDir dir;
    const std::string py = (dir.path() / "eval.py").string();
    lv::test::writeBytes(py, std::vector<std::uint8_t>(script.begin(), script.end()));
    std::string out;
    ASSERT_EQ(lv::test::run("/usr/bin/python3 '" + py + "' 2>&1", &out), 0) << out;
    std::istringstream lines(out);
    for (const std::string& f : formulas) {
        SCOPED_TRACE(f);
        auto parsed = parseFormula(f);
        ASSERT_TRUE(parsed.has_value());
        std::string line;
        ASSERT_TRUE(std::getline(lines, line));
        std::istringstream values(line);
        for (double x : xs) {
            std::string want;
            values >> want;
            const double got = evaluate(*parsed, x), expected = std::strtod(want.c_str(), nullptr);
            if (std::isnan(expected)) {
                EXPECT_TRUE(std::isnan(got)) << "x=" << x;
            } else if (f == "X**3") {
                EXPECT_LE(std::abs(got - expected), 4 * std::abs(expected) * std::numeric_limits<double>::epsilon());
            } else {
                EXPECT_EQ(got, expected) << "x=" << x;
                EXPECT_EQ(std::signbit(got), std::signbit(expected)) << "x=" << x;
            }
        }
    }
}
