// The EDF writer's own plan, scan and scale choice, run for both widths without writing.
#include "convert/EdfResolution.h"

#include "convert/EdfPlan.h"
#include "convert/EdfScan.h"

#include <cmath>

namespace lv::convert {

core::Result<std::vector<EdfResolution>> edfResolution(core::Recording& recording, const EdfExportOptions& options,
                                                       const core::ReadControl& control)
{
    const core::RecordingInfo& info = recording.info();
    std::vector<std::string> warnings; // the writer's; the steps below say the same
    EdfExportOptions edf = options;
    edf.bdf = false;
    auto plan = makeEdfPlan(info, edf, warnings);
    if (!plan) return plan.error();
    std::optional<EdfScan> scan = predictEdfScan(recording, *plan, control);
    if (!scan) {
        scan.emplace();
        std::vector<core::DamagedBlock> damage;
        std::uint64_t done = 0;
        LV_TRY(
            scanEdfRecords(recording, *plan, *scan, damage, control, done, static_cast<std::uint64_t>(plan->records)));
    }
    EdfExportOptions bdf = edf;
    bdf.bdf = true;
    std::vector<EdfResolution> out;
    for (std::size_t c = 0; c < plan->channels.size(); ++c) {
        const EdfChannelScan& s = scan->channels[c];
        const core::ChannelInfo& src = info.channels[plan->channels[c].source];
        EdfChannel asEdf = plan->channels[c], asBdf = plan->channels[c];
        LV_TRY(chooseEdfScale(asEdf, src, s.minimum, s.maximum, !s.missing.empty(), edf, info.path, warnings));
        LV_TRY(chooseEdfScale(asBdf, src, s.minimum, s.maximum, !s.missing.empty(), bdf, info.path, warnings));
        const double step = std::abs(src.conversionFactor) > 0 ? std::abs(src.conversionFactor) : 1.0;
        out.push_back({src.name, src.unit, step, asEdf.scale, asBdf.scale});
    }
    return out;
}

} // namespace lv::convert
