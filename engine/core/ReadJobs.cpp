// One status per job, the first failure in job order returned.
#include "core/ReadJobs.h"

#include <atomic>
#include <vector>

namespace lv::core {

Status runReadJobs(std::size_t count, const ReadControl& control, const std::function<Status(std::size_t)>& job)
{
    std::vector<Status> results(count);
    std::atomic<std::uint64_t> done{0};
    runEach(control.runner, count, [&](std::size_t j) {
        if (control.cancel && control.cancel->cancelled()) {
            results[j] = makeError(ErrorCode::Cancelled, "read cancelled");
            return;
        }
        results[j] = job(j);
        if (control.progress) control.progress(++done, count);
    });
    for (const Status& r : results)
        if (!r.ok()) return r;
    return {};
}

} // namespace lv::core
