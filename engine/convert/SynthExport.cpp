// The synthetic session: a seed-determined plan, then minute-long chunks generated and written channel-parallel.
#include "convert/SynthExport.h"

#include "convert/TempTarget.h"
#include "formats/mef3/SessionWriter.h"
#include "synth/SyntheticEeg.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace lv::convert {

using core::ErrorCode;
using core::makeError;

namespace {

constexpr double kChunkSeconds = 60.0;

// splitmix64: the plan's random numbers.
struct PlanRandom {
    std::uint64_t state;
    std::uint64_t next()
    {
        std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; } // [0, 1)
};

const char* const kEvents[] = {"Eyes closed",   "Eyes open",      "Hyperventilation start", "Patient asleep",
                               "Spike cluster", "Patient moving", "Photic stimulation",     "Patient awake"};

void planPauses(const SynthOptions& o, PlanRandom& rng, SynthPlan& plan)
{
    const int count = std::clamp(static_cast<int>(o.hours / 2) + 1, 1, 8);
    for (int i = 0; i < count; ++i) {
        const auto first = static_cast<std::int64_t>((0.05 + 0.9 * rng.unit()) * static_cast<double>(plan.samples));
        const auto length = static_cast<std::int64_t>((2.0 + 118.0 * rng.unit()) * o.fs);
        const bool overlaps = std::any_of(plan.pauses.begin(), plan.pauses.end(), [&](const SynthPlan::Range& p) {
            return first < p.first + p.count + 1 && p.first < first + length + 1;
        });
        if (!overlaps && first + length < plan.samples) plan.pauses.push_back({first, length});
    }
    std::sort(plan.pauses.begin(), plan.pauses.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
}

void planNanRuns(const SynthOptions& o, PlanRandom& rng, SynthPlan& plan)
{
    const int count = std::clamp(static_cast<int>(o.hours) + 2, 2, 24);
    for (int i = 0; i < count && o.channels > 0; ++i) {
        const std::size_t channel = rng.next() % o.channels;
        const auto length = static_cast<std::int64_t>(std::exp(rng.unit() * std::log(10.0 * o.fs))); // 1 .. 10 s
        const auto first = static_cast<std::int64_t>(rng.unit() * static_cast<double>(plan.samples - length));
        if (first >= 0 && length > 0) plan.nanRuns.push_back({channel, {first, length}});
    }
}

void planAnnotations(const SynthOptions& o, PlanRandom& rng, SynthPlan& plan)
{
    const core::SampleGrid grid{o.start, o.fs};
    plan.annotations.push_back(
        {o.start, 0, "Note", "Recording start (synthetic, seed " + std::to_string(o.seed) + ")", std::nullopt});
    for (const auto& p : plan.pauses)
        plan.annotations.push_back({grid.timeOf(p.first), grid.timeOf(p.first + p.count) - grid.timeOf(p.first), "Note",
                                    "Recording paused", std::nullopt});
    const int events = std::max(1, static_cast<int>(o.hours * 2));
    for (int i = 0; i < events; ++i) {
        const auto at = static_cast<std::int64_t>(rng.unit() * static_cast<double>(plan.samples));
        plan.annotations.push_back(
            {grid.timeOf(at), 0, "Note", kEvents[rng.next() % std::size(kEvents)], std::nullopt});
    }
    if (o.channels > 0) {
        const auto at = static_cast<std::int64_t>(rng.unit() * static_cast<double>(plan.samples));
        plan.annotations.push_back({grid.timeOf(at), 0, "Note", "Electrode impedance checked", std::string("ch001")});
    }
    std::stable_sort(plan.annotations.begin(), plan.annotations.end(),
                     [](const auto& a, const auto& b) { return a.time < b.time; });
}

std::string channelName(std::size_t c)
{
    std::string digits = std::to_string(c + 1);
    return "ch" + std::string(digits.size() < 3 ? 3 - digits.size() : 0, '0') + digits;
}

// Sets the samples of `buffer` (grid indices [at, at + size)) that fall in `range` to kNoSample.
void mask(std::span<std::int32_t> buffer, std::int64_t at, const SynthPlan::Range& range)
{
    const std::int64_t from = std::max(at, range.first);
    const std::int64_t to = std::min(at + static_cast<std::int64_t>(buffer.size()), range.first + range.count);
    for (std::int64_t i = from; i < to; ++i) buffer[static_cast<std::size_t>(i - at)] = core::kNoSample;
}

core::Status checkOptions(const SynthOptions& o)
{
    if (o.channels == 0 || o.channels > 4096)
        return makeError(ErrorCode::InvalidArgument, "the number of channels must be between 1 and 4096");
    if (!(o.fs > 0.0) || !std::isfinite(o.fs) || o.fs > 1e6)
        return makeError(ErrorCode::InvalidArgument, "the sampling rate must be positive (at most 1 MHz)");
    if (!(o.hours > 0.0) || !std::isfinite(o.hours) || o.hours * 3600.0 * o.fs < 1.0)
        return makeError(ErrorCode::InvalidArgument, "the duration must hold at least one sample");
    if (o.segmentMinutes < 0.0 || (o.segmentMinutes > 0.0 && o.segmentMinutes * 60.0 * o.fs < 1.0))
        return makeError(ErrorCode::InvalidArgument, "a segment must hold at least one sample");
    return {};
}

} // namespace

SynthPlan planSynth(const SynthOptions& o)
{
    SynthPlan plan;
    plan.samples = std::llround(o.hours * 3600.0 * o.fs);
    PlanRandom rng{o.seed ^ 0x5EED5EED5EED5EEDull};
    if (o.gaps) {
        planPauses(o, rng, plan);
        planNanRuns(o, rng, plan);
    }
    planAnnotations(o, rng, plan);
    return plan;
}

namespace {

// The chunk loop: every channel generated, masked and appended in parallel, segments started at boundaries.
core::Status writeChunks(const SynthOptions& o, const SynthPlan& plan, formats::mef3::SessionWriter& writer,
                         const core::ReadControl& control)
{
    const core::SampleGrid grid{o.start, o.fs};
    std::vector<synth::SyntheticEeg> generators;
    for (std::size_t c = 0; c < o.channels; ++c) generators.emplace_back(o.seed, c, o.fs);
    const auto chunk = std::max<std::int64_t>(1, std::llround(kChunkSeconds * o.fs));
    const std::int64_t segment =
        o.segmentMinutes > 0 ? std::max<std::int64_t>(1, std::llround(o.segmentMinutes * 60 * o.fs)) : plan.samples;
    std::vector<std::vector<std::int32_t>> buffers(o.channels);
    std::vector<core::Status> status(o.channels);
    core::InlineRunner inlineRunner;
    core::TaskRunner& runner = control.runner ? *control.runner : inlineRunner;
    for (std::int64_t at = 0; at < plan.samples;) {
        if (at > 0 && at % segment == 0)
            for (std::size_t c = 0; c < o.channels; ++c) LV_TRY(writer.startSegment(c));
        const std::int64_t end = std::min({plan.samples, at + chunk, (at / segment + 1) * segment});
        runner.parallelFor(o.channels, [&](std::size_t c) {
            std::vector<std::int32_t>& b = buffers[c];
            b.resize(static_cast<std::size_t>(end - at));
            generators[c].generate(b);
            for (const auto& p : plan.pauses) mask(b, at, p);
            for (const auto& n : plan.nanRuns)
                if (n.channel == c) mask(b, at, n.range);
            status[c] = writer.append(c, grid, at, b);
        });
        for (const core::Status& s : status) LV_TRY(s);
        at = end;
        if (control.progress)
            control.progress(static_cast<std::uint64_t>(at) * o.channels,
                             static_cast<std::uint64_t>(plan.samples) * o.channels);
        if (control.cancel && control.cancel->cancelled())
            return makeError(ErrorCode::Cancelled, "synthesis cancelled");
    }
    return {};
}

} // namespace

core::Status writeSynthSession(const SynthOptions& o, const std::string& outPath, const core::ReadControl& control)
{
    LV_TRY(checkOptions(o));
    std::error_code ec;
    if (std::filesystem::exists(outPath, ec))
        return makeError(ErrorCode::InvalidArgument, "the output already exists; choose a new name", outPath);
    TempTarget temp;
    auto reserved = temp.reserve(outPath);
    if (!reserved) return reserved.error();
    const std::string work = *reserved;
    // Channels run in parallel here, so each encodes its blocks on its own thread.
    formats::mef3::WriterOptions options{o.blockSeconds, "", "", nullptr, formats::mef3::Durability::Fast, {}, {}};
    auto writer = formats::mef3::SessionWriter::create(work, options);
    if (!writer) return writer.error();
    for (std::size_t c = 0; c < o.channels; ++c) {
        const std::string description = "synthetic EEG, seed " + std::to_string(o.seed);
        auto added = (*writer)->addChannel({channelName(c), o.fs, "uV", synth::kMicrovoltsPerCount, description});
        if (!added) return added.error();
    }
    const SynthPlan plan = planSynth(o);
    LV_TRY(writeChunks(o, plan, **writer, control));
    for (const core::Annotation& a : plan.annotations) (*writer)->addAnnotation(a);
    LV_TRY((*writer)->finish());
    writer->reset();
    return temp.commit(outPath);
}

} // namespace lv::convert
