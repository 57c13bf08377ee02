// The de-identified description: identity and free text out, times moved; reads and blocks passed on.
#include "convert/DeidentifiedRecording.h"

namespace lv::convert {

namespace {

void shift(core::Uutc& t, std::int64_t us) { t = core::saturatingAdd(t, us); }

void shift(core::TimeRange& r, std::int64_t us)
{
    shift(r.start, us);
    shift(r.end, us);
}

} // namespace

std::unique_ptr<core::Recording> DeidentifiedRecording::wrap(std::unique_ptr<core::Recording> inner,
                                                             const Deidentification& d)
{
    if (!d.active() && d.warnings.empty()) return inner;
    std::unique_ptr<DeidentifiedRecording> r(new DeidentifiedRecording());
    r->m_info = inner->info();
    r->m_anonymize = d.anonymize;
    r->m_warnings = d.warnings;
    core::RecordingInfo& info = r->m_info;
    if (d.anonymize) {
        info.subject = {};
        info.site = {};
        info.description.clear();
        info.path.clear(); // a writer told no provenance records the recording's path: there is none to record
        for (core::ChannelInfo& c : info.channels) c.description.clear();
    }
    if (!d.subjectId.empty()) info.subject.id = d.subjectId;
    if (const std::int64_t us = d.shiftUs(); us != 0) {
        r->m_shiftUs = us;
        shift(info.start, us);
        shift(info.end, us);
        for (core::ChannelInfo& c : info.channels) {
            shift(c.start, us);
            shift(c.end, us);
            for (core::TimeRange& s : c.segments) shift(s, us);
            for (core::TimeRange& g : c.gaps) shift(g, us);
        }
        for (core::Annotation& a : info.annotations) shift(a.time, us);
    }
    if (d.dropAnnotationText)
        for (core::Annotation& a : info.annotations) a.text.clear();
    r->m_inner = std::move(inner);
    return r;
}

std::vector<std::string> DeidentifiedRecording::takeWarnings()
{
    std::vector<std::string> out = std::move(m_warnings);
    m_warnings.clear();
    for (std::string& w : m_inner->takeWarnings()) out.push_back(std::move(w));
    return out;
}

std::vector<core::DamagedBlock> DeidentifiedRecording::takeDamage()
{
    std::vector<core::DamagedBlock> damage = m_inner->takeDamage();
    if (m_anonymize)
        for (core::DamagedBlock& d : damage) d.path = kAnonymousSource;
    return damage;
}

} // namespace lv::convert
