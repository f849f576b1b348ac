//! How far a kernel's output is from its f64 reference.

use alloc::vec::Vec;

/// Bins of the error histogram: `log10(|error| / rms(reference))` from -10 to 1 in half
/// decades; values below fall in the first bin, above in the last.
pub const HIST_LO: f64 = -10.0;
/// Upper edge of the histogram, in decades.
pub const HIST_HI: f64 = 1.0;
/// Number of histogram bins.
pub const HIST_BINS: usize = 22;

/// Error statistics of one output tensor.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ErrorStats {
    /// Elements compared.
    pub count: usize,
    /// Largest |y - y_ref|.
    pub max_abs: f64,
    /// Mean |y - y_ref|.
    pub mean_abs: f64,
    /// Largest |y - y_ref| / |y_ref| over elements with |y_ref| at least 1% of rms(y_ref).
    pub max_rel: f64,
    /// Mean of the same relative error.
    pub mean_rel: f64,
    /// 10 log10(sum y_ref^2 / sum (y - y_ref)^2); infinite when exact.
    pub snr_db: f64,
    /// Root mean square of the reference, the scale errors are read against.
    pub rms_ref: f64,
    /// Outputs that were exactly right.
    pub exact: usize,
    /// Outputs that were NaN or infinite where the reference was finite.
    pub non_finite: usize,
    /// Counts per bin of `log10(|error| / rms_ref)`, exact outputs excluded.
    pub histogram: Vec<u32>,
}

impl ErrorStats {
    /// Compares `y` with `reference`, element by element.
    #[must_use]
    pub fn compare(y: &[f32], reference: &[f64]) -> Self {
        let n = y.len().min(reference.len());
        let sum_sq: f64 = reference[..n].iter().map(|r| r * r).sum();
        let rms_ref = if n == 0 {
            0.0
        } else {
            libm::sqrt(sum_sq / n as f64)
        };
        let floor = 0.01 * rms_ref;
        let mut s = ErrorStats {
            count: n,
            max_abs: 0.0,
            mean_abs: 0.0,
            max_rel: 0.0,
            mean_rel: 0.0,
            snr_db: f64::INFINITY,
            rms_ref,
            exact: 0,
            non_finite: 0,
            histogram: alloc::vec![0; HIST_BINS],
        };
        let (mut sum_abs, mut sum_rel, mut n_rel, mut err_sq) = (0.0, 0.0, 0usize, 0.0);
        for (&v, &r) in y[..n].iter().zip(&reference[..n]) {
            let v = f64::from(v);
            if !v.is_finite() {
                s.non_finite += 1;
                continue;
            }
            let e = (v - r).abs();
            if e == 0.0 {
                s.exact += 1;
                continue;
            }
            sum_abs += e;
            err_sq += e * e;
            s.max_abs = s.max_abs.max(e);
            if r.abs() >= floor && r != 0.0 {
                let rel = e / r.abs();
                sum_rel += rel;
                n_rel += 1;
                s.max_rel = s.max_rel.max(rel);
            }
            if rms_ref > 0.0 {
                let d = libm::log10(e / rms_ref);
                let bin = libm::floor((d - HIST_LO) / (HIST_HI - HIST_LO) * HIST_BINS as f64);
                s.histogram[bin.clamp(0.0, (HIST_BINS - 1) as f64) as usize] += 1;
            }
        }
        let finite = n - s.non_finite;
        if finite > 0 {
            s.mean_abs = sum_abs / finite as f64;
        }
        if n_rel > 0 {
            s.mean_rel = sum_rel / n_rel as f64;
        }
        if s.non_finite > 0 {
            s.snr_db = f64::NEG_INFINITY;
        } else if err_sq > 0.0 {
            s.snr_db = 10.0 * libm::log10(sum_sq / err_sq);
        }
        s
    }

    /// The lower edge of histogram bin `i`, in decades of `|error| / rms_ref`.
    #[must_use]
    pub fn bin_edge(i: usize) -> f64 {
        HIST_LO + (HIST_HI - HIST_LO) * i as f64 / HIST_BINS as f64
    }
}
