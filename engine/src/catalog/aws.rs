//! AWS's Trainium chips: Trn1, Trn2 and Trn3, from AWS's Neuron documentation and AWS's
//! pages, with the third-party figures AWS does not publish.

use super::*;

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

/// The four Trainium engine clocks from an NKI guide.
pub(super) fn neuron_clocks(
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

pub(super) fn trn1() -> Chip {
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

pub(super) fn trn2() -> Chip {
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

pub(super) fn trn3() -> Chip {
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
