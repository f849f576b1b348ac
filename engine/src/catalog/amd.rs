//! AMD Instinct presets: MI300X, MI325X, MI355X, and the announced MI455X.
//!
//! AMD prints dense figures and "with structured sparsity" figures in separate rows; MXFP6 and
//! MXFP4 on CDNA4 carry no sparsity row and are dense. Infinity Fabric link rates are
//! unlabelled; ml-engineering reads them as bidirectional, as the systems do.

use alloc::vec::Vec;

use super::{peaks, tf};
use crate::chip::Chip;
use crate::dtype::Dtype::{Bf16, Fp16, Fp32, Fp4, Fp6, Fp64, Fp8, Int8, Tf32};
use crate::source::{Citation, Sourced};
use crate::units::{Bytes, BytesPerSec, Watts};

/// ROCm documentation: MI300 series architecture (peak-performance table).
pub static ROCM_MI300: Citation = Citation {
    key: "ROCM-MI300",
    title: "AMD ROCm docs: AMD Instinct MI300 series microarchitecture, peak-performance capabilities of the MI300X (docs/conceptual/gpu-arch/mi300.md)",
    url: "https://rocm.docs.amd.com/en/latest/conceptual/gpu-arch/mi300.html",
    date: "2025-03-21",
};
/// AMD's MI300X product page.
pub static AMD_MI300X: Citation = Citation {
    key: "AMD-MI300X",
    title: "AMD Instinct MI300X accelerator (product page: 192 GB HBM3, 5.3 TB/s, 750 W, 8 Infinity Fabric links at 128 GB/s)",
    url: "https://www.amd.com/en/products/accelerators/instinct/mi300/mi300x.html",
    date: "2023-12-06",
};
/// AMD's MI325X product page.
pub static AMD_MI325X: Citation = Citation {
    key: "AMD-MI325X",
    title: "AMD Instinct MI325X accelerator (product page: 256 GB HBM3E, 6 TB/s, 1,000 W; compute as MI300X)",
    url: "https://www.amd.com/en/products/accelerators/instinct/mi300/mi325x.html",
    date: "2024-10-10",
};
/// AMD's MI355X product page.
pub static AMD_MI355X: Citation = Citation {
    key: "AMD-MI355X",
    title: "AMD Instinct MI355X GPU (product page: dense and sparse rows, MXFP6/MXFP4 dense, 288 GB HBM3E, 8 TB/s, 1,400 W)",
    url: "https://www.amd.com/en/products/accelerators/instinct/mi350/mi355x.html",
    date: "2025-06-12",
};
/// AMD's MI455X page (announced).
pub static AMD_MI455X: Citation = Citation {
    key: "AMD-MI455X",
    title:
        "AMD Instinct MI455X and Helios rack, as announced (CES 2026; product page read mid-2026)",
    url: "https://www.amd.com/en/products/accelerators/instinct/mi400/mi455x.html",
    date: "2026-01-05",
};

/// Every citation this module adds.
pub(super) fn citations() -> Vec<&'static Citation> {
    alloc::vec![
        &ROCM_MI300,
        &AMD_MI300X,
        &AMD_MI325X,
        &AMD_MI355X,
        &AMD_MI455X
    ]
}

const CDNA_CU: &str = "compute unit (CU) with 4 Matrix Cores";

/// MI300X and MI325X share their compute (same silicon and clock).
fn cdna3_peaks() -> [crate::chip::Peak; crate::dtype::Dtype::COUNT] {
    let c = &ROCM_MI300;
    peaks(&[
        (Fp64, Some(tf(163.4, c).note("matrix; vector 81.7")), None),
        (Fp32, Some(tf(163.4, c)), None),
        (Tf32, Some(tf(653.7, c)), Some(tf(1_307.4, c))),
        (Bf16, Some(tf(1_307.4, c)), Some(tf(2_614.9, c))),
        (Fp16, Some(tf(1_307.4, c)), Some(tf(2_614.9, c))),
        (
            Fp8,
            Some(tf(2_614.9, c).note("E4M3/E5M2 FNUZ")),
            Some(tf(5_229.8, c)),
        ),
        (
            Int8,
            Some(tf(2_614.9, c).note("TOPS")),
            Some(tf(5_229.8, c).note("TOPS")),
        ),
    ])
}

pub(super) fn mi300x() -> Chip {
    Chip {
        id: "mi300x".into(),
        name: "AMD Instinct MI300X".into(),
        vendor: "AMD",
        peaks: cdna3_peaks(),
        sparsity: "2:4",
        hbm_capacity: Sourced::vendor(Bytes::gb(192.0), &AMD_MI300X).note("HBM3, 8 stacks"),
        hbm_bandwidth: Sourced::vendor(BytesPerSec::tb_s(5.3), &ROCM_MI300)
            .note("AMD's footnote: 8,192 bits × 5.2 Gbps = 5.325 TB/s"),
        sram: alloc::vec![super::level(
            "Infinity Cache",
            Sourced::vendor(Bytes::mib(256.0), &ROCM_MI300)
        )],
        cores: Sourced::vendor(304, &ROCM_MI300).note("38 active CUs of 40 on each of 8 XCDs"),
        core_kind: CDNA_CU,
        clocks: Vec::new(),
        power: Some(
            Sourced::vendor(Watts::w(750.0), &AMD_MI300X).note("typical board power, peak"),
        ),
        custom: false,
        based_on: None,
    }
}

pub(super) fn mi325x() -> Chip {
    Chip {
        id: "mi325x".into(),
        name: "AMD Instinct MI325X".into(),
        hbm_capacity: Sourced::vendor(Bytes::gb(256.0), &AMD_MI325X)
            .note("HBM3E; the ROCm spec table lists 256 GiB"),
        hbm_bandwidth: Sourced::vendor(BytesPerSec::tb_s(6.0), &AMD_MI325X)
            .note("read through ml-engineering's table"),
        power: Some(Sourced::vendor(Watts::w(1_000.0), &AMD_MI325X).note("peak board power")),
        ..mi300x()
    }
}

pub(super) fn mi355x() -> Chip {
    let c = &AMD_MI355X;
    Chip {
        id: "mi355x".into(),
        name: "AMD Instinct MI355X".into(),
        vendor: "AMD",
        peaks: peaks(&[
            (Fp32, Some(tf(157.3, c)), None),
            (
                Bf16,
                Some(
                    tf(2_500.0, c)
                        .note("2,400 MHz × 1,024 Matrix Cores × 1,024 FLOP/clk = 2,516.6"),
                ),
                Some(tf(5_000.0, c)),
            ),
            (Fp16, Some(tf(2_500.0, c)), Some(tf(5_000.0, c))),
            (Fp8, Some(tf(5_000.0, c)), Some(tf(10_100.0, c))),
            (
                Fp6,
                Some(
                    tf(10_100.0, c)
                        .note("MXFP6 at the MXFP4 rate on CDNA4; no sparsity row, so dense"),
                ),
                None,
            ),
            (
                Fp4,
                Some(tf(10_100.0, c).note(
                    "MXFP4; no sparsity row, so dense (some press calls 20 PF the sparse figure)",
                )),
                None,
            ),
            (
                Int8,
                Some(tf(5_000.0, c).note("TOPS")),
                Some(tf(10_100.0, c).note("TOPS")),
            ),
        ]),
        sparsity: "2:4",
        hbm_capacity: Sourced::vendor(Bytes::gb(288.0), c).note("HBM3E"),
        hbm_bandwidth: Sourced::vendor(BytesPerSec::tb_s(8.0), c),
        sram: Vec::new(),
        cores: Sourced::vendor(256, c).note("32 CUs on each of 8 XCDs; 1,024 Matrix Cores"),
        core_kind: CDNA_CU,
        clocks: Vec::new(),
        power: Some(Sourced::vendor(Watts::w(1_400.0), c).note("typical board power")),
        custom: false,
        based_on: None,
    }
}

pub(super) fn mi455x() -> Chip {
    let c = &AMD_MI455X;
    let a =
        |v: f64, n: &'static str| Sourced::estimate(crate::units::FlopPerSec::tflops(v), c).note(n);
    Chip {
        id: "mi455x".into(),
        name: "AMD Instinct MI455X (announced)".into(),
        vendor: "AMD",
        peaks: peaks(&[
            (Fp32, Some(a(315.0, "announced")), None),
            (Bf16, Some(a(5_000.0, "announced; 10 PF with sparsity")), Some(a(10_100.0, "announced"))),
            (Fp16, Some(a(5_000.0, "announced")), Some(a(10_100.0, "announced"))),
            (
                Fp8,
                Some(a(20_100.0, "announced; AMD prints no sparsity row, so dense as AMD's rack total counts it; ml-engineering halves it to 10 PF as an unlabelled sparse figure")),
                None,
            ),
            (Fp6, Some(a(20_100.0, "announced")), None),
            (
                Fp4,
                Some(a(40_300.0, "announced; 72 × 40 PF = AMD's 2.9 EF dense per Helios rack; ml-engineering halves it to 20 PF")),
                None,
            ),
            (Int8, Some(a(5_000.0, "announced; TOPS")), Some(a(10_100.0, "announced; TOPS"))),
        ]),
        sparsity: "2:4",
        hbm_capacity: Sourced::estimate(Bytes::gb(432.0), c).note("announced; HBM4"),
        hbm_bandwidth: Sourced::estimate(BytesPerSec::tb_s(23.3), c)
            .note("announced: 23.3 TB/s on AMD's page in mid-2026; 19.6 TB/s at CES 2026"),
        sram: Vec::new(),
        cores: Sourced::estimate(0, c).note("not published"),
        core_kind: CDNA_CU,
        clocks: Vec::new(),
        power: None,
        custom: false,
        based_on: None,
    }
}
