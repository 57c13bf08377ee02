// A synthetic MEF 3.0 recording for demos, tests and benchmarks: EEG-like channels (synth::SyntheticEeg), a few
// recording pauses, NaN runs and annotations, all determined by the seed.
#pragma once

#include "core/Recording.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lv::convert {

inline constexpr core::Uutc kDefaultSynthStart = 1'735'689'600'000'000; // 2025-01-01T00:00:00Z

struct SynthOptions {
    std::size_t channels = 16;
    double hours = 1.0;
    double fs = 256.0; // Hz, possibly fractional
    std::uint64_t seed = 1;
    core::Uutc start = kDefaultSynthStart; // time of the first sample, uUTC
    double segmentMinutes = 0.0;           // > 0: a new segment every that many minutes
    bool gaps = true;                      // false: no pauses and no NaN runs
    double blockSeconds = 0.0;             // 0: the writer's default (formats::mef3::defaultBlockSamples)
};

// What the seed decides besides the signals. Sample ranges are half-open grid indices.
struct SynthPlan {
    struct Range {
        std::int64_t first = 0;
        std::int64_t count = 0;
    };
    struct NanRun {
        std::size_t channel = 0;
        Range range;
    };
    std::int64_t samples = 0;    // grid points per channel
    std::vector<Range> pauses;   // no channel records here: a gap in every channel
    std::vector<NanRun> nanRuns; // one channel reads NaN here: a gap in that channel
    std::vector<core::Annotation> annotations;
};

SynthPlan planSynth(const SynthOptions& options);

// Writes the session `outPath` (".mefd", must not exist) under a temporary name, renamed when complete.
// Channels are generated and encoded in parallel on control.runner; the bytes do not depend on it.
// Progress counts samples; cancellation leaves nothing behind.
core::Status writeSynthSession(const SynthOptions& options, const std::string& outPath,
                               const core::ReadControl& control);

} // namespace lv::convert
