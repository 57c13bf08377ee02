// Merging the user's annotations into a recording's description.
#include "convert/AnnotatedRecording.h"

#include <algorithm>

namespace lv::convert {

std::unique_ptr<core::Recording> AnnotatedRecording::wrap(std::unique_ptr<core::Recording> inner,
                                                          std::vector<core::Annotation> extra)
{
    if (extra.empty()) return inner;
    auto r = std::unique_ptr<AnnotatedRecording>(new AnnotatedRecording());
    r->m_info = inner->info();
    r->m_inner = std::move(inner);
    std::vector<core::Annotation>& all = r->m_info.annotations;
    all.insert(all.end(), std::make_move_iterator(extra.begin()), std::make_move_iterator(extra.end()));
    std::stable_sort(all.begin(), all.end(),
                     [](const core::Annotation& a, const core::Annotation& b) { return a.time < b.time; });
    return r;
}

} // namespace lv::convert
