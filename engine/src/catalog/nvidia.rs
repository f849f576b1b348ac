//! NVIDIA's GPUs: H100, H200, B200, GB200, GB300, HGX B300 (Blackwell Ultra) and the
//! announced Vera Rubin GPU.
//!
//! NVIDIA's Blackwell Ultra datasheet prints FP8, FP16, TF32 and INT8 with sparsity (dense is
//! one half) and FP4 as `sparse | dense`; the Vera Rubin sheet marks its NVFP4 inference
//! figure sparse and its training figures dense.

use super::*;
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

/// NVIDIA H100 product page.
pub static NV_H100: Citation = Citation {
    key: "NV-H100",
    title: "NVIDIA H100 Tensor Core GPU product page (product year)",
    url: "https://www.nvidia.com/en-us/data-center/h100/",
    date: "2022",
};

/// NVIDIA H200 product page.
pub static NV_H200: Citation = Citation {
    key: "NV-H200",
    title: "NVIDIA H200 Tensor Core GPU product page (product year)",
    url: "https://www.nvidia.com/en-us/data-center/h200/",
    date: "2023",
};

/// NVIDIA DGX B200 datasheet.
pub static NV_DGXB200: Citation = Citation {
    key: "NV-DGXB200",
    title: "NVIDIA DGX B200 datasheet (product year)",
    url: "https://resources.nvidia.com/en-us-dgx-systems/dgx-b200-datasheet",
    date: "2024",
};

/// NVIDIA GB200 NVL72 product page.
pub static NV_GB200: Citation = Citation {
    key: "NV-GB200",
    title: "NVIDIA GB200 NVL72 product page (product year)",
    url: "https://www.nvidia.com/en-us/data-center/gb200-nvl72/",
    date: "2024",
};

/// NVIDIA GB300 NVL72 product page.
pub static NV_GB300: Citation = Citation {
    key: "NV-GB300",
    title: "NVIDIA GB300 NVL72 product page (product year)",
    url: "https://www.nvidia.com/en-us/data-center/gb300-nvl72/",
    date: "2025",
};

/// NVIDIA Mission Control power FAQ (per-GPU maximum power of GB200 / GB300).
pub static NV_MC: Citation = Citation {
    key: "NV-MC",
    title: "NVIDIA Mission Control 2.3.0: power FAQ (release year)",
    url: "https://docs.nvidia.com/mission-control/docs/systems-administration-guide/2.3.0/prs/faq.html",
    date: "2025",
};

/// Chips and Cheese measurements of the B200.
pub static CC_B200: Citation = Citation {
    key: "CC-B200",
    title: "Chips and Cheese: Nvidia's B200: Keeping the CUDA Juggernaut Rolling",
    url: "https://chipsandcheese.com/p/nvidias-b200-keeping-the-cuda-juggernaut",
    date: "2025-12",
};

/// stas00/ml-engineering, accelerator chapter (compiles vendor specs and tuning guides).
pub static MLE_ACC: Citation = Citation {
    key: "MLE-ACC",
    title: "ml-engineering: Accelerators (repo snapshot 744d01e)",
    url: "https://github.com/stas00/ml-engineering/blob/master/compute/accelerator/README.md",
    date: "2026-08-22",
};

/// H100 and H200 share every compute rate.
pub(super) fn hopper_peaks(c: &'static Citation) -> [Peak; Dtype::COUNT] {
    peaks(&[
        (
            Fp64,
            Some(tf(67.0, c).note("FP64 Tensor Core; 34 TFLOP/s without Tensor Cores")),
            None,
        ),
        (Fp32, Some(tf(67.0, c)), None),
        (
            Tf32,
            Some(
                tf(494.7, c).note("derived: BF16 dense 989.4 / 2; NVIDIA prints 989 with sparsity"),
            ),
            Some(tf(989.0, c)),
        ),
        (
            Bf16,
            Some(tf(989.4, c).note(
                "derived: 1,979 with sparsity / 2; 528 Tensor Cores x 1,024 FLOP/clk x 1.83 GHz = 989.4",
            )),
            Some(tf(1_979.0, c)),
        ),
        (
            Fp16,
            Some(tf(989.4, c).note("derived: as BF16; 1,979 with sparsity / 2")),
            Some(tf(1_979.0, c)),
        ),
        (
            Fp8,
            Some(tf(1_979.0, c).note("derived: 3,958 with sparsity / 2")),
            Some(tf(3_958.0, c)),
        ),
        (
            Int8,
            Some(tf(1_979.0, c).note("TOPS; derived: 3,958 with sparsity / 2")),
            Some(tf(3_958.0, c).note("TOPS")),
        ),
    ])
}

pub(super) fn h100_sxm() -> Chip {
    Chip {
        id: "h100-sxm".into(),
        name: "H100 SXM".into(),
        vendor: "NVIDIA",
        peaks: hopper_peaks(&NV_H100),
        sparsity: "2:4",
        hbm_capacity: Sourced::vendor(Bytes::gb(80.0), &NV_H100).note("HBM3, 5 stacks"),
        hbm_bandwidth: Sourced::vendor(BytesPerSec::tb_s(3.35), &NV_H100),
        sram: alloc::vec![
            level(
                "L2",
                Sourced::vendor(Bytes::mib(50.0), &MLE_ACC).note("from the Hopper tuning guide"),
            ),
            level(
                "L1/shared",
                Sourced::vendor(Bytes::kib(256.0 * 132.0), &MLE_ACC).note(
                    "derived: 256 KiB per SM x 132 SMs; up to 228 KB per SM usable as shared memory",
                ),
            ),
        ],
        cores: Sourced::vendor(132, &MLE_ACC).note("528 Tensor Cores"),
        core_kind: HOPPER_SM,
        clocks: alloc::vec![clock("SM boost (tensor peak)", 1.83, &MLE_ACC)],
        power: Some(
            Sourced::vendor(Watts::w(700.0), &NV_H100).note("up to 700 W, configurable"),
        ),
        custom: false,
        based_on: None,
    }
}

pub(super) fn h200() -> Chip {
    const SAME: &str = "assumed equal to H100: same compute (MLE-ACC); no H200-specific figure";
    Chip {
        id: "h200".into(),
        name: "H200 SXM".into(),
        vendor: "NVIDIA",
        peaks: hopper_peaks(&NV_H200),
        sparsity: "2:4",
        hbm_capacity: Sourced::vendor(Bytes::gb(141.0), &NV_H200)
            .note("HBM3e; AWS EC2 reports 141 GiB per GPU"),
        hbm_bandwidth: Sourced::vendor(BytesPerSec::tb_s(4.8), &NV_H200),
        sram: alloc::vec![
            level(
                "L2",
                Sourced::estimate(Bytes::mib(50.0), &MLE_ACC).note(SAME)
            ),
            level(
                "L1/shared",
                Sourced::estimate(Bytes::kib(256.0 * 132.0), &MLE_ACC).note(SAME),
            ),
        ],
        cores: Sourced::estimate(132, &MLE_ACC).note(SAME),
        core_kind: HOPPER_SM,
        clocks: alloc::vec![Clock {
            engine: "SM boost (tensor peak)",
            frequency: Sourced::estimate(Hertz::ghz(1.83), &MLE_ACC).note(SAME),
        }],
        power: Some(
            Sourced::vendor(Watts::w(700.0), &MLE_ACC)
                .note("up to 700 W (SXM); the MLPerf v4.1 system file also gives 700 W TGP"),
        ),
        custom: false,
        based_on: None,
    }
}

pub(super) fn b200() -> Chip {
    let m = &MLE_ACC;
    let d = &NV_DGXB200;
    let fp8_dense =
        || Some(pf(72.0 / 8.0 / 2.0, d).note("derived: DGX B200 72 PF (sparse) / 8 GPUs / 2"));
    let fp8_sparse = || Some(pf(72.0 / 8.0, d).note("derived: DGX B200 72 PF / 8 GPUs"));
    Chip {
        id: "b200".into(),
        name: "B200 (HGX)".into(),
        vendor: "NVIDIA",
        peaks: peaks(&[
            (
                Fp64,
                Some(tf(296.0 / 8.0, m).note("derived: HGX B200 296 TFLOP/s / 8 GPUs")),
                None,
            ),
            (Fp32, Some(tf(80.0, m)), None),
            (Tf32, Some(tf(1_125.0, m)), None),
            (Bf16, Some(tf(2_250.0, m)), None),
            (Fp16, Some(tf(2_250.0, m)), None),
            (Fp8, fp8_dense(), fp8_sparse()),
            (Fp6, fp8_dense(), fp8_sparse()),
            (
                Fp4,
                Some(pf(144.0 / 8.0 / 2.0, d).note(
                    "derived: DGX B200 144 PF (sparse) / 8 GPUs / 2; MLE-ACC lists NVFP4 at 10 PF dense",
                )),
                Some(pf(144.0 / 8.0, d).note("derived: DGX B200 144 PF / 8 GPUs")),
            ),
            (Int8, Some(tf(4_500.0, m).note("TOPS")), None),
        ]),
        sparsity: "2:4",
        hbm_capacity: Sourced::vendor(Bytes::gb(180.0), m)
            .note("usable; 192 GB physical (8 stacks HBM3e); AWS reports 179 GiB"),
        hbm_bandwidth: Sourced::vendor(BytesPerSec::tb_s(8.0), m),
        sram: alloc::vec![
            level(
                "L2",
                Sourced::vendor(Bytes::mb(126.0), m).note("from the Blackwell tuning guide"),
            ),
            level(
                "L1/shared",
                Sourced::estimate(Bytes::kib(256.0 * 148.0), &CC_B200)
                    .note("derived: 256 KiB per SM (measured, as on H100) x 148 SMs"),
            ),
        ],
        cores: Sourced::estimate(148, &CC_B200)
            .note("not in NVIDIA's datasheet; the count the device reports (2 dies x 74 SMs)"),
        core_kind: BLACKWELL_SM,
        clocks: Vec::new(),
        power: Some(
            Sourced::vendor(Watts::w(1_000.0), m)
                .note("maximum TGP (DGX B200 power-capping guide); DGX default set point 700 W"),
        ),
        custom: false,
        based_on: None,
    }
}

/// Per-GPU tensor peaks of an NVL72 rack from the rack's sparse totals in PFLOP/s.
/// GB200 and GB300 racks list the same FP8/FP6, BF16 and TF32 totals.
pub(super) fn nvl72_tensor(c: &'static Citation) -> [(Dtype, Rate, Rate); 5] {
    [
        (
            Tf32,
            Some(pf(180.0 / 72.0 / 2.0, c).note("derived: NVL72 180 PF (sparse) / 72 / 2")),
            Some(pf(180.0 / 72.0, c).note("derived: NVL72 180 PF / 72")),
        ),
        (
            Bf16,
            Some(pf(360.0 / 72.0 / 2.0, c).note("derived: NVL72 360 PF (sparse) / 72 / 2")),
            Some(pf(360.0 / 72.0, c).note("derived: NVL72 360 PF / 72")),
        ),
        (
            Fp16,
            Some(
                pf(360.0 / 72.0 / 2.0, c).note("derived: NVL72 FP16/BF16 360 PF (sparse) / 72 / 2"),
            ),
            Some(pf(360.0 / 72.0, c).note("derived: NVL72 FP16/BF16 360 PF / 72")),
        ),
        (
            Fp8,
            Some(pf(720.0 / 72.0 / 2.0, c).note("derived: NVL72 720 PF (sparse) / 72 / 2")),
            Some(pf(720.0 / 72.0, c).note("derived: NVL72 720 PF / 72")),
        ),
        (
            Fp6,
            Some(pf(720.0 / 72.0 / 2.0, c).note("derived: NVL72 FP8/FP6 720 PF (sparse) / 72 / 2")),
            Some(pf(720.0 / 72.0, c).note("derived: NVL72 FP8/FP6 720 PF / 72")),
        ),
    ]
}

pub(super) fn gb200() -> Chip {
    let c = &NV_GB200;
    let [tf32, bf16, fp16, fp8, fp6] = nvl72_tensor(c);
    Chip {
        id: "gb200".into(),
        name: "GB200 (one GPU)".into(),
        vendor: "NVIDIA",
        peaks: peaks(&[
            (
                Fp64,
                Some(tf(3_240.0 / 72.0, c).note("derived: NVL72 3,240 TFLOP/s / 72")),
                None,
            ),
            (Fp32, Some(tf(80.0, &MLE_ACC)), None),
            tf32,
            bf16,
            fp16,
            fp8,
            fp6,
            (
                Fp4,
                Some(pf(1_440.0 / 72.0 / 2.0, c).note("derived: NVL72 1,440 PF (sparse) / 72 / 2")),
                Some(pf(1_440.0 / 72.0, c).note("derived: NVL72 1,440 PF / 72")),
            ),
            (
                Int8,
                Some(
                    pf(720.0 / 72.0 / 2.0, c)
                        .note("POPS; derived: NVL72 720 POPS (sparse) / 72 / 2"),
                ),
                Some(pf(720.0 / 72.0, c).note("POPS; derived: NVL72 720 POPS / 72")),
            ),
        ]),
        sparsity: "2:4",
        hbm_capacity: Sourced::vendor(Bytes::gb(186.0), &MLE_ACC)
            .note("NVIDIA MIG table; superchip page: up to 384 GB for 2 GPUs; AWS reports 185 GiB"),
        hbm_bandwidth: Sourced::vendor(BytesPerSec::tb_s(16.0 / 2.0), c)
            .note("derived: 16 TB/s per superchip / 2 GPUs"),
        sram: alloc::vec![
            level("L2", Sourced::vendor(Bytes::mb(126.0), &MLE_ACC)),
            level(
                "L1/shared",
                Sourced::estimate(Bytes::kib(256.0 * 148.0), &CC_B200)
                    .note("assumed equal to B200: 256 KiB per SM x 148 SMs"),
            ),
        ],
        cores: Sourced::estimate(148, &CC_B200)
            .note("assumed equal to B200; NVIDIA publishes no SM count"),
        core_kind: BLACKWELL_SM,
        clocks: Vec::new(),
        power: Some(
            Sourced::vendor(Watts::w(1_200.0), &NV_MC)
                .note("maximum per GPU (via MLE-ACC); rack about 120 kW per secondary sources"),
        ),
        custom: false,
        based_on: None,
    }
}

pub(super) fn gb300() -> Chip {
    let c = &NV_GB300;
    let [tf32, bf16, fp16, fp8, fp6] = nvl72_tensor(c);
    Chip {
        id: "gb300".into(),
        name: "GB300 (one GPU)".into(),
        vendor: "NVIDIA",
        peaks: peaks(&[
            (
                Fp64,
                Some(tf(100.0 / 72.0, c).note(
                    "derived: NVL72 100 TFLOP/s / 72; HGX B300 is 10 TFLOP/s per 8 GPUs (MLE-ACC)",
                )),
                None,
            ),
            (
                Fp32,
                Some(tf(6_000.0 / 72.0, c).note("derived: NVL72 6 PF / 72")),
                None,
            ),
            tf32,
            bf16,
            fp16,
            fp8,
            fp6,
            (
                Fp4,
                Some(pf(1_080.0 / 72.0, c).note("derived: NVL72 1,080 PF dense / 72")),
                Some(pf(1_440.0 / 72.0, c).note("derived: NVL72 1,440 PF / 72")),
            ),
            (
                Int8,
                Some(tf(330.0 / 2.0, &NV_BWU_DS).note(
                    "TOPS; derived: the datasheet's 330 TOPS per GPU carries the sparsity footnote (dense is one half); NVL72 24 POPS = 72 × 330 sparse. Blackwell Ultra cut INT8 from B200's 4.5 POPS; MLE-ACC's 4,500-5,000 TOPS carries B200's ratio over",
                )),
                Some(tf(330.0, &NV_BWU_DS).note("TOPS, with sparsity")),
            ),
        ]),
        sparsity: "2:4",
        hbm_capacity: Sourced::vendor(Bytes::gb(288.0), &MLE_ACC).note(
            "12-high HBM3e; NVIDIA's MLPerf v5.1 material says 279 GB; AWS p6-b300 reports 268 GiB",
        ),
        hbm_bandwidth: Sourced::vendor(BytesPerSec::tb_s(8.0), &MLE_ACC)
            .note("NVL72: 576 TB/s per rack / 72"),
        sram: Vec::new(),
        cores: Sourced::vendor(160, &NV_BWU)
            .note("640 Tensor Cores; NVIDIA describes the full GPU implementation"),
        core_kind: BLACKWELL_SM,
        clocks: Vec::new(),
        power: Some(
            Sourced::vendor(Watts::w(1_400.0), &NV_MC)
                .note("maximum per GPU (via MLE-ACC); HGX/DGX B300 is 1,000 W maximum TGP"),
        ),
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
