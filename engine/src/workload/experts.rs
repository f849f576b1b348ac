//! Grouped expert GEMMs from the kernel tables measured on each chip: which table a mixture
//! of experts is timed from (its own experts', or the nearest measured), and the time of one
//! layer's experts read from it. Serving's operator graph and training both use them.

use alloc::sync::Arc;

use crate::chip::Chip;
use crate::dtype::Dtype;
use crate::kerneldata::{self, KernelOp, KernelTable};

use super::Model;

/// The table format grouped expert GEMMs in `dtype` (weights in `weights`) run on `chip`.
pub(super) fn expert_formats(chip: &Chip, dtype: Dtype, weights: Dtype) -> &'static [&'static str] {
    let amd = chip.vendor == "AMD";
    match (dtype, weights) {
        (Dtype::Fp4, _) if amd => &["mxfp4", "mxfp4-w4a16"],
        (Dtype::Fp4, _) => &["nvfp4"],
        (Dtype::Fp8, _) => &["fp8-block"],
        (Dtype::Bf16 | Dtype::Fp16, Dtype::Fp4) => &["mxfp4-w4a16"],
        _ => &[],
    }
}

/// The grouped-expert table of `chip` in the first of `formats` that has one, measured on
/// experts nearest `model`'s: the same experts where one was measured on them, else the
/// nearest by expert size (hidden × intermediate), number of experts and experts a token,
/// each as a ratio either way (with `own` unset, as links of model version 7 and earlier
/// read: DeepSeek's, scaled, for every model).
pub(super) fn experts_table(
    model: &Model,
    chip: &Chip,
    formats: &[&str],
    own: bool,
) -> Option<Arc<KernelTable>> {
    if !own {
        return formats
            .iter()
            .find_map(|f| kerneldata::find(&chip.id, KernelOp::GroupedGemm, f));
    }
    let (h, i) = (model.d(), f64::from(model.expert_ffn));
    let (e, k) = (f64::from(model.experts), f64::from(model.active_experts));
    let far = |a: f64, b: f64| libm::fabs(libm::log(a / b));
    let distance = |t: &KernelTable| -> Option<f64> {
        let p = t.points.first()?;
        Some(
            far(h * i, p[1] * p[2])
                + far(e, t.fixed("experts")?)
                + far(k.max(1.0), t.fixed("topk")?),
        )
    };
    formats.iter().find_map(|f| {
        kerneldata::find_all(&chip.id, KernelOp::GroupedGemm, f)
            .into_iter()
            .filter_map(|t| distance(&t).map(|d| (d, t)))
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, t)| t)
    })
}

/// One MoE layer's grouped expert GEMMs (gate, up and down) on a rank holding `local`
/// experts of `h × i`, `per_expert` tokens each, from `tb` measured on another model's
/// experts: its time at the same tokens per expert (which sets the kernels' efficiency),
/// scaled by the expert weights the rank holds; `None` where the table lacks its shape.
pub(crate) fn grouped_seconds(
    tb: &KernelTable,
    local: f64,
    h: f64,
    i: f64,
    per_expert: f64,
) -> Option<f64> {
    let (e_ref, k_ref, local_ref) = (tb.fixed("experts")?, tb.fixed("topk")?, tb.fixed("local")?);
    let p = tb.points.first()?;
    let s = tb.seconds_1d(per_expert * e_ref / k_ref)?;
    Some(s * (local * h * i) / (local_ref * p[1] * p[2]))
}

/// The grouped-expert table a mixture of experts' training GEMMs in `dtype` are timed from on
/// `chip`: measured on the model's own experts where one was, else the nearest. FP8's tables
/// were measured with block scales, as Blackwell trains (MXFP8); on Hopper, which trains FP8
/// scaled per tensor, they stand for a kernel no table measures.
#[must_use]
pub(crate) fn training_experts_table(
    model: &Model,
    chip: &Chip,
    dtype: Dtype,
) -> Option<Arc<KernelTable>> {
    if model.experts == 0 {
        return None;
    }
    experts_table(model, chip, expert_formats(chip, dtype, dtype), true)
}
