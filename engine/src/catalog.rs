//! The preset chips, every figure with its source and estimate flag.
//!
//! Figures come from `shared/reference/specs.md` and the documents it cites. Dense and sparse
//! peaks are kept apart: NVIDIA's headline tensor numbers assume 2:4 sparsity, so the dense
//! figures here are those numbers halved (noted as `derived`). Where two vendor pages disagree,
//! the current figure is used and the other is recorded in the figure's note.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::chip::{Chip, Clock, MemoryLevel, Peak};
use crate::dtype::Dtype;
use crate::dtype::Dtype::{Bf16, Fp16, Fp32, Fp4, Fp6, Fp64, Fp8, Int8, Tf32};
use crate::source::{Citation, Sourced};
use crate::units::{Bytes, BytesPerSec, FlopPerSec, Hertz, Watts};

mod amd;
mod google;
mod nvidia;

pub use amd::{AMD_MI300X, AMD_MI325X, AMD_MI355X, AMD_MI455X, ROCM_MI300};
pub use google::GCP_V5P;
pub use nvidia::NV_VR;

/// A chip id that is not in the catalog.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CatalogError {
    /// No preset has this id.
    UnknownChip(String),
}

impl fmt::Display for CatalogError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownChip(id) => {
                write!(f, "unknown chip '{id}' (valid: {})", ids().join(", "))
            }
        }
    }
}

impl core::error::Error for CatalogError {}

// ---------------------------------------------------------------------------------------------
// Citations
// ---------------------------------------------------------------------------------------------

/// AWS Neuron, Trainium (Trn1) architecture page.
pub static N_T1: Citation = Citation {
    key: "N-T1",
    title: "AWS Neuron docs: Trainium architecture (undated; docs snapshot)",
    url: "https://awsdocs-neuron.readthedocs-hosted.com/en/latest/about-neuron/arch/neuron-hardware/trainium.html",
    date: "2026-08-21",
};

/// AWS Neuron, Trainium2 architecture page.
pub static N_T2: Citation = Citation {
    key: "N-T2",
    title: "AWS Neuron docs: Trainium2 architecture (undated; docs snapshot)",
    url: "https://awsdocs-neuron.readthedocs-hosted.com/en/latest/about-neuron/arch/neuron-hardware/trainium2.html",
    date: "2026-08-21",
};

/// AWS Neuron, Trainium3 architecture page.
pub static N_T3: Citation = Citation {
    key: "N-T3",
    title: "AWS Neuron docs: Trainium3 architecture (undated; docs snapshot)",
    url: "https://awsdocs-neuron.readthedocs-hosted.com/en/latest/about-neuron/arch/neuron-hardware/trainium3.html",
    date: "2026-08-21",
};

/// NKI architecture guide for Trainium / Inferentia2.
pub static NKI_T1: Citation = Citation {
    key: "NKI-T1",
    title: "AWS NKI: Trainium/Inferentia2 architecture guide (undated; docs snapshot)",
    url: "https://awsdocs-neuron.readthedocs-hosted.com/en/latest/nki/arch/trainium_inferentia2_arch.html",
    date: "2026-08-21",
};

/// NKI architecture guide for Trainium2.
pub static NKI_T2: Citation = Citation {
    key: "NKI-T2",
    title: "AWS NKI: Trainium2 architecture guide (undated; docs snapshot)",
    url: "https://awsdocs-neuron.readthedocs-hosted.com/en/latest/nki/arch/trainium2_arch.html",
    date: "2026-08-21",
};

/// NKI architecture guide for Trainium3.
pub static NKI_T3: Citation = Citation {
    key: "NKI-T3",
    title: "AWS NKI: Trainium3 architecture guide (undated; docs snapshot)",
    url: "https://awsdocs-neuron.readthedocs-hosted.com/en/latest/nki/about/trainium3_arch.html",
    date: "2026-08-21",
};

/// SemiAnalysis on Trainium2 (paywalled; read through summaries).
pub static SA_T2: Citation = Citation {
    key: "SA-T2",
    title: "SemiAnalysis: Amazon's AI Self Sufficiency, Trainium2 Architecture & Networking",
    url: "https://newsletter.semianalysis.com/p/amazons-ai-self-sufficiency-trainium2-architecture-networking",
    date: "2024-12-03",
};

/// ServerNews report on the Trainium3 launch.
pub static SN_T3: Citation = Citation {
    key: "SN-T3",
    title: "ServerNews: AWS Trainium3 launch report",
    url: "https://servernews.ru/1133303",
    date: "2025-12-03",
};

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

/// NVIDIA Blackwell Ultra datasheet (per-GPU table for GB300 and HGX B300).
pub static NV_BWU_DS: Citation = Citation {
    key: "NV-BWU-DS",
    title: "NVIDIA Blackwell Ultra datasheet (GB300 NVL72 and HGX B300 per-GPU figures; FP8/FP16/TF32/INT8 printed with sparsity)",
    url: "https://resources.nvidia.com/en-us-blackwell-architecture/blackwell-ultra-datasheet",
    date: "2025",
};
/// NVIDIA technical blog on the Blackwell Ultra GPU.
pub static NV_BWU: Citation = Citation {
    key: "NV-BWU",
    title: "NVIDIA Technical Blog: Inside NVIDIA Blackwell Ultra",
    url: "https://developer.nvidia.com/blog/inside-nvidia-blackwell-ultra-the-chip-powering-the-ai-factory-era",
    date: "2025-08",
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

/// Google Cloud TPU v6e documentation.
pub static GCP_V6E: Citation = Citation {
    key: "GCP-v6e",
    title: "Google Cloud: TPU v6e (product year)",
    url: "https://docs.cloud.google.com/tpu/docs/v6e",
    date: "2024",
};

/// Google Cloud TPU7x (Ironwood) documentation.
pub static GCP_7X: Citation = Citation {
    key: "GCP-7x",
    title: "Google Cloud: TPU7x (Ironwood) (product year)",
    url: "https://docs.cloud.google.com/tpu/docs/tpu7x",
    date: "2025",
};

/// Every document the catalog cites.
#[must_use]
pub fn citations() -> Vec<&'static Citation> {
    let mut v = alloc::vec![
        &N_T1,
        &N_T2,
        &N_T3,
        &NKI_T1,
        &NKI_T2,
        &NKI_T3,
        &SA_T2,
        &SN_T3,
        &NV_H100,
        &NV_H200,
        &NV_DGXB200,
        &NV_GB200,
        &NV_GB300,
        &NV_MC,
        &NV_BWU,
        &NV_BWU_DS,
        &CC_B200,
        &MLE_ACC,
        &GCP_V6E,
        &GCP_7X,
    ];
    v.extend(amd::citations());
    v.extend(nvidia::citations());
    v.extend(google::citations());
    v
}

// ---------------------------------------------------------------------------------------------
// Catalog
// ---------------------------------------------------------------------------------------------

/// Preset ids in catalog order.
#[must_use]
pub fn ids() -> Vec<&'static str> {
    alloc::vec![
        "trn1", "trn2", "trn3", "h100-sxm", "h200", "b200", "gb200", "gb300", "b300", "rubin",
        "mi300x", "mi325x", "mi355x", "mi455x", "tpu-v6e", "tpu-v7", "tpu-v5p"
    ]
}

/// Every preset, in catalog order.
#[must_use]
pub fn presets() -> Vec<Chip> {
    alloc::vec![
        trn1(),
        trn2(),
        trn3(),
        h100_sxm(),
        h200(),
        b200(),
        gb200(),
        gb300(),
        nvidia::b300(),
        nvidia::rubin(),
        amd::mi300x(),
        amd::mi325x(),
        amd::mi355x(),
        amd::mi455x(),
        tpu_v6e(),
        tpu_v7(),
        google::tpu_v5p(),
    ]
}

/// The preset with this id.
///
/// # Errors
/// [`CatalogError::UnknownChip`] listing the valid ids.
pub fn find(id: &str) -> Result<Chip, CatalogError> {
    presets()
        .into_iter()
        .find(|c| c.id == id)
        .ok_or_else(|| CatalogError::UnknownChip(id.into()))
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

type Rate = Option<Sourced<FlopPerSec>>;

/// A vendor figure in TFLOP/s (or TOPS for INT8).
fn tf(v: f64, c: &'static Citation) -> Sourced<FlopPerSec> {
    Sourced::vendor(FlopPerSec::tflops(v), c)
}

/// A vendor figure in PFLOP/s (or POPS for INT8).
fn pf(v: f64, c: &'static Citation) -> Sourced<FlopPerSec> {
    Sourced::vendor(FlopPerSec::pflops(v), c)
}

/// The peaks array from `(format, dense, sparse)` entries; formats not listed are unsupported.
fn peaks(entries: &[(Dtype, Rate, Rate)]) -> [Peak; Dtype::COUNT] {
    let mut p = [Peak::default(); Dtype::COUNT];
    for &(d, dense, sparse) in entries {
        p[d.index()] = Peak { dense, sparse };
    }
    p
}

fn level(name: &'static str, capacity: Sourced<Bytes>) -> MemoryLevel {
    MemoryLevel { name, capacity }
}

fn clock(engine: &'static str, ghz: f64, c: &'static Citation) -> Clock {
    Clock {
        engine,
        frequency: Sourced::vendor(Hertz::ghz(ghz), c),
    }
}

/// The four Trainium engine clocks from an NKI guide.
fn neuron_clocks(
    c: &'static Citation,
    tensor: f64,
    vector: f64,
    scalar: f64,
    gpsimd: f64,
) -> Vec<Clock> {
    alloc::vec![
        clock("Tensor engine", tensor, c),
        clock("Vector engine", vector, c),
        clock("Scalar engine", scalar, c),
        clock("GpSimd engine", gpsimd, c),
    ]
}

const TRN_SPARSITY: &str = "up to 4:16 (4:16, 4:12, 4:8, 2:8, 2:4, 1:4, 1:2)";
const HOPPER_SM: &str = "SM with 4 fourth-gen Tensor Cores";
const BLACKWELL_SM: &str = "SM with 4 fifth-gen Tensor Cores";

// ---------------------------------------------------------------------------------------------
// AWS Trainium
// ---------------------------------------------------------------------------------------------

fn trn1() -> Chip {
    let c = &N_T1;
    Chip {
        id: "trn1".into(),
        name: "Trainium (Trn1)".into(),
        vendor: "AWS",
        peaks: peaks(&[
            (Fp32, Some(tf(47.5, c)), None),
            (Tf32, Some(tf(190.0, c)), None),
            (
                Bf16,
                Some(tf(190.0, c).note(
                    "2 cores x 92 TFLOP/s per core (NKI guide) = 184; the Trainium2 page rounds to 191",
                )),
                None,
            ),
            (Fp16, Some(tf(190.0, c)), None),
            (Fp8, Some(tf(190.0, c).note("cFP8")), None),
            (
                Int8,
                Some(tf(380.0, c).note("TOPS; the v2.9.1 page said 420")),
                None,
            ),
        ]),
        sparsity: "none",
        hbm_capacity: Sourced::vendor(Bytes::gib(32.0), c)
            .note("2 stacks; AWS does not state the HBM type"),
        hbm_bandwidth: Sourced::vendor(BytesPerSec::gb_s(820.0), &NKI_T1)
            .note("the Trainium architecture page writes 820 GiB/sec"),
        sram: alloc::vec![
            level(
                "SBUF",
                Sourced::vendor(Bytes::mib(24.0 * 2.0), &NKI_T1)
                    .note("derived: 24 MiB per core (128 partitions x 192 KiB) x 2 cores"),
            ),
            level(
                "PSUM",
                Sourced::vendor(Bytes::mib(2.0 * 2.0), &NKI_T1)
                    .note("derived: 2 MiB per core x 2 cores"),
            ),
        ],
        cores: Sourced::vendor(2, c),
        core_kind: "NeuronCore-v2: 128x128 systolic Tensor engine, Vector, Scalar, GpSimd engines",
        clocks: neuron_clocks(&NKI_T1, 2.8, 1.12, 1.4, 1.4),
        power: None,
        custom: false,
        based_on: None,
    }
}

fn trn2() -> Chip {
    let c = &N_T2;
    let sparse = Some(tf(2_563.0, c).note("2,551 in the v2.21.0.beta page"));
    Chip {
        id: "trn2".into(),
        name: "Trainium2".into(),
        vendor: "AWS",
        peaks: peaks(&[
            (
                Fp32,
                Some(tf(181.0, c).note("8 cores x 20 TFLOP/s per core = 160")),
                None,
            ),
            (Tf32, Some(tf(667.0, c)), sparse),
            (
                Bf16,
                Some(tf(667.0, c).note(
                    "655 in the v2.21.0.beta page; 8 cores x 79 TFLOP/s per core = 632",
                )),
                sparse,
            ),
            (Fp16, Some(tf(667.0, c)), sparse),
            (
                Fp8,
                Some(tf(1_299.0, c).note("1,287 in the v2.21.0.beta page")),
                sparse,
            ),
        ]),
        sparsity: TRN_SPARSITY,
        hbm_capacity: Sourced::vendor(Bytes::gib(96.0), c).note(
            "4 stacks; AWS does not state the type (HBM3 per Tom's Hardware, HBM3e per SemiAnalysis)",
        ),
        hbm_bandwidth: Sourced::vendor(BytesPerSec::tb_s(2.9), c)
            .note("the v2.29.0 NKI Trainium2 guide says 3 TB/s"),
        sram: alloc::vec![
            level(
                "SBUF",
                Sourced::vendor(Bytes::mib(28.0 * 8.0), &NKI_T2)
                    .note("derived: 28 MiB per core (128 partitions x 224 KiB) x 8 cores"),
            ),
            level(
                "PSUM",
                Sourced::vendor(Bytes::mib(2.0 * 8.0), &NKI_T2)
                    .note("derived: 2 MiB per core x 8 cores"),
            ),
        ],
        cores: Sourced::vendor(8, c),
        core_kind: "NeuronCore-v3: 128x128 systolic Tensor engine, Vector, Scalar, GpSimd engines",
        clocks: neuron_clocks(&NKI_T2, 2.4, 0.96, 1.2, 1.2),
        power: Some(
            Sourced::estimate(Watts::w(500.0), &SA_T2)
                .note("analyst figure, read via a summary; AWS publishes no TDP"),
        ),
        custom: false,
        based_on: None,
    }
}

fn trn3() -> Chip {
    let c = &N_T3;
    let sparse = Some(tf(2_517.0, c));
    Chip {
        id: "trn3".into(),
        name: "Trainium3".into(),
        vendor: "AWS",
        peaks: peaks(&[
            (
                Fp32,
                Some(tf(183.0, c).note("8 cores x 20 TFLOP/s per core = 160")),
                None,
            ),
            (Tf32, Some(tf(671.0, c)), sparse),
            (
                Bf16,
                Some(tf(671.0, c).note("8 cores x 79 TFLOP/s per core = 632")),
                sparse,
            ),
            (Fp16, Some(tf(671.0, c)), sparse),
            (
                Fp8,
                Some(tf(2_517.0, c).note(
                    "MXFP8; AWS gives no MXFP8 sparse figure (press '~10 PF' is 4 x 2,517, unconfirmed)",
                )),
                None,
            ),
            (
                Fp4,
                Some(tf(2_517.0, c).note("MXFP4 is converted to MXFP8 before the tensor datapath")),
                None,
            ),
        ]),
        sparsity: TRN_SPARSITY,
        hbm_capacity: Sourced::vendor(Bytes::gib(144.0), c)
            .note("HBM3E, 4 stacks (Tom's Hardware)"),
        hbm_bandwidth: Sourced::vendor(BytesPerSec::tb_s(4.9), c)
            .note("the NKI Trainium3 guide says 4.7 TB/s"),
        sram: alloc::vec![
            level(
                "SBUF",
                Sourced::vendor(Bytes::mib(32.0 * 8.0), &NKI_T3)
                    .note("derived: 32 MiB per core x 8 cores"),
            ),
            level(
                "PSUM",
                Sourced::vendor(Bytes::mib(2.0 * 8.0), &NKI_T3)
                    .note("derived: 2 MiB per core x 8 cores"),
            ),
        ],
        cores: Sourced::vendor(8, c),
        core_kind: "NeuronCore-v4: 128x128 systolic Tensor engine, Vector, Scalar, GpSimd engines",
        clocks: neuron_clocks(&NKI_T3, 2.4, 1.2, 1.2, 1.2),
        power: Some(
            Sourced::estimate(Watts::w(1_000.0), &SN_T3)
                .note("press report; AWS publishes no TDP"),
        ),
        custom: false,
        based_on: None,
    }
}

// ---------------------------------------------------------------------------------------------
// NVIDIA Hopper
// ---------------------------------------------------------------------------------------------

/// H100 and H200 share every compute rate.
fn hopper_peaks(c: &'static Citation) -> [Peak; Dtype::COUNT] {
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

fn h100_sxm() -> Chip {
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

fn h200() -> Chip {
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

// ---------------------------------------------------------------------------------------------
// NVIDIA Blackwell
// ---------------------------------------------------------------------------------------------

fn b200() -> Chip {
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
fn nvl72_tensor(c: &'static Citation) -> [(Dtype, Rate, Rate); 5] {
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

fn gb200() -> Chip {
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

fn gb300() -> Chip {
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

// ---------------------------------------------------------------------------------------------
// Google TPU
// ---------------------------------------------------------------------------------------------

fn tpu_v6e() -> Chip {
    let c = &GCP_V6E;
    Chip {
        id: "tpu-v6e".into(),
        name: "TPU v6e (Trillium)".into(),
        vendor: "Google",
        peaks: peaks(&[
            (Bf16, Some(tf(918.0, c)), None),
            (
                Fp8,
                Some(tf(918.0, &GCP_7X).note("TPU7x page's comparison table: no FP8 speed-up")),
                None,
            ),
            (Int8, Some(tf(1_836.0, c).note("TOPS")), None),
        ]),
        sparsity: "none",
        hbm_capacity: Sourced::vendor(Bytes::gb(32.0), c),
        hbm_bandwidth: Sourced::vendor(BytesPerSec::gb_s(1_638.0), c),
        sram: Vec::new(),
        cores: Sourced::vendor(1, c),
        core_kind: "TensorCore: 2 MXUs of 256x256, vector unit, scalar unit",
        clocks: Vec::new(),
        power: None,
        custom: false,
        based_on: None,
    }
}

fn tpu_v7() -> Chip {
    let c = &GCP_7X;
    Chip {
        id: "tpu-v7".into(),
        name: "TPU7x (Ironwood)".into(),
        vendor: "Google",
        peaks: peaks(&[
            (Bf16, Some(tf(2_307.0, c)), None),
            (Fp8, Some(tf(4_614.0, c)), None),
        ]),
        sparsity: "none",
        hbm_capacity: Sourced::vendor(Bytes::gib(192.0), c),
        hbm_bandwidth: Sourced::vendor(BytesPerSec::tb_s(7.37), &MLE_ACC)
            .note("approximate, as listed by MLE-ACC"),
        sram: Vec::new(),
        cores: Sourced::vendor(2, c),
        core_kind: "TensorCore (MXUs, vector and scalar units); the chip also has 4 SparseCores",
        clocks: Vec::new(),
        power: None,
        custom: false,
        based_on: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Source;
    use alloc::string::ToString;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-9 * b.abs().max(1.0)
    }

    fn chip(id: &str) -> Chip {
        find(id).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Dense peak of `id` in `d` equals `expected_tflops`.
    fn check(id: &str, d: Dtype, expected_tflops: f64) {
        let got = chip(id)
            .dense(d)
            .unwrap_or_else(|| panic!("{id} has no dense {d}"));
        assert!(
            close(got.get(), expected_tflops * 1e12),
            "{id} {d} dense: got {got}, want {expected_tflops} TFLOP/s"
        );
    }

    /// Sparse peak of `id` in `d` equals `expected_tflops`.
    fn check_sparse(id: &str, d: Dtype, expected_tflops: f64) {
        let got = chip(id)
            .sparse(d)
            .unwrap_or_else(|| panic!("{id} has no sparse {d}"));
        assert!(
            close(got.get(), expected_tflops * 1e12),
            "{id} {d} sparse: got {got}, want {expected_tflops} TFLOP/s"
        );
    }

    /// Every source a chip cites, with what it is for.
    fn sources(c: &Chip) -> Vec<(String, Source)> {
        let mut v = Vec::new();
        for d in Dtype::ALL {
            let p = c.peak(d);
            if let Some(s) = p.dense {
                v.push((alloc::format!("{} dense", d.id()), s.source));
            }
            if let Some(s) = p.sparse {
                v.push((alloc::format!("{} sparse", d.id()), s.source));
            }
        }
        v.push(("hbm capacity".into(), c.hbm_capacity.source));
        v.push(("hbm bandwidth".into(), c.hbm_bandwidth.source));
        v.push(("cores".into(), c.cores.source));
        for m in &c.sram {
            v.push((m.name.into(), m.capacity.source));
        }
        for k in &c.clocks {
            v.push((k.engine.into(), k.frequency.source));
        }
        if let Some(p) = c.power {
            v.push(("power".into(), p.source));
        }
        v
    }

    #[test]
    fn ids_unique_and_match_presets() {
        let chips = presets();
        let got: Vec<&str> = chips.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(got, ids());
        let mut sorted = got.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), got.len(), "duplicate ids in {got:?}");
        for c in &chips {
            assert!(!c.custom && c.based_on.is_none(), "{} is a preset", c.id);
            assert!(!c.name.is_empty() && !c.core_kind.is_empty(), "{}", c.id);
        }
    }

    #[test]
    fn every_chip_has_bf16_and_hbm() {
        for c in presets() {
            let bf16 = c.dense(Dtype::Bf16);
            assert!(
                bf16.is_some_and(FlopPerSec::is_positive),
                "{} BF16 dense",
                c.id
            );
            assert!(c.hbm_capacity.value.is_positive(), "{} HBM capacity", c.id);
            assert!(
                c.hbm_bandwidth.value.is_positive(),
                "{} HBM bandwidth",
                c.id
            );
            assert!(
                c.cores.value > 0 || c.cores.note == "not published",
                "{} cores",
                c.id
            );
            if let Some(p) = c.power {
                assert!(p.value.is_positive(), "{} power", c.id);
            }
        }
    }

    #[test]
    fn sparse_at_least_dense_and_pattern_stated() {
        for c in presets() {
            let mut any_sparse = false;
            for d in Dtype::ALL {
                if let Some(s) = c.sparse(d) {
                    any_sparse = true;
                    assert!(s.is_positive(), "{} {d} sparse", c.id);
                    if let Some(dense) = c.dense(d) {
                        assert!(s >= dense, "{} {d}: sparse {s} < dense {dense}", c.id);
                    }
                }
            }
            assert_eq!(
                any_sparse,
                c.sparsity != "none",
                "{}: sparse figures vs sparsity '{}'",
                c.id,
                c.sparsity
            );
        }
    }

    #[test]
    fn citations_complete_and_used() {
        let all = citations();
        let mut keys: Vec<&str> = all.iter().map(|c| c.key).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), all.len(), "duplicate citation keys");
        for c in &all {
            assert!(
                c.url.starts_with("https://") && c.url.len() > 8,
                "{} url",
                c.key
            );
            assert!(!c.title.is_empty(), "{} title", c.key);
            assert!(
                c.date.len() >= 4 && c.date[..4].bytes().all(|b| b.is_ascii_digit()),
                "{} date",
                c.key
            );
        }
        let mut used: Vec<&str> = Vec::new();
        for chip in presets() {
            for (what, s) in sources(&chip) {
                match s {
                    Source::Cited { citation } => {
                        assert!(
                            all.iter().any(|c| core::ptr::eq(*c, citation)),
                            "{} {what} cites {} which citations() does not list",
                            chip.id,
                            citation.key
                        );
                        used.push(citation.key);
                    }
                    Source::UserEdit | Source::Assumption => {
                        panic!("{} {what} is not cited", chip.id)
                    }
                }
            }
        }
        for c in &all {
            assert!(used.contains(&c.key), "{} is listed but never cited", c.key);
        }
    }

    #[test]
    fn unknown_chip_lists_valid_ids() {
        let e = find("trn9").unwrap_err();
        assert_eq!(e, CatalogError::UnknownChip("trn9".into()));
        let msg = e.to_string();
        assert!(
            msg.contains("trn9") && msg.contains("h100-sxm") && msg.contains("tpu-v7"),
            "{msg}"
        );
    }

    #[test]
    fn estimates_are_flagged() {
        // Power of Trn2 and Trn3 is not published by AWS (specs.md marks both [est]).
        for id in ["trn2", "trn3"] {
            assert!(chip(id).power.is_some_and(|p| p.estimate), "{id} power");
        }
        // Nothing publishes Trn1 or TPU power.
        for id in ["trn1", "tpu-v6e", "tpu-v7"] {
            assert!(chip(id).power.is_none(), "{id} power");
        }
    }

    #[test]
    fn published_figures() {
        // N-T2 (AWS Neuron, Trainium2 architecture): 667 BF16 dense, 1,299 FP8 dense,
        // 2,563 sparse.
        check("trn2", Dtype::Bf16, 667.0);
        check("trn2", Dtype::Fp8, 1_299.0);
        check_sparse("trn2", Dtype::Fp8, 2_563.0);
        // NV-H100 / MLE-ACC: BF16 989.4 dense, 1,979 with 2:4 sparsity; HBM 3.35 TB/s.
        check("h100-sxm", Dtype::Bf16, 989.4);
        check_sparse("h100-sxm", Dtype::Bf16, 1_979.0);
        assert!(close(chip("h100-sxm").hbm_bandwidth.value.get(), 3.35e12));
        // GCP-v6e (Google Cloud TPU v6e): 918 TFLOP/s BF16, 1,638 GBps HBM.
        check("tpu-v6e", Dtype::Bf16, 918.0);
        assert!(close(chip("tpu-v6e").hbm_bandwidth.value.get(), 1_638e9));
        // N-T3 (AWS Neuron, Trainium3 architecture): 2,517 TFLOP/s MXFP8 dense.
        check("trn3", Dtype::Fp8, 2_517.0);
        // NV-GB300 (GB300 NVL72): 1,080 PF dense FP4 per 72 GPUs = 15 PF per GPU.
        check("gb300", Dtype::Fp4, 15_000.0);
    }
}
