// Conversions read with their texts and nested conversions, and applied to raw values with mdf-check's semantics
// (which reproduce asammdf's): numpy's interpolation, nearest-key tables, range ends by raw type, nested outcomes.
#include "formats/mdf4/Mdf4Conversion.h"

#include "core/LittleEndian.h"
#include "formats/mdf4/Mdf4Block.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

namespace lv::formats::mdf4 {

namespace le = core::le;

namespace {

constexpr std::size_t kMaxDepth = 8;          // nested conversions below the channel's (mdf-check's limit)
constexpr std::size_t kMaxBlocks = 1'000'000; // conversions and texts read for one channel's conversion
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct ConversionReader {
    const io::ByteSource& file;
    std::vector<std::uint64_t> path; // the conversions being read, outermost first
    std::size_t blocks = 0;
};

core::Result<Conversion> read(ConversionReader& r, std::uint64_t offset, bool rawIsFloat);

std::string kindName(ConversionKind kind) { return conversionName(kind); }

// What a cc_ref leads to: a text, a nested conversion (when `nestedAllowed`), or nothing.
core::Result<ConversionRef> readRef(ConversionReader& r, std::uint64_t link, bool nestedAllowed, bool rawIsFloat,
                                    std::uint64_t owner)
{
    ConversionRef ref;
    if (link == 0) {
        ref.isNil = true;
        return ref;
    }
    if (++r.blocks > kMaxBlocks)
        return corrupt(r.file, owner, "the conversion refers to more than " + std::to_string(kMaxBlocks) + " blocks");
    auto head =
        nestedAllowed ? readBlock(r.file, link, {"TX", "MD", "CC"}, 0) : readBlock(r.file, link, {"TX", "MD"}, 0);
    if (!head) return head.error();
    if (head->id == "CC") {
        auto nested = read(r, link, rawIsFloat);
        if (!nested) return nested.error();
        ref.nested.push_back(std::move(*nested));
        return ref;
    }
    auto text = readRawText(r.file, link);
    if (!text) return text.error();
    ref.text = std::move(*text);
    return ref;
}

core::Status checkCounts(const io::ByteSource& file, const Conversion& c, std::size_t refCount)
{
    const std::size_t n = c.values.size();
    std::string problem;
    if (c.kind == ConversionKind::Linear && n < 2) problem = "needs 2 values";
    if (c.kind == ConversionKind::Rational && n < 6) problem = "needs 6 values";
    if (c.kind == ConversionKind::Algebraic && refCount < 1) problem = "needs its formula";
    if ((c.kind == ConversionKind::TableInterp || c.kind == ConversionKind::Table) && (n < 2 || n % 2 != 0))
        problem = "needs pairs of values";
    if (c.kind == ConversionKind::RangeToValue && n < 1) problem = "needs its default value";
    if (problem.empty()) return {};
    return corrupt(file, c.offset,
                   kindName(c.kind) + " conversion with " + std::to_string(n) + " values and " +
                       std::to_string(refCount) + " references " + problem);
}

core::Result<Conversion> read(ConversionReader& r, std::uint64_t offset, bool rawIsFloat)
{
    if (std::find(r.path.begin(), r.path.end(), offset) != r.path.end())
        return corrupt(r.file, offset,
                       "nested conversions loop back: the conversion at byte " + std::to_string(r.path.back()) +
                           " refers to this one, which contains it");
    if (r.path.size() > kMaxDepth)
        return corrupt(r.file, offset, "conversions nest more than " + std::to_string(kMaxDepth) + " deep");
    auto b = readBlock(r.file, offset, {"CC"});
    if (!b) return b.error();
    if (b->links.size() < 4) return corrupt(r.file, offset, "##CC block has fewer than 4 links");
    if (b->data.size() < 24) return corrupt(r.file, offset, "##CC block holds fewer than the 24 data bytes it needs");
    Conversion c;
    c.offset = offset;
    c.rawIsFloat = rawIsFloat;
    const std::uint8_t type = le::u8(b->data, 0);
    if (type > static_cast<std::uint8_t>(ConversionKind::BitfieldToText))
        return corrupt(r.file, offset, "conversion type " + std::to_string(type) + " is not defined");
    c.kind = static_cast<ConversionKind>(type);
    const std::uint16_t refCount = le::u16(b->data, 4), valCount = le::u16(b->data, 6);
    if (b->links.size() < 4u + refCount)
        return corrupt(r.file, offset,
                       "##CC block lists " + std::to_string(refCount) + " references but has room for " +
                           std::to_string(b->links.size() - 4));
    if (b->data.size() < 24 + std::size_t{valCount} * 8)
        return corrupt(r.file, offset,
                       "##CC block lists " + std::to_string(valCount) + " values but holds room for " +
                           std::to_string((b->data.size() - 24) / 8));
    for (std::size_t i = 0; i < valCount; ++i) c.values.push_back(le::f64(b->data, 24 + i * 8));
    c.refs.assign(b->links.begin() + 4, b->links.begin() + 4 + refCount);
    LV_TRY(checkCounts(r.file, c, refCount));
    auto name = readRawText(r.file, b->link(0));
    if (!name) return name.error();
    c.name = std::move(*name);
    auto unit = readText(r.file, b->link(1));
    if (!unit) return unit.error();
    c.unit = std::move(*unit);

    r.path.push_back(offset);
    const ConversionKind k = c.kind;
    if (k == ConversionKind::Algebraic) {
        auto formula = readRawText(r.file, c.refs[0]);
        if (!formula) return formula.error();
        c.formulaText = std::move(*formula);
        if (auto parsed = parseFormula(c.formulaText, &c.formulaProblem)) c.formula = std::move(*parsed);
    } else if (k >= ConversionKind::ValueToText) {
        const bool nestedAllowed =
            k == ConversionKind::ValueToText || k == ConversionKind::RangeToText || k == ConversionKind::BitfieldToText;
        const bool nestedFloat = k == ConversionKind::BitfieldToText ? false : rawIsFloat; // parts are integers
        for (std::uint64_t link : c.refs) {
            auto ref = readRef(r, link, nestedAllowed, nestedFloat, offset);
            if (!ref) return ref.error();
            c.targets.push_back(std::move(*ref));
        }
    }
    r.path.pop_back();
    return c;
}

// Value-to-text and range-to-text: the index of the ref that `x` selects; the default (the last) when none.
std::size_t selectRef(const Conversion& c, double x)
{
    const std::vector<double>& v = c.values;
    if (c.kind == ConversionKind::ValueToText) {
        for (std::size_t i = 0; i < v.size(); ++i)
            if (x == v[i]) return i;
        return v.size();
    }
    const std::size_t n = v.size() / 2;
    for (std::size_t i = 0; i < n; ++i)
        if (x >= v[2 * i] && (c.rawIsFloat ? x < v[2 * i + 1] : x <= v[2 * i + 1])) return i;
    return n;
}

// numpy.interp over the (key, value) pairs: the end values outside the keys.
double interpolate(const std::vector<double>& v, double x)
{
    const std::size_t n = v.size() / 2;
    const auto key = [&](std::size_t i) { return v[2 * i]; };
    const auto val = [&](std::size_t i) { return v[2 * i + 1]; };
    if (n == 1) return val(0);
    if (std::isnan(x)) return x;
    if (x < key(0)) return val(0);
    if (x > key(n - 1)) return val(n - 1);
    std::size_t lo = 0, hi = n; // the last j with key(j) <= x
    while (hi - lo > 1) {
        const std::size_t mid = lo + (hi - lo) / 2;
        (key(mid) <= x ? lo : hi) = mid;
    }
    const std::size_t j = lo;
    if (j == n - 1 || key(j) == x) return val(j);
    const double slope = (val(j + 1) - val(j)) / (key(j + 1) - key(j));
    double r = slope * (x - key(j)) + val(j);
    if (std::isnan(r)) {
        r = slope * (x - key(j + 1)) + val(j + 1);
        if (std::isnan(r) && val(j) == val(j + 1)) r = val(j);
    }
    return r;
}

// The value of the nearest key (the lower one on a tie), as mdf-check's searchsorted does.
double nearest(const std::vector<double>& v, double x)
{
    const std::size_t n = v.size() / 2;
    std::size_t idx = n; // the first key >= x (numpy sorts NaN last)
    if (!std::isnan(x))
        for (std::size_t lo = 0, hi = n;;) {
            if (lo == hi) {
                idx = lo;
                break;
            }
            const std::size_t mid = lo + (hi - lo) / 2;
            if (v[2 * mid] < x)
                lo = mid + 1;
            else
                hi = mid;
        }
    idx = std::min(idx, n - 1);
    const std::size_t lo = idx == 0 ? 0 : idx - 1;
    return std::abs(x - v[2 * lo]) <= std::abs(x - v[2 * idx]) ? v[2 * lo + 1] : v[2 * idx + 1];
}

double rangeValue(const Conversion& c, double x)
{
    const std::vector<double>& v = c.values;
    const std::size_t n = (v.size() - 1) / 3;
    for (std::size_t i = 0; i < n; ++i)
        if (x >= v[3 * i] && (c.rawIsFloat ? x < v[3 * i + 1] : x <= v[3 * i + 1])) return v[3 * i + 2];
    return v[3 * n];
}

double rational(const std::vector<double>& p, double x)
{
    if (p[0] == 0 && p[2] == 0 && p[3] == 0 && p[4] == 0) return p[1] != p[5] ? x * (p[1] / p[5]) : x;
    if (p[1] == 0 && p[2] == 0 && p[3] == 0 && p[5] == 0) return p[0] != p[4] ? x * (p[0] / p[4]) : x;
    const double x2 = x * x;
    return (p[0] * x2 + p[1] * x + p[2]) / (p[3] * x2 + p[4] * x + p[5]);
}

std::string bitfieldText(const Conversion& c, double raw)
{
    const std::uint64_t bits =
        raw < 0 ? static_cast<std::uint64_t>(static_cast<std::int64_t>(raw)) : static_cast<std::uint64_t>(raw);
    std::string out;
    for (std::size_t i = 0; i < c.values.size() && i < c.targets.size(); ++i) {
        const Conversion* part = c.targets[i].conversion();
        if (!part) continue;
        const std::uint64_t mask = std::bit_cast<std::uint64_t>(c.values[i]);
        const auto text = convertToText(*part, static_cast<double>(bits & mask));
        if (!text || text->empty()) continue;
        if (!out.empty()) out += '|';
        out += part->name.empty() ? *text : part->name + " = " + *text;
    }
    return out;
}

} // namespace

core::Result<Conversion> readConversion(const io::ByteSource& file, std::uint64_t offset, bool rawIsFloat)
{
    ConversionReader r{file, {}, 0};
    return read(r, offset, rawIsFloat);
}

bool isNumericConversion(const Conversion& cc)
{
    switch (cc.kind) {
    case ConversionKind::Identity:
    case ConversionKind::Linear:
    case ConversionKind::Rational:
    case ConversionKind::TableInterp:
    case ConversionKind::Table:
    case ConversionKind::RangeToValue:
        return true;
    case ConversionKind::Algebraic:
        return !cc.formula.empty();
    case ConversionKind::ValueToText:
    case ConversionKind::RangeToText: {
        const std::size_t outcomes =
            (cc.kind == ConversionKind::ValueToText ? cc.values.size() : cc.values.size() / 2) + 1;
        if (cc.targets.size() < outcomes) return false;
        for (std::size_t i = 0; i < outcomes; ++i) {
            const Conversion* nested = cc.targets[i].conversion();
            if (!nested || !isNumericConversion(*nested)) return false;
        }
        return true;
    }
    default:
        return false;
    }
}

double convert(const Conversion& cc, double x)
{
    const std::vector<double>& p = cc.values;
    switch (cc.kind) {
    case ConversionKind::Identity:
        return x;
    case ConversionKind::Linear:
        return p.size() >= 2 ? (p[1] == 1 && p[0] == 0 ? x : x * p[1] + p[0]) : kNaN;
    case ConversionKind::Rational:
        return p.size() >= 6 ? rational(p, x) : kNaN;
    case ConversionKind::Algebraic:
        return cc.formula.empty() ? kNaN : evaluate(cc.formula, x);
    case ConversionKind::TableInterp:
        return p.size() >= 2 ? interpolate(p, x) : kNaN;
    case ConversionKind::Table:
        return p.size() >= 2 ? nearest(p, x) : kNaN;
    case ConversionKind::RangeToValue:
        return !p.empty() ? rangeValue(cc, x) : kNaN;
    case ConversionKind::ValueToText:
    case ConversionKind::RangeToText: {
        const std::size_t i = selectRef(cc, x);
        const Conversion* nested = i < cc.targets.size() ? cc.targets[i].conversion() : nullptr;
        return nested ? convert(*nested, x) : kNaN;
    }
    default:
        return kNaN;
    }
}

std::optional<std::string> convertToText(const Conversion& cc, double raw)
{
    if (cc.kind == ConversionKind::BitfieldToText) return bitfieldText(cc, raw);
    if (cc.kind != ConversionKind::ValueToText && cc.kind != ConversionKind::RangeToText) return std::nullopt;
    const std::size_t i = selectRef(cc, raw);
    if (i >= cc.targets.size()) return std::string(); // a missing or NIL reference is an empty text
    const ConversionRef& ref = cc.targets[i];
    if (const Conversion* nested = ref.conversion()) return convertToText(*nested, raw);
    return ref.text;
}

Physical convertToPhysical(const Conversion& cc, double raw)
{
    Physical p;
    p.text = convertToText(cc, raw);
    p.number = p.text ? kNaN : convert(cc, raw);
    return p;
}

Physical convertText(const Conversion& cc, const std::string& raw)
{
    Physical p{kNaN, raw};
    const std::vector<ConversionRef>& t = cc.targets;
    if (cc.kind == ConversionKind::TextToValue) {
        p.text.reset();
        p.number = cc.values.size() > t.size() ? cc.values[t.size()] : kNaN;
        for (std::size_t i = 0; i < t.size(); ++i)
            if (t[i].text == raw) {
                p.number = i < cc.values.size() ? cc.values[i] : kNaN;
                break;
            }
    } else if (cc.kind == ConversionKind::TextToText && !t.empty()) {
        const std::size_t n = (t.size() - 1) / 2;
        const ConversionRef* out = 2 * n < t.size() ? &t[2 * n] : nullptr; // the default
        for (std::size_t i = 0; i < n; ++i)
            if (t[2 * i].text == raw) {
                out = &t[2 * i + 1];
                break;
            }
        if (out && !out->isNil) p.text = out->text;
    }
    return p;
}

} // namespace lv::formats::mdf4
