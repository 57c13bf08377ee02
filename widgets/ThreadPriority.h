// Background threads (decoding, frames, rendering) run below the UI thread's priority, so that on a busy machine
// the UI thread is scheduled first and never waits behind them.
#pragma once

namespace lv::widgets {

// Lowers the calling thread's priority (Linux: nice +10 for this thread only, or the idle scheduling class when
// the process is already niced); once per thread, idempotent.
void lowerThisThreadPriority();

} // namespace lv::widgets
