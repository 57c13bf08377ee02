// Longview's montage JSON read and written with nlohmann/json; every field checked for its kind and range.
#include "montage/MontageFile.h"

#include "filter/FilterSpec.h"
#include "io/ByteSource.h"
#include "io/WritableFile.h"

#include <cmath>
#include <nlohmann/json.hpp>

namespace lv::montage {

namespace {

using json = nlohmann::json;
using ordered_json = nlohmann::ordered_json;

constexpr const char* kFormat = "longview-montage";
constexpr int kVersion = 1;

core::Error corrupt(const std::string& file, const std::string& what, std::int64_t offset = -1)
{
    return core::makeError(core::ErrorCode::Corrupt, "not a Longview montage file: " + what, file, offset);
}

// The field as a string ("" when absent); a throw (caught as the file's error) when of another kind.
std::string text(const json& j, const char* key)
{
    const auto it = j.find(key);
    if (it == j.end() || it->is_null()) return {};
    if (!it->is_string()) throw std::runtime_error(std::string("\"") + key + "\" is not a string");
    return it->get<std::string>();
}

double number(const json& j, const char* key, double otherwise)
{
    const auto it = j.find(key);
    if (it == j.end() || it->is_null()) return otherwise;
    if (!it->is_number() || !std::isfinite(it->get<double>()))
        throw std::runtime_error(std::string("\"") + key + "\" is not a finite number");
    return it->get<double>();
}

Derivation parseDerivation(const json& j, std::size_t index)
{
    const std::string where = "derivation " + std::to_string(index + 1) + ": ";
    if (!j.is_object()) throw std::runtime_error(where + "not an object");
    Derivation d;
    try {
        d.name = text(j, "name");
        d.unit = text(j, "unit");
        d.type = text(j, "type");
        d.display.colour = text(j, "colour");
        d.display.sensitivity = number(j, "sensitivity", 0);
        d.display.filter = text(j, "filter");
        d.display.inverted = j.value("inverted", false);
    } catch (const std::exception& e) {
        throw std::runtime_error(where + e.what());
    }
    if (d.name.empty()) throw std::runtime_error(where + "no \"name\"");
    if (auto spec = filter::parseFilterSpec(d.display.filter); !spec)
        throw std::runtime_error(where + spec.error().message);
    const auto terms = j.find("terms");
    if (terms == j.end() || !terms->is_array() || terms->empty())
        throw std::runtime_error(where + "no \"terms\" (a list of {\"channel\", \"weight\"})");
    for (const json& t : *terms) {
        if (!t.is_object()) throw std::runtime_error(where + "a term is not an object");
        Term term{text(t, "channel"), number(t, "weight", 1)};
        if (term.channel.empty()) throw std::runtime_error(where + "a term names no channel");
        if (term.weight == 0) throw std::runtime_error(where + "the weight of " + term.channel + " is 0");
        d.terms.push_back(std::move(term));
    }
    return d;
}

} // namespace

std::string formatMontage(const Montage& m)
{
    ordered_json doc;
    doc["format"] = kFormat;
    doc["version"] = kVersion;
    doc["name"] = m.name;
    doc["derivations"] = ordered_json::array();
    for (const Derivation& d : m.derivations) {
        ordered_json terms = ordered_json::array();
        for (const Term& t : d.terms) terms.push_back({{"channel", t.channel}, {"weight", t.weight}});
        doc["derivations"].push_back({{"name", d.name},
                                      {"unit", d.unit},
                                      {"type", d.type},
                                      {"terms", std::move(terms)},
                                      {"colour", d.display.colour},
                                      {"sensitivity", d.display.sensitivity},
                                      {"filter", d.display.filter},
                                      {"inverted", d.display.inverted}});
    }
    return doc.dump(2, ' ', false, ordered_json::error_handler_t::replace) + "\n";
}

core::Result<Montage> parseMontage(std::string_view textIn, const std::string& file)
{
    json doc;
    try {
        doc = json::parse(textIn.begin(), textIn.end());
    } catch (const json::parse_error& e) {
        return corrupt(file, "its JSON does not read", static_cast<std::int64_t>(e.byte > 0 ? e.byte - 1 : 0));
    } catch (const json::exception&) {
        return corrupt(file, "its JSON holds a number out of range");
    }
    try {
        if (!doc.is_object() || doc.value("format", json()) != kFormat)
            return corrupt(file, "no \"format\": \"longview-montage\"");
        const json version = doc.value("version", json());
        if (!version.is_number_integer() || version.get<std::int64_t>() != kVersion)
            return core::makeError(core::ErrorCode::Unsupported,
                                   "montage file version " + version.dump() + " is not 1 (made by a newer Longview?)",
                                   file);
        Montage m;
        m.name = text(doc, "name");
        const auto list = doc.find("derivations");
        if (list == doc.end() || !list->is_array()) return corrupt(file, "no \"derivations\" list");
        for (std::size_t i = 0; i < list->size(); ++i) m.derivations.push_back(parseDerivation((*list)[i], i));
        return m;
    } catch (const std::exception& e) { // a field of the wrong kind
        return corrupt(file, e.what());
    }
}

core::Result<Montage> readMontageFile(const std::string& file)
{
    auto bytes = io::readFile(file);
    if (!bytes) return bytes.error();
    return parseMontage(std::string_view(reinterpret_cast<const char*>(bytes->data()), bytes->size()), file);
}

core::Status writeMontageFile(const Montage& montage, const std::string& file)
{
    const std::string text = formatMontage(montage);
    return io::replaceFile(file, std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()), true);
}

} // namespace lv::montage
