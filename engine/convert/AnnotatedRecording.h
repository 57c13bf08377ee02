// A recording with the user's own annotations (the sidecar's, annotations/AnnotationSidecar.h) added to its own:
// the description carries both, in time order; reads passed on.
#pragma once

#include "convert/DescribedRecording.h"

#include <memory>
#include <vector>

namespace lv::convert {

class AnnotatedRecording final : public DescribedRecording {
public:
    // `extra` in the recording's times (uUTC); none: `inner` comes back as it is.
    static std::unique_ptr<core::Recording> wrap(std::unique_ptr<core::Recording> inner,
                                                 std::vector<core::Annotation> extra);

private:
    AnnotatedRecording() = default;
};

} // namespace lv::convert
