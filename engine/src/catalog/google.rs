//! Google TPU v5p: a chip whose pods join 4×4×4 cubes into a 3D torus.

use alloc::vec::Vec;

use super::{peaks, tf, MLE_ACC};
use crate::chip::Chip;
use crate::dtype::Dtype::{Bf16, Fp8, Int8};
use crate::source::{Citation, Sourced};
use crate::units::{Bytes, BytesPerSec};

/// Google Cloud TPU v5p documentation.
pub static GCP_V5P: Citation = Citation {
    key: "GCP-v5p",
    title: "Google Cloud: TPU v5p (peak BF16 and FP8 459 TFLOP/s, 95 GiB HBM at 2,765 GB/s, 1,200 GB/s bidirectional ICI, 3D torus, 8,960-chip pod)",
    url: "https://docs.cloud.google.com/tpu/docs/v5p",
    date: "2024",
};

/// Every citation this module adds.
pub(super) fn citations() -> Vec<&'static Citation> {
    alloc::vec![&GCP_V5P]
}

pub(super) fn tpu_v5p() -> Chip {
    let c = &GCP_V5P;
    Chip {
        id: "tpu-v5p".into(),
        name: "TPU v5p".into(),
        vendor: "Google",
        peaks: peaks(&[
            (Bf16, Some(tf(459.0, c)), None),
            (
                Fp8,
                Some(tf(459.0, c).note("no FP8 speed-up over BF16")),
                None,
            ),
            (Int8, Some(tf(918.0, &MLE_ACC).note("TOPS")), None),
        ]),
        sparsity: "none",
        hbm_capacity: Sourced::vendor(Bytes::gib(95.0), c)
            .note("96 GiB physical; Google lists 95 GiB after its reserve"),
        hbm_bandwidth: Sourced::vendor(BytesPerSec::gb_s(2_765.0), c),
        sram: Vec::new(),
        cores: Sourced::vendor(2, c),
        core_kind: "TensorCore (4 MXUs, vector and scalar units); the chip also has 4 SparseCores",
        clocks: Vec::new(),
        power: None,
        custom: false,
        based_on: None,
    }
}

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

pub(super) fn tpu_v6e() -> Chip {
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

pub(super) fn tpu_v7() -> Chip {
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
