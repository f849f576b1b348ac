//! The preset chips, every figure with its source and estimate flag.
//!
//! Each figure names the vendor document it comes from (`citations`). Dense and sparse
//! peaks are kept apart: NVIDIA's headline tensor numbers assume 2:4 sparsity, so the dense
//! figures here are those numbers halved (noted as `derived`). Where two vendor pages disagree,
//! the current figure is used and the other is recorded in the figure's note.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::chip::{Chip, Clock, MemoryLevel, Peak};
use crate::dtype::Dtype;
use crate::dtype::Dtype::{Bf16, Fp16, Fp32, Fp4, Fp8, Int8, Tf32};
use crate::source::{Citation, Sourced};
use crate::units::{Bytes, BytesPerSec, FlopPerSec, Hertz, Watts};

mod amd;
mod aws;
mod google;
mod nvidia;

pub use amd::{AMD_MI300X, AMD_MI325X, AMD_MI355X, AMD_MI455X, ROCM_MI300};
pub use aws::{NKI_T1, NKI_T2, NKI_T3, N_T1, N_T2, N_T3, SA_T2, SN_T3};
pub use google::GCP_V5P;
pub use google::{GCP_7X, GCP_V6E};
pub use nvidia::NV_VR;
pub use nvidia::{CC_B200, MLE_ACC, NV_DGXB200, NV_GB200, NV_GB300, NV_H100, NV_H200, NV_MC};

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

/// A preset's id and the function that builds it.
type Preset = (&'static str, fn() -> Chip);

/// Every preset, in catalog order: a lookup builds the one chip it names, not all of them.
const PRESETS: [Preset; 17] = [
    ("trn1", aws::trn1),
    ("trn2", aws::trn2),
    ("trn3", aws::trn3),
    ("h100-sxm", nvidia::h100_sxm),
    ("h200", nvidia::h200),
    ("b200", nvidia::b200),
    ("gb200", nvidia::gb200),
    ("gb300", nvidia::gb300),
    ("b300", nvidia::b300),
    ("rubin", nvidia::rubin),
    ("mi300x", amd::mi300x),
    ("mi325x", amd::mi325x),
    ("mi355x", amd::mi355x),
    ("mi455x", amd::mi455x),
    ("tpu-v6e", google::tpu_v6e),
    ("tpu-v7", google::tpu_v7),
    ("tpu-v5p", google::tpu_v5p),
];

/// Preset ids in catalog order.
#[must_use]
pub fn ids() -> Vec<&'static str> {
    PRESETS.iter().map(|(id, _)| *id).collect()
}

/// Every preset, in catalog order.
#[must_use]
pub fn presets() -> Vec<Chip> {
    PRESETS.iter().map(|(_, build)| build()).collect()
}

/// The preset with this id.
///
/// # Errors
/// [`CatalogError::UnknownChip`] listing the valid ids.
pub fn find(id: &str) -> Result<Chip, CatalogError> {
    PRESETS
        .iter()
        .find(|(k, _)| *k == id)
        .map(|(_, build)| build())
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

const TRN_SPARSITY: &str = "up to 4:16 (4:16, 4:12, 4:8, 2:8, 2:4, 1:4, 1:2)";
const HOPPER_SM: &str = "SM with 4 fourth-gen Tensor Cores";
const BLACKWELL_SM: &str = "SM with 4 fifth-gen Tensor Cores";

// ---------------------------------------------------------------------------------------------
// AWS Trainium
// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// NVIDIA Hopper
// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// NVIDIA Blackwell
// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// Google TPU
// ---------------------------------------------------------------------------------------------

#[cfg(test)]
mod tests;
