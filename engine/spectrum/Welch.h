// Power spectral density by Welch's method over the runs of present samples (NaN is missing): segments never
// span a gap, so missing data is left out, not zero-filled; the same estimate as scipy.signal.welch (constant
// detrend, one-sided density) on each run, averaged over all segments of all runs. Frequencies in Hz, power in
// unit^2 / Hz.
#pragma once

#include "core/Error.h"

#include <complex>
#include <span>
#include <string>
#include <vector>

namespace lv::spectrum {

enum class Window { Hann, Hamming, Blackman, Rectangular };

struct WelchOptions {
    std::size_t segment = 256; // samples per segment (scipy's nperseg)
    double overlap = 0.5;      // of a segment, in [0, 1)
    Window window = Window::Hann;
};

struct Psd {
    std::vector<double> frequencies; // segment / 2 + 1 bins from 0 to fs / 2
    std::vector<double> power;       // unit^2 / Hz; empty when no segment fits
    std::size_t segments = 0;        // segments averaged
    double seconds = 0;              // samples used, in seconds
};

// The periodic window of n samples (scipy.signal.get_window's default).
std::vector<double> windowOf(Window window, std::size_t n);

// "hann", "hamming", "blackman", "rectangular" (also "boxcar").
core::Result<Window> windowFromName(const std::string& name);

// Welch's estimate fed in pieces: each add() continues the samples of the one before (a run of present samples
// goes on across pieces; a NaN ends it), so a whole channel is read a chunk at a time with the same result.
class WelchAccumulator {
public:
    // InvalidArgument when the segment is below 2 samples, the overlap outside [0, 1) or fs not above 0.
    static core::Result<WelchAccumulator> create(double fs, const WelchOptions& options);

    void add(std::span<const double> samples);
    Psd result() const;

private:
    WelchAccumulator() = default;
    void take(std::span<const double> segment);

    double m_fs = 0;
    std::size_t m_step = 0;
    std::vector<double> m_window;
    std::vector<double> m_sum; // per bin, |X|^2 summed over segments
    std::vector<double> m_run; // the current run's samples from the next segment's start on
    std::vector<double> m_scratch;
    std::vector<std::complex<double>> m_bins;
    std::size_t m_segments = 0;
    std::size_t m_present = 0; // finite samples seen
};

// The estimate of one span (a WelchAccumulator fed once).
core::Result<Psd> welch(std::span<const double> x, double fs, const WelchOptions& options);

// Power in [low, high) Hz: the density summed over the bins in it times the bin width.
double bandPower(const Psd& psd, double low, double high);

} // namespace lv::spectrum
