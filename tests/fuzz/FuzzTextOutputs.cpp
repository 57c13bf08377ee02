// libFuzzer target: arbitrary channel names, units and annotation texts (NUL-separated pieces of the input,
// after an 8-byte onset) through the CSV cell code (comma, semicolon and tab tables) and the EDF header and TAL
// writers, checking that each reads back: the CSV row parses (RFC 4180) to one cell per text holding that text; the EDF
// header stays printable ASCII of fixed width; the TAL parses back to the same onset and texts.
#include "convert/CsvCell.h"
#include "core/TextEncoding.h"
#include "formats/edf/EdfHeader.h"
#include "formats/edf/EdfIdentity.h"
#include "formats/edf/EdfWriter.h"
#include "formats/edf/Tal.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace {

namespace edf = lv::formats::edf;

void check(bool ok, const char* what)
{
    if (ok) return;
    std::fprintf(stderr, "invariant broken: %s\n", what);
    std::abort();
}

// The cells of one CSV record (RFC 4180, strict); nullopt when it is not one well-formed record.
std::optional<std::vector<std::string>> parseRecord(const std::string& line, char delimiter)
{
    std::vector<std::string> cells(1);
    std::size_t i = 0;
    while (true) {
        std::string& cell = cells.back();
        if (i < line.size() && line[i] == '"') {
            for (++i;; ++i) {
                if (i >= line.size()) return std::nullopt; // unterminated
                if (line[i] != '"') {
                    cell += line[i];
                } else if (i + 1 < line.size() && line[i + 1] == '"') {
                    cell += '"';
                    ++i;
                } else {
                    ++i;
                    break;
                }
            }
        } else {
            while (i < line.size() && line[i] != delimiter) {
                if (line[i] == '"' || line[i] == '\n' || line[i] == '\r') return std::nullopt;
                cell += line[i++];
            }
        }
        if (i == line.size()) return cells;
        if (line[i] != delimiter) return std::nullopt;
        ++i;
        cells.emplace_back();
    }
}

// What a cell must read back as: the text, with "'" before a formula start.
std::string expectedCell(const std::string& text)
{
    const bool formula = !text.empty() && std::strchr("=+-@\t\r", text.front()) != nullptr && text.front() != '\0';
    return formula ? "'" + text : text;
}

void checkCsv(const std::vector<std::string>& texts, char delimiter)
{
    std::string row;
    for (std::size_t k = 0; k < texts.size(); ++k)
        row += (k ? std::string(1, delimiter) : std::string()) + lv::convert::csvTextCell(texts[k], delimiter);
    const auto cells = parseRecord(row, delimiter);
    check(cells.has_value(), "CSV row parses");
    check(cells->size() == texts.size(), "CSV row has one cell per text");
    for (std::size_t k = 0; k < texts.size(); ++k) {
        check((*cells)[k] == expectedCell(texts[k]), "CSV cell reads back as its text");
        const char first = (*cells)[k].empty() ? 'x' : (*cells)[k].front();
        check(std::strchr("=+-@\t\r", first) == nullptr || first == '\0', "CSV cell never starts a formula");
    }
}

void checkHeader(const std::vector<std::string>& texts, bool bdf)
{
    const std::string& name = texts[0];
    const std::string unit = texts.size() > 1 ? texts[1] : "";
    const std::string text = texts.size() > 2 ? texts[2] : "";
    lv::core::SubjectInfo subject{name, text, unit, text};
    lv::core::SiteInfo site{unit, name, text, text};
    edf::WriterHeader h{bdf, false, edf::patientField(subject), edf::recordingField(0, site), 0, 1, 1.0, {}};
    h.signals.push_back({name.substr(0, 16), text, unit.substr(0, 8), "-100", "100", -32768, 32767, text, 256});
    h.signals.push_back({"EDF Annotations", "", "", "-1", "1", -32768, 32767, "", 60});
    const auto header = edf::formatHeader(h);
    if (!header) { // only a transducer or prefilter text longer than its field may be refused
        check(header.error().message.find("transducer") != std::string::npos ||
                  header.error().message.find("prefiltering") != std::string::npos,
              "EDF header refuses only an over-long transducer or prefilter");
        return;
    }
    check(header->size() == 256 * (h.signals.size() + 1), "EDF header has its fixed size");
    for (std::size_t k = bdf ? 1 : 0; k < header->size(); ++k)
        check((*header)[k] >= 0x20 && (*header)[k] <= 0x7E, "EDF header is printable ASCII");
    check(header->compare(256, 16, (edf::asciiField(name.substr(0, 16), false) + std::string(16, ' ')).substr(0, 16)) ==
              0,
          "EDF label sits in its 16 bytes");
}

void checkTal(std::int64_t onset, const std::vector<std::string>& texts)
{
    const std::string tal = edf::formatTal(onset, std::nullopt, texts);
    std::vector<std::string> problems;
    const auto parsed =
        edf::parseTals(std::span(reinterpret_cast<const std::uint8_t*>(tal.data()), tal.size()), &problems);
    const std::string digits = edf::formatOnset(onset);
    if (digits.find('.') == std::string::npos ? digits.size() > 13 : digits.find('.') > 13)
        return; // beyond the 12 whole digits the parser accepts (31,700 years)
    check(parsed.size() == 1 && problems.empty(), "a TAL parses back as one TAL");
    check(parsed[0].onsetUs == onset, "the TAL's onset reads back");
    check(parsed[0].texts.size() == texts.size(), "the TAL holds one text per annotation");
    for (std::size_t k = 0; k < texts.size(); ++k) {
        std::string clean = texts[k];
        for (char& c : clean)
            if (c == '\x14' || c == '\x15' || c == '\0') c = ' ';
        check(parsed[0].texts[k] == lv::core::utf8OrLatin1(clean), "each TAL text reads back");
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size < 9) return 0;
    std::int64_t onset = 0;
    std::memcpy(&onset, data, 8);
    onset /= 1024; // keep most onsets within what a TAL can hold
    std::vector<std::string> texts;
    std::string piece;
    for (std::size_t k = 9; k < size; ++k) {
        if (data[k] == 0 && texts.size() < 16) {
            texts.push_back(piece);
            piece.clear();
        } else {
            piece += static_cast<char>(data[k]);
        }
    }
    texts.push_back(piece);
    for (const char delimiter : {',', ';', '\t'}) checkCsv(texts, delimiter);
    checkHeader(texts, (data[8] & 1) != 0);
    checkTal(onset, texts);
    return 0;
}
