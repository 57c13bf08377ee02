// EDFbrowser montage XML read with pugixml; numbers parsed strictly, every problem named with its composition.
#include "montage/EdfBrowserMontage.h"

#include "core/TimeFormat.h"
#include "filter/FilterSpec.h"
#include "io/ByteSource.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <optional>
#include <pugixml.hpp>

namespace lv::montage {

namespace {

// EDFbrowser's colour table (2 to 18), as Qt's named colours.
constexpr const char* kColours[] = {"#000000", "#ffffff", "#a0a0a4", "#808080", "#c0c0c0", "#ff0000",
                                    "#00ff00", "#0000ff", "#00ffff", "#ff00ff", "#ffff00", "#800000",
                                    "#008000", "#000080", "#008080", "#800080", "#808000"};

std::string trimmed(std::string s)
{
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n' || s.back() == '\r')) s.pop_back();
    std::size_t from = 0;
    while (from < s.size() && (s[from] == ' ' || s[from] == '\t' || s[from] == '\n' || s[from] == '\r')) ++from;
    return s.substr(from);
}

std::string childText(const pugi::xml_node& node, const char* name) { return trimmed(node.child_value(name)); }

std::optional<double> childNumber(const pugi::xml_node& node, const char* name)
{
    const std::string text = childText(node, name);
    double v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v)) return std::nullopt;
    return v;
}

// "F4-FP2" for F4 x 1 + FP2 x -1; "2xA+B" otherwise.
std::string nameOf(const std::vector<Term>& terms)
{
    std::string out;
    for (std::size_t i = 0; i < terms.size(); ++i) {
        const double w = terms[i].weight;
        const bool bipolarMinus = terms.size() == 2 && i == 1 && w == -1;
        if (i > 0) out += bipolarMinus ? "-" : (w < 0 ? "-" : "+");
        if (i == 0 && w < 0) out += "-";
        if (std::abs(w) != 1) out += core::formatNumber(std::abs(w), 6) + "x";
        out += terms[i].channel;
    }
    return out;
}

struct Composition {
    Derivation derivation;
    std::vector<std::string> notes;
};

// The fid filters of a composition as one spec; what does not fit is said in `notes`.
void importFilters(const pugi::xml_node& node, Composition& c)
{
    filter::FilterSpec spec;
    int order = 0;
    const auto note = [&](const std::string& what) { c.notes.push_back(what); };
    for (const pugi::xml_node f : node.children("fidfilter")) {
        const auto type = childNumber(f, "type"), hz = childNumber(f, "frequency"), hz2 = childNumber(f, "frequency2");
        const auto model = childNumber(f, "model"), n = childNumber(f, "order");
        if (!type || !hz || !model || !n) {
            note("a filter without its type, frequency, model or order is not imported");
            continue;
        }
        if (*type == 2) { // notch: "order" is its Q
            if (spec.notchHz > 0)
                note("a second notch is not imported");
            else
                spec.notchHz = *hz, spec.notchQ = *n;
            continue;
        }
        if (*model != 0) {
            note(std::string("a ") + (*model == 1 ? "Chebyshev" : "Bessel") +
                 " filter is not imported (Butterworth only)");
            continue;
        }
        if (*n < 1 || *n > 8) {
            note("a filter of order " + core::formatNumber(*n, 6) + " is not imported (orders 1 to 8)");
            continue;
        }
        double* slot[2] = {nullptr, nullptr};
        if (*type == 0)
            slot[0] = &spec.highPassHz;
        else if (*type == 1)
            slot[0] = &spec.lowPassHz;
        else if (*type == 3)
            slot[0] = &spec.bandPassLowHz, slot[1] = &spec.bandPassHighHz;
        else if (*type == 4)
            slot[0] = &spec.bandStopLowHz, slot[1] = &spec.bandStopHighHz;
        if (!slot[0] || (slot[1] && !hz2)) {
            note("a filter of type " + core::formatNumber(*type, 6) + " is not imported");
            continue;
        }
        if (*slot[0] > 0) {
            note("a second filter of the same kind is not imported");
            continue;
        }
        *slot[0] = *hz;
        if (slot[1]) *slot[1] = *hz2;
        if (order != 0 && order != static_cast<int>(*n)) note("filters of different orders: all made of the highest");
        order = std::max(order, static_cast<int>(*n));
    }
    if (order > 0) spec.order = order;
    if (node.child("ravg_filter")) note("running-average filters are not imported");
    if (node.child("ecg_filter")) note("the heart-rate detection is not imported");
    if (spec.any()) c.derivation.display.filter = filter::filterSpecText(spec);
}

core::Result<Composition> importComposition(const pugi::xml_node& node, std::size_t index, const std::string& file,
                                            const std::vector<core::ChannelInfo>& channels)
{
    const std::string where = "signal composition " + std::to_string(index + 1) + ": ";
    const auto bad = [&](const std::string& what) {
        return core::makeError(core::ErrorCode::Corrupt, "not an EDFbrowser montage: " + where + what, file);
    };
    Composition c;
    for (const pugi::xml_node s : node.children("signal")) {
        const auto factor = childNumber(s, "factor");
        if (!factor || *factor == 0) return bad("a signal without a factor (a number, not 0)");
        std::string label = childText(s, "label");
        if (label.empty()) {
            const auto at = childNumber(s, "edfindex");
            if (!at || *at < 0 || *at != std::floor(*at)) return bad("a signal without a label or an edfindex");
            if (channels.empty() || *at >= static_cast<double>(channels.size()))
                return bad("signal index " + core::formatNumber(*at, 10) + " names no channel of the recording");
            label = channels[static_cast<std::size_t>(*at)].name;
        }
        c.derivation.terms.push_back({label, *factor});
    }
    const auto count = childNumber(node, "num_of_signals");
    if (c.derivation.terms.empty()) return bad("no signal");
    if (count && *count != static_cast<double>(c.derivation.terms.size()))
        return bad("num_of_signals says " + core::formatNumber(*count, 6) + " but it holds " +
                   std::to_string(c.derivation.terms.size()));
    const std::string alias = childText(node, "alias");
    c.derivation.name = alias.empty() ? nameOf(c.derivation.terms) : alias;
    c.derivation.display.sensitivity = childNumber(node, "voltpercm").value_or(0);
    c.derivation.display.inverted = childNumber(node, "polarity").value_or(1) == -1;
    const double colour = childNumber(node, "color").value_or(2);
    if (colour >= 2 && colour <= 18 && colour == std::floor(colour))
        c.derivation.display.colour = kColours[static_cast<int>(colour) - 2];
    importFilters(node, c);
    for (std::string& n : c.notes) n.insert(0, c.derivation.name + ": ");
    return c;
}

} // namespace

core::Result<MontageImport> parseEdfBrowserMontage(std::string_view xml, const std::string& file,
                                                   const std::vector<core::ChannelInfo>& channels)
{
    pugi::xml_document doc;
    const pugi::xml_parse_result parsed = doc.load_buffer(xml.data(), xml.size());
    if (!parsed)
        return core::makeError(core::ErrorCode::Corrupt,
                               std::string("not an EDFbrowser montage: its XML does not read (") +
                                   parsed.description() + ")",
                               file, static_cast<std::int64_t>(parsed.offset));
    const pugi::xml_node root = doc.child("EDFbrowser_montage");
    if (!root)
        return core::makeError(core::ErrorCode::Corrupt, "not an EDFbrowser montage: no <EDFbrowser_montage> element",
                               file);
    MontageImport out;
    std::size_t index = 0;
    for (const pugi::xml_node node : root.children("signalcomposition")) {
        auto c = importComposition(node, index++, file, channels);
        if (!c) return c.error();
        out.montage.derivations.push_back(std::move(c->derivation));
        out.notes.insert(out.notes.end(), c->notes.begin(), c->notes.end());
    }
    if (out.montage.derivations.empty())
        return core::makeError(core::ErrorCode::Corrupt, "not an EDFbrowser montage: no signal composition", file);
    return out;
}

std::string xmlLibraryVersion()
{
    return std::to_string(PUGIXML_VERSION / 1000) + "." + std::to_string(PUGIXML_VERSION % 1000 / 10);
}

core::Result<MontageImport> readEdfBrowserMontage(const std::string& file,
                                                  const std::vector<core::ChannelInfo>& channels)
{
    auto bytes = io::readFile(file);
    if (!bytes) return bytes.error();
    auto m = parseEdfBrowserMontage(std::string_view(reinterpret_cast<const char*>(bytes->data()), bytes->size()), file,
                                    channels);
    if (m) m->montage.name = std::filesystem::path(file).stem().string();
    return m;
}

} // namespace lv::montage
