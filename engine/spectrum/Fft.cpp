// One FFTW plan per length, made with FFTW_ESTIMATE on scratch arrays and kept; each call executes it with
// fftw_execute_dft_r2c on buffers from fftw_malloc, so alignment always matches the plan's.
#include "spectrum/Fft.h"

#include <algorithm>
#include <fftw3.h>
#include <map>
#include <memory>
#include <mutex>

namespace lv::spectrum {

namespace {

struct FreeFftw {
    void operator()(void* p) const { fftw_free(p); }
};

// The plans made so far, destroyed at exit (LeakSanitizer sees no plan left behind).
class Plans {
public:
    ~Plans()
    {
        for (auto& [n, plan] : m_plans) fftw_destroy_plan(plan);
        fftw_cleanup(); // the planner's own tables
    }
    fftw_plan get(std::size_t n)
    {
        std::lock_guard lock(m_mutex);
        auto it = m_plans.find(n);
        if (it != m_plans.end()) return it->second;
        std::unique_ptr<double, FreeFftw> in(fftw_alloc_real(n));
        std::unique_ptr<fftw_complex, FreeFftw> out(fftw_alloc_complex(n / 2 + 1));
        const fftw_plan plan = fftw_plan_dft_r2c_1d(static_cast<int>(n), in.get(), out.get(), FFTW_ESTIMATE);
        return m_plans.emplace(n, plan).first->second;
    }

private:
    std::mutex m_mutex;
    std::map<std::size_t, fftw_plan> m_plans;
};

fftw_plan planFor(std::size_t n)
{
    static Plans plans;
    return plans.get(n);
}

} // namespace

std::string fftLibraryVersion() { return fftw_version; }

void realFft(std::span<const double> in, std::span<std::complex<double>> out)
{
    const std::size_t n = in.size();
    const fftw_plan plan = planFor(n);
    std::unique_ptr<double, FreeFftw> a(fftw_alloc_real(n));
    std::unique_ptr<fftw_complex, FreeFftw> b(fftw_alloc_complex(n / 2 + 1));
    std::copy(in.begin(), in.end(), a.get());
    fftw_execute_dft_r2c(plan, a.get(), b.get());
    for (std::size_t k = 0; k < n / 2 + 1 && k < out.size(); ++k) out[k] = {b.get()[k][0], b.get()[k][1]};
}

} // namespace lv::spectrum
