// libFuzzer target: the review tools' inputs. The first byte picks the parser: a Longview montage file (JSON), an
// EDFbrowser montage (XML), a filter spec, or a cached spectrogram file (binary). Never a crash; a spectrogram that
// reads writes back to the same bytes; a montage that reads writes back to text
// that reads to the same montage; a spec that parses writes back to text that reads to the same text, and the filter it
// designs at 256 Hz runs over samples with gaps, leaving the gaps missing and every present sample finite.
#include "filter/FilterSpec.h"
#include "montage/EdfBrowserMontage.h"
#include "montage/MontageFile.h"
#include "spectrum/SpectrogramFile.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string_view>
#include <vector>

namespace {

void check(bool ok, const char* what)
{
    if (ok) return;
    std::fprintf(stderr, "invariant broken: %s\n", what);
    std::abort();
}

void montageJson(std::string_view text)
{
    auto parsed = lv::montage::parseMontage(text, "fuzz.json");
    if (!parsed) {
        check(!parsed.error().message.empty(), "an error without words");
        return;
    }
    const std::string written = lv::montage::formatMontage(*parsed);
    auto again = lv::montage::parseMontage(written, "again.json");
    check(again.ok(), "a written montage does not read");
    check(*again == *parsed, "a montage changed on its way through a file");
}

void montageXml(std::string_view text)
{
    std::vector<lv::core::ChannelInfo> channels(4);
    for (std::size_t c = 0; c < channels.size(); ++c) channels[c].name = "ch" + std::to_string(c);
    auto parsed = lv::montage::parseEdfBrowserMontage(text, "fuzz.mtg", channels);
    if (!parsed) {
        check(!parsed.error().message.empty(), "an error without words");
        return;
    }
    check(!parsed->montage.derivations.empty(), "an EDFbrowser montage without derivations");
    for (const lv::montage::Derivation& d : parsed->montage.derivations) {
        check(!d.terms.empty(), "a derivation without terms");
        for (const lv::montage::Term& t : d.terms) check(t.weight != 0 && std::isfinite(t.weight), "a zero weight");
        check(lv::filter::parseFilterSpec(d.display.filter).ok(), "an imported filter that does not parse");
    }
}

void filterSpec(std::string_view text)
{
    auto spec = lv::filter::parseFilterSpec(std::string(text));
    if (!spec) {
        check(!spec.error().message.empty(), "an error without words");
        return;
    }
    const std::string text1 = lv::filter::filterSpecText(*spec);
    auto again = lv::filter::parseFilterSpec(text1 == "none" ? std::string() : text1);
    check(again.ok() && lv::filter::filterSpecText(*again) == text1, "a spec changed on its way through text");
    check(again->any() == spec->any(), "a filter appeared or vanished on its way through text");
    auto sos = lv::filter::designFilter(*spec, 256);
    if (!sos) return;
    std::vector<double> x(300);
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = (i / 40) % 3 == 2 ? std::nan("") : std::sin(0.3 * i) * 100;
    lv::filter::filterRuns(*sos, x, spec->phase);
    for (std::size_t i = 0; i < x.size(); ++i)
        check(((i / 40) % 3 == 2) == std::isnan(x[i]), "a filter filled a gap or lost a sample");
}

void spectrogramFile(std::string_view bytes)
{
    const std::span<const std::uint8_t> data(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    auto parsed = lv::spectrum::parseSpectrogram(data, "fuzz.spectrogram");
    if (!parsed) {
        check(!parsed.error().message.empty(), "an error without words");
        return;
    }
    const std::vector<std::uint8_t> written = lv::spectrum::formatSpectrogram(*parsed);
    check(std::equal(written.begin(), written.end(), data.begin(), data.end()), "a spectrogram changed on its way");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size < 1 || size > (1u << 20)) return 0;
    const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
    switch (data[0] % 4) {
    case 0:
        montageJson(text);
        break;
    case 1:
        montageXml(text);
        break;
    case 2:
        filterSpec(text);
        break;
    default:
        spectrogramFile(text);
    }
    return 0;
}
