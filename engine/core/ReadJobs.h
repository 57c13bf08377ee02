// The jobs of one read, run as readers run them: on the read's runner, cancellable, with progress.
#pragma once

#include "core/Recording.h"

#include <functional>

namespace lv::core {

// Runs job(i) for i in [0, count) as a read does: on control.runner when there is more than one job, else here; a
// job not yet started when control.cancel is set is Cancelled ("read cancelled"); control.progress is told
// (jobs done, count) after each. The first failure in job order, or success.
Status runReadJobs(std::size_t count, const ReadControl& control, const std::function<Status(std::size_t)>& job);

} // namespace lv::core
