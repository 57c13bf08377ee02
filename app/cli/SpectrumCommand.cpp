// longview-cli spectrum: each selected channel's power spectral density over a range (Welch, missing data left
// out), with band powers, optionally of filtered values or of a montage's derivations.
#include "CliSupport.h"
#include "Commands.h"

#include "core/TextEscape.h"
#include "filter/FilteredRecording.h"
#include "montage/LoadMontage.h"
#include "montage/MontageRecording.h"
#include "spectrum/Welch.h"

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

namespace lv::cli {

namespace {

struct SpectrumOptions {
    CommonOptions common;
    SelectionOptions selection;
    double segmentSeconds = 2;
    double overlap = 0.5;
    std::string window = "hann";
    std::vector<std::string> bands; // "name=LOW-HIGH"
    std::string filter;
    std::string montage;
    bool json = false;
};

struct Band {
    std::string name;
    double low = 0, high = 0;
};

std::vector<Band> bandsOf(const std::vector<std::string>& given)
{
    std::vector<Band> out = {{"delta", 0.5, 4}, {"theta", 4, 8}, {"alpha", 8, 13}, {"beta", 13, 30}, {"gamma", 30, 80}};
    for (const std::string& text : given) { // checked when parsed
        const std::size_t eq = text.find('='), dash = text.find('-', eq + 2);
        out.push_back(
            {text.substr(0, eq), std::stod(text.substr(eq + 1, dash - eq - 1)), std::stod(text.substr(dash + 1))});
    }
    return out;
}

// The channel's PSD over the range, read 2^20 samples at a time.
core::Result<spectrum::Psd> channelPsd(core::Recording& recording, std::size_t channel, core::TimeRange range,
                                       const spectrum::WelchOptions& options, const core::ReadControl& control)
{
    const core::ChannelInfo& ch = recording.info().channels[channel];
    auto acc = spectrum::WelchAccumulator::create(ch.fs, options);
    if (!acc) return acc.error();
    const core::SampleSpan span = core::sampleSpan(ch, range);
    std::vector<std::int32_t> counts;
    std::vector<double> values;
    for (std::int64_t at = span.first; at < span.first + span.count; at += std::int64_t{1} << 20) {
        counts.resize(
            static_cast<std::size_t>(std::min<std::int64_t>(std::int64_t{1} << 20, span.first + span.count - at)));
        const core::RawSlice slice{channel, at, counts};
        LV_TRY(recording.readRaw({&slice, 1}, control));
        values.resize(counts.size());
        for (std::size_t i = 0; i < counts.size(); ++i)
            values[i] = counts[i] == core::kNoSample ? std::nan("") : counts[i] * ch.conversionFactor + ch.offset;
        acc->add(values);
    }
    return acc->result();
}

nlohmann::ordered_json channelJson(const core::ChannelInfo& ch, const spectrum::Psd& psd,
                                   const std::vector<Band>& bands)
{
    nlohmann::ordered_json j = {
        {"name", ch.name}, {"unit", ch.unit}, {"fs", ch.fs}, {"segments", psd.segments}, {"seconds", psd.seconds}};
    nlohmann::ordered_json powers = nlohmann::ordered_json::object();
    for (const Band& b : bands)
        if (b.low < ch.fs / 2) powers[b.name] = spectrum::bandPower(psd, b.low, std::min(b.high, ch.fs / 2 + 1e-9));
    j["band_power"] = powers;
    j["frequencies"] = psd.frequencies;
    j["psd"] = psd.power;
    return j;
}

void printText(const core::ChannelInfo& ch, const spectrum::Psd& psd, const std::vector<Band>& bands)
{
    std::printf("%s: %zu segments over %.6g s", core::escapeControls(ch.name).c_str(), psd.segments, psd.seconds);
    if (psd.power.empty()) {
        std::printf(" (no segment fits between the gaps)\n");
        return;
    }
    const auto peak = std::max_element(psd.power.begin() + 1, psd.power.end()) - psd.power.begin();
    std::printf(", peak at %.4g Hz\n", psd.frequencies[static_cast<std::size_t>(peak)]);
    for (const Band& b : bands)
        if (b.low < ch.fs / 2)
            std::printf("  %-8s %6.4g-%-6.4g Hz %14.6g %s^2\n", b.name.c_str(), b.low, b.high,
                        spectrum::bandPower(psd, b.low, std::min(b.high, ch.fs / 2 + 1e-9)),
                        core::escapeControls(ch.unit).c_str());
}

int run(const SpectrumOptions& o)
{
    int exitCode = kOk;
    auto session = openSession(o.common, exitCode);
    if (!session) return exitCode;
    printWarnings(session->recording->info().warnings);
    if (!o.montage.empty()) {
        auto built = montage::loadMontage(o.montage, session->recording->info());
        if (!built) return fail(built.error());
        for (const std::string& n : built->notes) std::fprintf(stderr, "warning: montage: %s\n", n.c_str());
        auto derived = montage::MontageRecording::create(std::move(session->recording), built->montage);
        if (!derived) return fail(derived.error());
        session->recording = std::move(*derived);
    }
    auto selection = select(session->recording->info(), o.selection, exitCode);
    if (!selection) return exitCode;
    if (auto spec = filter::parseFilterSpec(o.filter); spec && spec->any()) {
        auto filtered = filter::FilteredRecording::create(std::move(session->recording), *spec, selection->channels);
        if (!filtered) return fail(filtered.error());
        session->recording = std::move(*filtered);
    }
    auto window = spectrum::windowFromName(o.window);
    if (!window) return fail(window.error());
    const std::vector<Band> bands = bandsOf(o.bands);
    core::ReadControl control = readControl(*session, "spectrum");
    nlohmann::ordered_json j = {{"channels", nlohmann::ordered_json::array()}};
    for (std::size_t c : selection->channels) {
        const core::ChannelInfo& ch = session->recording->info().channels[c];
        if (ch.irregular) {
            std::fprintf(stderr, "warning: %s: sampled at irregular times, no spectrum\n", ch.name.c_str());
            continue;
        }
        const auto segment = static_cast<std::size_t>(std::llround(o.segmentSeconds * ch.fs));
        auto psd = channelPsd(*session->recording, c, selection->range, {segment, o.overlap, *window}, control);
        if (!psd) return fail(psd.error());
        if (o.json)
            j["channels"].push_back(channelJson(ch, *psd, bands));
        else
            printText(ch, *psd, bands);
    }
    finishProgress();
    printWarnings(session->recording->takeWarnings());
    if (o.json) std::printf("%s\n", j.dump(2, ' ', true, nlohmann::ordered_json::error_handler_t::replace).c_str());
    return kOk;
}

} // namespace

std::function<int()> addSpectrumCommand(CLI::App& app)
{
    auto* command = app.add_subcommand(
        "spectrum", "Power spectral density (Welch) and band powers of channels over a range; gaps left out");
    auto o = std::make_shared<SpectrumOptions>();
    command->add_option("PATH", o->common.path, "Recording")->required();
    addCommonOptions(*command, o->common);
    addSelectionOptions(*command, o->selection);
    command->add_option("--segment", o->segmentSeconds, "Welch segment length in seconds (default 2)")
        ->check(CLI::PositiveNumber);
    command->add_option("--overlap", o->overlap, "Overlap of segments, 0 to below 1 (default 0.5)")
        ->check(CLI::Range(0.0, 0.999));
    command->add_option("--window", o->window, "hann (default), hamming, blackman or rectangular");
    command
        ->add_option("--band", o->bands,
                     "A band to report besides delta, theta, alpha, beta and gamma: NAME=LOW-HIGH (Hz); repeatable")
        ->check(
            [](const std::string& text) {
                const std::size_t eq = text.find('='), dash = eq == std::string::npos ? eq : text.find('-', eq + 2);
                try {
                    if (eq == 0 || dash == std::string::npos ||
                        std::stod(text.substr(eq + 1)) >= std::stod(text.substr(dash + 1)))
                        throw std::invalid_argument("");
                } catch (const std::exception&) {
                    return std::string("expected NAME=LOW-HIGH with LOW below HIGH, as spindle=11-16");
                }
                return std::string();
            },
            "BAND");
    addFilterOption(*command, o->filter, "The spectrum of filtered values");
    command->add_option("--montage", o->montage, "The spectra of a montage's derivations (as convert --montage)");
    command->add_flag("--json", o->json, "Print JSON (frequencies and densities per channel)");
    return [o]() { return run(*o); };
}

} // namespace lv::cli
