//! NVIDIA presets beyond the first catalog: HGX B300 (Blackwell Ultra) and the announced
//! Vera Rubin GPU.
//!
//! NVIDIA's Blackwell Ultra datasheet prints FP8, FP16, TF32 and INT8 with sparsity (dense is
//! one half) and FP4 as `sparse | dense`; the Vera Rubin sheet marks its NVFP4 inference
//! figure sparse and its training figures dense.

use alloc::vec::Vec;

use super::{peaks, pf, tf, BLACKWELL_SM, NV_BWU, NV_BWU_DS};
use crate::chip::Chip;
use crate::dtype::Dtype::{Bf16, Fp16, Fp32, Fp4, Fp6, Fp64, Fp8, Int8, Tf32};
use crate::source::{Citation, Sourced};
use crate::units::{Bytes, BytesPerSec, FlopPerSec, Watts};

/// NVIDIA Vera Rubin NVL72 page and datasheet (preliminary).
pub static NV_VR: Citation = Citation {
    key: "NV-VR",
    title: "NVIDIA Vera Rubin NVL72 (page and datasheet, preliminary: NVFP4 inference sparse, training figures dense)",
    url: "https://www.nvidia.com/en-us/data-center/vera-rubin-nvl72/",
    date: "2026-08",
};

/// Every citation this module adds.
pub(super) fn citations() -> Vec<&'static Citation> {
    alloc::vec![&NV_VR]
}

pub(super) fn b300() -> Chip {
    let c = &NV_BWU_DS;
    let half = |v: f64, n: &'static str| Some(pf(v / 2.0, c).note(n));
    Chip {
        id: "b300".into(),
        name: "B300 (HGX)".into(),
        vendor: "NVIDIA",
        peaks: peaks(&[
            (Fp64, Some(tf(1.2, c)), None),
            (Fp32, Some(tf(75.0, c)), None),
            (Tf32, half(2.2, "derived: 2.2 PF with sparsity / 2"), Some(pf(2.2, c))),
            (Bf16, half(4.5, "derived: 4.5 PF with sparsity / 2"), Some(pf(4.5, c))),
            (Fp16, half(4.5, "derived: 4.5 PF with sparsity / 2"), Some(pf(4.5, c))),
            (Fp8, half(9.0, "derived: 9 PF with sparsity / 2"), Some(pf(9.0, c))),
            (Fp6, half(9.0, "derived: 9 PF with sparsity / 2"), Some(pf(9.0, c))),
            (
                Fp4,
                Some(pf(14.0, c).note("NVFP4 dense as printed (18 | 14); the HGX board total 108 PF / 8 gives 13.5")),
                Some(pf(18.0, c)),
            ),
            (
                Int8,
                Some(tf(307.0 / 2.0, c).note("TOPS; derived: 307 TOPS with sparsity / 2 (Blackwell Ultra cut INT8)")),
                Some(tf(307.0, c).note("TOPS")),
            ),
        ]),
        sparsity: "2:4",
        hbm_capacity: Sourced::vendor(Bytes::gb(288.0), &NV_BWU)
            .note("HBM3E as marketed; the datasheet's HGX column says 270 GB usable; AWS p6-b300 reports 268 GiB"),
        hbm_bandwidth: Sourced::vendor(BytesPerSec::tb_s(7.7), c)
            .note("the datasheet's HGX column; 8 TB/s for GB300 and in NVIDIA's blog"),
        sram: Vec::new(),
        cores: Sourced::vendor(160, &NV_BWU).note("640 Tensor Cores"),
        core_kind: BLACKWELL_SM,
        clocks: Vec::new(),
        power: Some(
            Sourced::vendor(Watts::w(1_100.0), c)
                .note("up to 1,100 W (datasheet HGX column); the DGX B300 power-capping guide says 1,000 W maximum TGP"),
        ),
        custom: false,
        based_on: None,
    }
}

pub(super) fn rubin() -> Chip {
    let c = &NV_VR;
    let a = |v: f64, n: &'static str| Sourced::estimate(FlopPerSec::pflops(v), c).note(n);
    Chip {
        id: "rubin".into(),
        name: "Rubin (Vera Rubin NVL72, announced)".into(),
        vendor: "NVIDIA",
        peaks: peaks(&[
            (Fp64, Some(a(0.033, "preliminary")), None),
            (Fp32, Some(a(0.130, "preliminary")), None),
            (
                Tf32,
                Some(a(2.0, "preliminary; dense as third parties read it")),
                None,
            ),
            (
                Bf16,
                Some(a(4.0, "preliminary; dense as third parties read it")),
                None,
            ),
            (Fp16, Some(a(4.0, "preliminary")), None),
            (
                Fp8,
                Some(a(17.5, "preliminary; the training row, marked dense")),
                None,
            ),
            (Fp6, Some(a(17.5, "preliminary")), None),
            (
                Fp4,
                Some(a(35.0, "preliminary; NVFP4 training, marked dense")),
                Some(a(50.0, "preliminary; NVFP4 inference, marked sparse")),
            ),
        ]),
        sparsity: "2:4",
        hbm_capacity: Sourced::estimate(Bytes::gb(288.0), c).note("preliminary; HBM4"),
        hbm_bandwidth: Sourced::estimate(BytesPerSec::tb_s(22.0), c).note(
            "preliminary; earlier copies of the page said 1,400 TB/s per rack (19.4 per GPU)",
        ),
        sram: Vec::new(),
        cores: Sourced::estimate(224, c).note("preliminary; 896 Tensor Cores, 2 dies per package"),
        core_kind: "SM with 4 sixth-gen Tensor Cores",
        clocks: Vec::new(),
        power: None,
        custom: false,
        based_on: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dtype::Dtype;

    #[test]
    fn blackwell_ultra_int8_is_stored_dense() {
        // Datasheet: 307 TOPS (HGX B300) and 330 TOPS (GB300), both with sparsity.
        let d = b300().dense(Dtype::Int8).unwrap().get();
        assert!((d - 153.5e12).abs() < 1e9);
        assert!(b300().sparse(Dtype::Int8).unwrap().get() > d);
    }
}
