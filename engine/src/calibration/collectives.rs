//! The collective points of the calibration set: nccl-tests and rccl-tests results, each
//! with the model's figure for it.

use alloc::format;
use alloc::vec::Vec;

use super::{Role, SECOND_SET, THIRD_SET};
use crate::collective::{nccl, standalone, Algorithm, CollectiveError, Op};
use crate::source::Citation;
use crate::system::{Cluster, DSTACK_3961, MLE_NET};
use crate::units::Bytes;

/// Neuron's nccom-test page: example outputs (the instance is not named).
pub static NCCOM_TEST: Citation = Citation {
    key: "NCCOM-TEST",
    title: "AWS Neuron: nccom-test, the example of a 64-rank all-gather in BF16 from 1 KiB to 1 MiB (added in Neuron 2.32; the instance is not named, 64 ranks on one instance is a trn2.48xlarge at LNC=2)",
    url: "https://github.com/aws-neuron/aws-neuron-sdk/blob/81ce03ae261e12925e53437a0f690478e6366155/tools/neuron-sys-tools/nccom-test.rst",
    date: "2026-08-17",
};
/// p5.48xlarge all-reduce, all-gather and all-to-all on 2 to 32 nodes.
pub static P5_SCALING: Citation = Citation {
    key: "P5-SCALING",
    title: "crazyguitar/aws-gpu-communication-benchmark, data/nccl_all_reduce.csv: nccl-tests on 2, 4, 8, 16 and 32 × p5.48xlarge (SageMaker HyperPod, EFA, NCCL 2.27.7 per the Dockerfile)",
    url: "https://github.com/crazyguitar/aws-gpu-communication-benchmark/blob/a77f70db668034b75db9a430b3cd718f59a6c232/data/nccl_all_reduce.csv",
    date: "2025-10-18",
};
/// p5.48xlarge all-to-all on 2 to 32 nodes, from the same benchmark set.
pub static P5_ALLTOALL: Citation = Citation {
    key: "P5-ALLTOALL",
    title: "crazyguitar/aws-gpu-communication-benchmark, data/nccl_alltoall.csv: nccl-tests alltoall_perf on 2, 4, 8, 16 and 32 × p5.48xlarge (SageMaker HyperPod, EFA)",
    url: "https://github.com/crazyguitar/aws-gpu-communication-benchmark/blob/a77f70db668034b75db9a430b3cd718f59a6c232/data/nccl_alltoall.csv",
    date: "2025-10-18",
};
/// Users' H100 clusters over InfiniBand NDR, 2 to 8 nodes.
pub static NCCL_TESTS_309: Citation = Citation {
    key: "NCCL-TESTS-309",
    title: "NVIDIA/nccl-tests issue 309: all_reduce_perf on 2, 4 and 8 HGX H100 nodes with 8 × 400G InfiniBand (default settings)",
    url: "https://github.com/NVIDIA/nccl-tests/issues/309",
    date: "2025-06-19",
};
/// 1,024 H100s, ring forced.
pub static NCCL_TESTS_322: Citation = Citation {
    key: "NCCL-TESTS-322",
    title: "NVIDIA/nccl-tests issue 322: all_reduce_perf on 128 × 8 H100 with NCCL_ALGO=Ring, NCCL_PROTO=LL128, NVLS off",
    url: "https://github.com/NVIDIA/nccl-tests/issues/322",
    date: "2025-09",
};
/// OCI's GPU quick starts: nccl-tests and rccl-tests on GB200, GB300, B300 and MI355X.
pub static OCI_QUICKSTART: Citation = Citation {
    key: "OCI-QUICKSTART",
    title: "oracle-quickstart/oci-gpu-quickstarts: nccl-tests on BM.GPU.GB200.4 and GB300.4 (one rack and two or three racks), B300.8 and rccl-tests on MI355X with Pollara NICs",
    url: "https://github.com/oracle-quickstart/oci-gpu-quickstarts/tree/6a0abdc78b574b28eb10926387615c8414ed8c1d",
    date: "2026-04-10",
};

/// p5.48xlarge all-gather on 2 to 32 nodes, from the same benchmark set as [`P5_SCALING`].
pub static P5_ALLGATHER: Citation = Citation {
    key: "P5-ALLGATHER",
    title: "crazyguitar/aws-gpu-communication-benchmark, data/nccl_all_gather.csv: nccl-tests all_gather_perf on 2, 4, 8, 16 and 32 × p5.48xlarge (SageMaker HyperPod, EFA, NCCL 2.27.7 per the Dockerfile; a summary table of out-of-place and in-place algbw and busbw by size in MiB)",
    url: "https://github.com/crazyguitar/aws-gpu-communication-benchmark/blob/a77f70db668034b75db9a430b3cd718f59a6c232/data/nccl_all_gather.csv",
    date: "2025-10-18",
};
/// CoreWeave's GB200 runs, at the commit that added them (20 racks among them).
pub static COREWEAVE_GB200: Citation = Citation {
    key: "COREWEAVE-GB200",
    title: "coreweave/nccl-tests README, 'Expected Performance: GB200': all_reduce_perf on 20 GB200 NVL72 racks (1,440 ranks), NCCL 2.26.2, InfiniBand between racks",
    url: "https://github.com/coreweave/nccl-tests/blob/bee97e71ff87d859aa9db4f5e7e3eaaa00733159/README.md",
    date: "2025-05-05",
};
/// A user's MI325X cluster, ring forced.
pub static MI325X_RCCL: Citation = Citation {
    key: "MI325X-RCCL",
    title: "hisohara/ai-scripts training/01_rccl-smoketest/README.md: rccl-tests all_reduce_perf on 1, 2, 4 and 8 MI325X nodes (AMD AAC11, 8 Broadcom RoCE NICs a node, ROCm 6.4.1, NCCL_ALGO=Ring)",
    url: "https://github.com/hisohara/ai-scripts/blob/f26b6611ede3f4eebb7cdb793ec4c747aed0874f/training/01_rccl-smoketest/README.md",
    date: "2025-11-12",
};
/// OCI's Kubernetes HPC stack: GB200-v3.4 across two racks.
pub static OCI_HPC_OKE: Citation = Citation {
    key: "OCI-HPC-OKE",
    title: "oracle-quickstart/oci-hpc-oke README: all_reduce_perf on 32 BM.GPU.GB200-v3.4 trays across two racks (128 GPUs), NCCL 2.29.2",
    url: "https://github.com/oracle-quickstart/oci-hpc-oke/blob/003aae91b115ec5268bce8321713b3778909ed4c/README.md",
    date: "2026-01-16",
};

/// Collectives across many nodes entered on one day in a change that touched only the
/// evidence, each judged once as the model stood: all-gathers over 4 to 32 EFA nodes,
/// all-reduces over 20 GB200 racks, over 4 and 8 MI325X nodes with the ring forced, and over
/// two GB200 racks in another provider's run. An all-gather's size is the gathered buffer,
/// the summary table's MiB as nccl-tests reads `-b 32M`.
fn third_set() -> Vec<CollectivePoint> {
    let mut out = Vec::new();
    for (nodes, mib, busbw, label, role, note) in [
        (
            4,
            256.0,
            253.36,
            "4 × p5.48xlarge all-gather 256 MiB",
            Role::TunedAgainst,
            "out-of-place busbw, NCCL's own choice over EFA; entered at +49% and came within its bound when NCCL's choice across nodes ran all-gathers in rings (rails), not in two levels: tuned against",
        ),
        (
            4,
            2048.0,
            330.92,
            "4 × p5.48xlarge all-gather 2 GiB",
            Role::TunedAgainst,
            "out-of-place busbw, NCCL's own choice over EFA; entered at +43% and came within its bound when NCCL's choice across nodes ran all-gathers in rings (rails), not in two levels: tuned against",
        ),
        (
            8,
            256.0,
            215.43,
            "8 × p5.48xlarge all-gather 256 MiB",
            Role::TunedAgainst,
            "out-of-place busbw, NCCL's own choice over EFA; entered at +30% and came within its bound when NCCL's choice across nodes ran all-gathers in rings (rails), not in two levels: tuned against",
        ),
        (
            8,
            2048.0,
            293.71,
            "8 × p5.48xlarge all-gather 2 GiB",
            Role::TunedAgainst,
            "out-of-place busbw, NCCL's own choice over EFA; entered at +37% and came within its bound when NCCL's choice across nodes ran all-gathers in rings (rails), not in two levels: tuned against",
        ),
        (
            16,
            256.0,
            144.05,
            "16 × p5.48xlarge all-gather 256 MiB",
            Role::TunedAgainst,
            "out-of-place busbw, NCCL's own choice over EFA; entered at +40% and came within its bound when NCCL's choice across nodes ran all-gathers in rings (rails), not in two levels: tuned against",
        ),
        (
            16,
            2048.0,
            265.15,
            "16 × p5.48xlarge all-gather 2 GiB",
            Role::TunedAgainst,
            "out-of-place busbw, NCCL's own choice over EFA; entered at +35% and came within its bound when NCCL's choice across nodes ran all-gathers in rings (rails), not in two levels: tuned against",
        ),
        (
            32,
            256.0,
            86.30,
            "32 × p5.48xlarge all-gather 256 MiB",
            Role::TunedAgainst,
            "out-of-place busbw, NCCL's own choice over EFA; entered at +54% and came within its bound when NCCL's choice across nodes ran all-gathers in rings (rails), not in two levels: tuned against",
        ),
        (
            32,
            2048.0,
            262.77,
            "32 × p5.48xlarge all-gather 2 GiB",
            Role::TunedAgainst,
            "out-of-place busbw, NCCL's own choice over EFA; entered held out at +19.5%, then in view while NCCL's choice across nodes was changed to run all-gathers in rings (rails), not in two levels: tuned against",
        ),
    ] {
        out.push(CollectivePoint {
            label,
            system: "hgx-h100-8",
            nodes,
            op: Op::AllGather,
            algorithm: Algorithm::Auto,
            bytes: Bytes::mib(mib),
            measured: Measured::Busbw(busbw * 1e9),
            source: &P5_ALLGATHER,
            role,
            note,
        });
    }
    for (label, system, nodes, op_bytes, busbw, algorithm, source, role, note) in [
        (
            "GB200 NVL72, 20 racks, all-reduce 8 GiB (CoreWeave)",
            "gb200-nvl72",
            20,
            Bytes::gib(8.0),
            381.48,
            Algorithm::Auto,
            &COREWEAVE_GB200,
            Role::Departs,
            "1,440 ranks, NCCL 2.26.2; the run's settings are not stated. Entered at +116%: departs",
        ),
        (
            "GB200 NVL72, 20 racks, all-reduce 16 GiB (CoreWeave)",
            "gb200-nvl72",
            20,
            Bytes::gib(16.0),
            405.74,
            Algorithm::Auto,
            &COREWEAVE_GB200,
            Role::Departs,
            "1,440 ranks, NCCL 2.26.2; the run's settings are not stated. Entered at +105%: departs",
        ),
        (
            "4 × MI325X ring all-reduce 16 GiB (RCCL)",
            "mi325x-8",
            4,
            Bytes::gib(16.0),
            350.59,
            Algorithm::Ring,
            &MI325X_RCCL,
            Role::HeldOut {
                since: THIRD_SET,
                at_entry: 359_686_031_856.253_1,
            },
            "NCCL_ALGO=Ring, 8 Broadcom RoCE NICs a node (their speed is not stated: the preset's scale-out is taken)",
        ),
        (
            "8 × MI325X ring all-reduce 16 GiB (RCCL)",
            "mi325x-8",
            8,
            Bytes::gib(16.0),
            350.84,
            Algorithm::Ring,
            &MI325X_RCCL,
            Role::HeldOut {
                since: THIRD_SET,
                at_entry: 358_550_381_922.001_8,
            },
            "NCCL_ALGO=Ring, 8 Broadcom RoCE NICs a node (their speed is not stated: the preset's scale-out is taken)",
        ),
        (
            "GB200 NVL72, two racks, all-reduce 8 GiB (OCI, GB200-v3.4)",
            "gb200-nvl72",
            2,
            Bytes::gib(8.0),
            660.36,
            Algorithm::Auto,
            &OCI_HPC_OKE,
            Role::Departs,
            "32 four-GPU trays over two racks (128 GPUs; the model takes two full racks), NCCL 2.29.2; another run of the configuration the OCI quick start measured at 799.79. Entered at +26%: departs",
        ),
    ] {
        out.push(CollectivePoint {
            label,
            system,
            nodes,
            op: Op::AllReduce,
            algorithm,
            bytes: op_bytes,
            measured: Measured::Busbw(busbw * 1e9),
            source,
            role,
            note,
        });
    }
    out
}

/// A published measurement the model is checked against.
#[derive(Clone, Debug, PartialEq)]
pub struct CollectivePoint {
    /// What was measured.
    pub label: &'static str,
    /// System id.
    pub system: &'static str,
    /// Nodes.
    pub nodes: u32,
    /// Operation.
    pub op: Op,
    /// Algorithm the measurement used.
    pub algorithm: Algorithm,
    /// Message size, nccl-tests convention.
    pub bytes: Bytes,
    /// The measured figure: busbw in B/s, or time in s.
    pub measured: Measured,
    /// Where it was published.
    pub source: &'static Citation,
    /// How the point is used: fitted, held out (and since when), tuned against, or departing.
    pub role: Role,
    /// What was fitted to it, or what it checks.
    pub note: &'static str,
}

/// A measured figure.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Measured {
    /// Bus bandwidth, B/s.
    Busbw(f64),
    /// Time, s.
    Time(f64),
}

/// The measured collective points (the project's reference sheet, section 4).
#[must_use]
pub fn points() -> Vec<CollectivePoint> {
    let gib8 = Bytes::gib(8.0);
    let point =
        |label, system, nodes, bytes: Bytes, busbw: f64, source, role, note| CollectivePoint {
            label,
            system,
            nodes,
            op: Op::AllReduce,
            algorithm: Algorithm::Auto,
            bytes,
            measured: Measured::Busbw(busbw * 1e9),
            source,
            role,
            note,
        };
    let mut out = alloc::vec![
        CollectivePoint {
            label: "8 × H200 all-reduce 8 GiB, ring (NVLS off), nccl 2.27.7",
            system: "hgx-h200-8",
            nodes: 1,
            op: Op::AllReduce,
            algorithm: Algorithm::Ring,
            bytes: gib8,
            measured: Measured::Busbw(365.6e9),
            source: &MLE_NET,
            role: Role::Fitted,
            note: "the NVLink 4 ring efficiency is fitted to this point",
        },
        CollectivePoint {
            label: "8 × H200 all-reduce 8 GiB, NVLS",
            system: "hgx-h200-8",
            nodes: 1,
            op: Op::AllReduce,
            algorithm: Algorithm::InNetwork,
            bytes: gib8,
            measured: Measured::Busbw(473.1e9),
            source: &MLE_NET,
            role: Role::Fitted,
            note: "the NVLink 4 SHARP efficiency is fitted to this point",
        },
        CollectivePoint {
            label: "8 × B200 all-reduce 8 GiB, ring (NVLS off), nccl 2.27.7",
            system: "hgx-b200-8",
            nodes: 1,
            op: Op::AllReduce,
            algorithm: Algorithm::Ring,
            bytes: gib8,
            measured: Measured::Busbw(682.2e9),
            source: &MLE_NET,
            role: Role::Fitted,
            note: "the NVLink 5 ring efficiency is fitted to this point",
        },
        CollectivePoint {
            label: "8 × B200 all-reduce 8 GiB, NVLS, nccl 2.27.7",
            system: "hgx-b200-8",
            nodes: 1,
            op: Op::AllReduce,
            algorithm: Algorithm::InNetwork,
            bytes: gib8,
            measured: Measured::Busbw(838.0e9),
            source: &MLE_NET,
            role: Role::Fitted,
            note: "the NVLink 5 SHARP efficiency is fitted to this point",
        },
        point(
            "DGX H100 all-reduce 16 MiB (NCCL's choice)",
            "hgx-h100-8",
            1,
            Bytes::mib(16.0),
            237.21,
            &nccl::DGXC_NCCL,
            Role::Fitted,
            "the NVLS pipeline fill is fitted to this point",
        ),
        CollectivePoint {
            label: "2 × p6-b200 all-reduce of 8 B (NCCL floor, ~50–55 µs)",
            system: "hgx-b200-8",
            nodes: 2,
            op: Op::AllReduce,
            algorithm: Algorithm::Auto,
            bytes: Bytes::new(8.0),
            measured: Measured::Time(52.5e-6),
            source: &DSTACK_3961,
            role: Role::Fitted,
            note: "EFA's latency per network step beyond NCCL's constant is fitted to this point",
        },
        CollectivePoint {
            label: "8 × H100 all-reduce, without NVLink SHARP (GTC24 S62129)",
            system: "hgx-h100-8",
            nodes: 1,
            op: Op::AllReduce,
            algorithm: Algorithm::Ring,
            bytes: gib8,
            measured: Measured::Busbw(370e9),
            source: &MLE_NET,
            role: Role::TunedAgainst,
            note: "same NVLink generation as the fitted H200 point; an input to the NVLink efficiencies when they were first set, and named in the notes of the changes that refit them: tuned against",
        },
        CollectivePoint {
            label: "8 × H100 all-reduce, with NVLink SHARP (GTC24 S62129)",
            system: "hgx-h100-8",
            nodes: 1,
            op: Op::AllReduce,
            algorithm: Algorithm::InNetwork,
            bytes: gib8,
            measured: Measured::Busbw(480e9),
            source: &MLE_NET,
            role: Role::TunedAgainst,
            note: "same NVLink generation as the fitted H200 point; an input to the NVLink efficiencies when they were first set, and named in the notes of the changes that refit them: tuned against",
        },
        CollectivePoint {
            label: "GB200 NVL72 all-reduce, without NVLink SHARP (vendor slide)",
            system: "gb200-nvl72",
            nodes: 1,
            op: Op::AllReduce,
            algorithm: Algorithm::Ring,
            bytes: gib8,
            measured: Measured::Busbw(680e9),
            source: &MLE_NET,
            role: Role::TunedAgainst,
            note: "a 72-GPU domain on the NVLink 5 fit from 8 × B200; an input to the NVLink efficiencies when they were first set, and named in the notes (and, with SHARP, the message) of the changes that refit them: tuned against",
        },
        CollectivePoint {
            label: "GB200 NVL72 all-reduce, with NVLink SHARP (vendor slide)",
            system: "gb200-nvl72",
            nodes: 1,
            op: Op::AllReduce,
            algorithm: Algorithm::InNetwork,
            bytes: gib8,
            measured: Measured::Busbw(850e9),
            source: &MLE_NET,
            role: Role::TunedAgainst,
            note: "a 72-GPU domain on the NVLink 5 fit from 8 × B200; an input to the NVLink efficiencies when they were first set, and named in the notes (and, with SHARP, the message) of the changes that refit them: tuned against",
        },
    ];
    // Size sweeps: NCCL picks the algorithm and protocol.
    for (mib, busbw) in [
        (1.0, 67.04),
        (4.0, 135.44),
        (64.0, 361.67),
        (256.0, 422.25),
        (1024.0, 466.33),
        (16384.0, 479.90),
    ] {
        out.push(point(
            sweep_label("DGX H100", mib),
            "hgx-h100-8",
            1,
            Bytes::mib(mib),
            busbw,
            &nccl::DGXC_NCCL,
            Role::TunedAgainst,
            "entered with the NCCL protocol model it checks: tuned against, not held out",
        ));
    }
    for (mib, busbw) in [
        (1.0, 52.96),
        (16.0, 240.41),
        (256.0, 432.24),
        (8192.0, 479.98),
    ] {
        out.push(point(
            sweep_label("8 × H200 (Azure)", mib),
            "hgx-h200-8",
            1,
            Bytes::mib(mib),
            busbw,
            &nccl::AZURE_NCCL,
            Role::TunedAgainst,
            "in-place busbw, NCCL 2.20.5, NVLS; entered with the NCCL protocol model it checks: tuned against",
        ));
    }
    for (mib, busbw) in [
        (1.0, 15.95),
        (16.0, 105.52),
        (256.0, 342.81),
        (1024.0, 436.95),
        (16384.0, 487.09),
    ] {
        out.push(point(
            sweep_label("2 × p5.48xlarge", mib),
            "hgx-h100-8",
            2,
            Bytes::mib(mib),
            busbw,
            &nccl::AWSOME_NCCL,
            match mib as u32 {
                1 => Role::Fitted,
                16 => Role::Departs,
                _ => Role::TunedAgainst,
            },
            match mib as u32 {
                1 => "p5's EFA latency per network step is fitted to this point",
                16 => "the model is about 1.3 times too fast: every candidate NCCL has (rail rings, trees, NVLS trees, in each protocol) beats the measured 298 µs; likely NCCL running fewer channels, so fewer NICs, at mid sizes over EFA v2, which the model does not have",
                _ => "16 GPUs over EFA v2; NCCL's choice across nodes (rail rings or trees); entered with the model it checks: tuned against",
            },
        ));
    }
    out.push(point(
        "8 × MI300X all-reduce 8 GiB (RCCL)",
        "mi300x-8",
        1,
        Bytes::gib(8.0),
        315.69,
        &nccl::RCCL_MI300X,
        Role::Fitted,
        "the Infinity Fabric ring efficiency is fitted to this point",
    ));
    for (mib, busbw, label) in [
        (1.0, 64.64, "8 × MI300X all-reduce 1 MiB (RCCL)"),
        (16.0, 195.85, "8 × MI300X all-reduce 16 MiB (RCCL)"),
        (256.0, 304.96, "8 × MI300X all-reduce 256 MiB (RCCL)"),
        (1024.0, 313.66, "8 × MI300X all-reduce 1 GiB (RCCL)"),
    ] {
        out.push(point(
            label,
            "mi300x-8",
            1,
            Bytes::mib(mib),
            busbw,
            &nccl::RCCL_MI300X,
            Role::TunedAgainst,
            "RCCL, a fork of NCCL, with NCCL's protocols and latency constants; entered with the RCCL fit it checks: tuned against",
        ));
    }
    // Many nodes. The p5 sweep is the set the model's scaling across nodes is tuned
    // against; the others are held out.
    for (nodes, mib, busbw, label) in [
        (4, 1024.0, 280.30, "4 × p5.48xlarge all-reduce 1 GiB"),
        (4, 8192.0, 356.99, "4 × p5.48xlarge all-reduce 8 GiB"),
        (8, 1024.0, 274.47, "8 × p5.48xlarge all-reduce 1 GiB"),
        (8, 8192.0, 355.36, "8 × p5.48xlarge all-reduce 8 GiB"),
        (16, 1024.0, 269.23, "16 × p5.48xlarge all-reduce 1 GiB"),
        (16, 8192.0, 356.27, "16 × p5.48xlarge all-reduce 8 GiB"),
        (32, 1024.0, 220.08, "32 × p5.48xlarge all-reduce 1 GiB"),
        (32, 8192.0, 321.10, "32 × p5.48xlarge all-reduce 8 GiB"),
    ] {
        out.push(point(
            label,
            "hgx-h100-8",
            nodes,
            Bytes::mib(mib),
            busbw,
            &P5_SCALING,
            if nodes == 32 && mib < 2048.0 {
                Role::Departs
            } else {
                Role::TunedAgainst
            },
            if nodes == 32 && mib < 2048.0 {
                "NCCL's own choice over EFA: the model is 1.4 times too fast on 256 GPUs at 1 GiB, where a ring's 510 steps each wait on the network; the model's per-step cost lacks what NCCL's chunking adds when each step's share is small"
            } else {
                "NCCL's own choice over EFA; the set the double binary tree's load across nodes was built against"
            },
        ));
    }
    for (label, system, nodes, mib, busbw, source, role, note) in [
        (
            "4 × HGX H100 (InfiniBand, VMs) all-reduce 16 GiB",
            "hgx-h100-8",
            4,
            16384.0,
            365.84,
            &NCCL_TESTS_309,
            Role::TunedAgainst,
            "a user's four Dell XE9680 VMs, 8 × CX-7 400G each, NCCL 2.26.2, default settings; it entered departing (+42%, +63%) and came within its bound with the double binary tree's load across nodes: tuned against",
        ),
        (
            "8 × HGX H100 (InfiniBand) all-reduce 8 GiB",
            "hgx-h100-8",
            8,
            8192.0,
            320.70,
            &NCCL_TESTS_309,
            Role::TunedAgainst,
            "another user's eight nodes on 400G InfiniBand, default settings (391 with more CTAs and queue pairs); it entered departing (+42%, +63%) and came within its bound with the double binary tree's load across nodes: tuned against",
        ),
        (
            "GB200 NVL72, two racks, all-reduce 8 GiB (OCI)",
            "gb200-nvl72",
            2,
            8192.0,
            799.79,
            &OCI_QUICKSTART,
            Role::TunedAgainst,
            "32 four-GPU trays over two racks (128 GPUs; the model takes two full racks), NCCL 2.27.3, NVLS and multi-node NVLink on; named in the message of the change to NVLS across racks that moved it from +18% to +4%: tuned against",
        ),
        (
            "GB200 NVL72, three racks, all-reduce 8 GiB (OCI)",
            "gb200-nvl72",
            3,
            8192.0,
            748.93,
            &OCI_QUICKSTART,
            Role::TunedAgainst,
            "48 four-GPU trays over three racks (192 GPUs; the model takes three full racks), NCCL 2.27.3; it entered departing (+27%) and came within its bound when NVLS ran at a bus rate that holds as ranks are added, as NCCL's tuning model has it (one rack's 839–850 GB/s matches 8 × B200's 838): tuned against",
        ),
        (
            "GB300 NVL72, two racks, all-reduce 16 GiB (OCI)",
            "gb300-nvl72",
            2,
            16384.0,
            738.39,
            &OCI_QUICKSTART,
            Role::TunedAgainst,
            "32 four-GPU trays over two racks, RoCE 8 × 400G, NCCL 2.28.7; it entered departing (+29%) and came within its bound when NVLS ran at a bus rate that holds as ranks are added, as NCCL's tuning model has it: tuned against",
        ),
        (
            "2 × HGX B300 all-reduce 16 GiB (OCI)",
            "hgx-b300-8",
            2,
            16384.0,
            766.84,
            &OCI_QUICKSTART,
            Role::TunedAgainst,
            "BM.GPU.B300.8, RoCE 8 × 2 × 400G, NCCL 2.28.9; the change to NVLS across nodes that moved it from +17% to +9% was made looking at its OCI siblings: tuned against",
        ),
        (
            "2 × MI355X all-reduce 16 GiB (OCI, RCCL)",
            "mi355x-8",
            2,
            16384.0,
            370.34,
            &OCI_QUICKSTART,
            Role::HeldOut { since: SECOND_SET, at_entry: 379_410_982_417.292_8 },
            "Pollara 400 NICs, 8 × 400G RoCE, rccl-tests",
        ),
        (
            "4 × MI355X all-reduce 16 GiB (OCI, RCCL)",
            "mi355x-8",
            4,
            16384.0,
            370.51,
            &OCI_QUICKSTART,
            Role::HeldOut { since: SECOND_SET, at_entry: 378_777_116_257.651_9 },
            "Pollara 400 NICs, 8 × 400G RoCE, rccl-tests",
        ),
    ] {
        out.push(point(
            label,
            system,
            nodes,
            Bytes::mib(mib),
            busbw,
            source,
            role,
            note,
        ));
    }
    // All-to-all across nodes: NCCL and RCCL send to every peer directly, so (m−1)/m of each
    // GPU's bytes cross its NIC. The model ran a ring (1/n on the NIC) and was 2.7 to 5.7
    // times too fast; these were in view while the direct sends were built, with nothing
    // fitted to them: tuned against.
    let a2a_note = "in view while NCCL's direct all-to-all across nodes was built (no parameter fitted; the NIC rate is the all-reduce's): tuned against";
    for (label, system, nodes, bytes, busbw, source, role, note) in [
        ("2 × p5.48xlarge all-to-all 2 GiB", "hgx-h100-8", 2, Bytes::gib(2.0), 79.25, &P5_ALLTOALL, Role::TunedAgainst, a2a_note),
        ("4 × p5.48xlarge all-to-all 2 GiB", "hgx-h100-8", 4, Bytes::gib(2.0), 54.07, &P5_ALLTOALL, Role::TunedAgainst, a2a_note),
        ("8 × p5.48xlarge all-to-all 2 GiB", "hgx-h100-8", 8, Bytes::gib(2.0), 49.63, &P5_ALLTOALL, Role::TunedAgainst, a2a_note),
        ("16 × p5.48xlarge all-to-all 2 GiB", "hgx-h100-8", 16, Bytes::gib(2.0), 44.23, &P5_ALLTOALL, Role::TunedAgainst, a2a_note),
        ("32 × p5.48xlarge all-to-all 2 GiB", "hgx-h100-8", 32, Bytes::gib(2.0), 40.78, &P5_ALLTOALL, Role::TunedAgainst, a2a_note),
        ("2 × HGX B300 all-to-all 8 GiB (OCI)", "hgx-b300-8", 2, Bytes::gib(8.0), 180.98, &OCI_QUICKSTART, Role::TunedAgainst, a2a_note),
        ("2 × MI355X all-to-all 16 GiB (OCI, RCCL)", "mi355x-8", 2, Bytes::gib(16.0), 86.73, &OCI_QUICKSTART, Role::TunedAgainst, a2a_note),
        ("4 × MI355X all-to-all 16 GiB (OCI, RCCL)", "mi355x-8", 4, Bytes::gib(16.0), 50.63, &OCI_QUICKSTART, Role::TunedAgainst, a2a_note),
        ("GB200 NVL72, two racks, all-to-all 8 GiB (OCI)", "gb200-nvl72", 2, Bytes::gib(8.0), 89.70, &OCI_QUICKSTART, Role::TunedAgainst, "32 four-GPU trays over two racks (the model takes two full racks); in view while NCCL's direct all-to-all across nodes was built: tuned against"),
        ("GB200 NVL72, three racks, all-to-all 8 GiB (OCI)", "gb200-nvl72", 3, Bytes::gib(8.0), 62.49, &OCI_QUICKSTART, Role::TunedAgainst, "48 four-GPU trays over three racks; in view while NCCL's direct all-to-all across nodes was built: tuned against"),
        ("GB300 NVL72, two racks, all-to-all 16 GiB (OCI)", "gb300-nvl72", 2, Bytes::gib(16.0), 47.67, &OCI_QUICKSTART, Role::Departs, "32 four-GPU trays over two racks, RoCE 8 × 400G: 47.7 GB/s is half GB200's over two racks with twice the NICs per GPU, so the run is bound by something the page does not state (its all-reduce, 738 GB/s, is not); the model, at the NICs' rate, departs"),
        ("8 × HGX B300 all-to-all 8 GiB (OCI)", "hgx-b300-8", 1, Bytes::gib(8.0), 675.55, &OCI_QUICKSTART, Role::TunedAgainst, "one node, direct over NVLink (a path this change leaves as it was); in view while the direct sends across nodes were built: tuned against"),
        ("8 × MI355X all-to-all 16 GiB (OCI, RCCL)", "mi355x-8", 1, Bytes::gib(16.0), 361.13, &OCI_QUICKSTART, Role::TunedAgainst, "one node, direct over Infinity Fabric (a path this change leaves as it was); in view while the direct sends across nodes were built: tuned against"),
    ] {
        out.push(CollectivePoint {
            label,
            system,
            nodes,
            op: Op::AllToAll,
            algorithm: Algorithm::Auto,
            bytes,
            measured: Measured::Busbw(busbw * 1e9),
            source,
            role,
            note,
        });
    }
    out.push(CollectivePoint {
        label: "128 × HGX H100 ring all-reduce 16 GiB (1,024 GPUs)",
        system: "hgx-h100-8",
        nodes: 128,
        op: Op::AllReduce,
        algorithm: Algorithm::Ring,
        bytes: Bytes::gib(16.0),
        measured: Measured::Busbw(367.29e9),
        source: &NCCL_TESTS_322,
        role: Role::HeldOut {
            since: SECOND_SET,
            at_entry: 302_926_495_000.702_5,
        },
        note: "NCCL_ALGO=Ring, LL128, NVLS off, 32 channels, two queue pairs per connection",
    });
    // Trainium2: a collective launched on its own, as nccom-test runs it. 64 logical cores
    // at LNC=2 are the 16 chips × 4 of a trn2.48xlarge (the page does not name the
    // instance); both entered departing (−91%, −88%) for want of Neuron's launch.
    for (bytes, us, label, role, note) in [
        (
            1024.0,
            101.14,
            "Trn2 (64 ranks), all-gather 1 KiB (nccom-test)",
            Role::Fitted,
            "Neuron's launch of a collective on its own (from the host; collectives inside a compiled step do not pay it) is fitted here",
        ),
        (
            1_048_576.0,
            117.67,
            "Trn2 (64 ranks), all-gather 1 MiB (nccom-test)",
            Role::TunedAgainst,
            "in view while Neuron's launch was fitted to the 1 KiB point: tuned against",
        ),
    ] {
        out.push(CollectivePoint {
            label,
            system: "trn2-16",
            nodes: 1,
            op: Op::AllGather,
            algorithm: Algorithm::Auto,
            bytes: Bytes::new(bytes),
            measured: Measured::Time(us * 1e-6),
            source: &NCCOM_TEST,
            role,
            note,
        });
    }
    out.push(point(
        "GB200 NVL72, one rack, all-reduce 4 GiB",
        "gb200-nvl72",
        1,
        Bytes::gib(4.0),
        839.16,
        &nccl::COREWEAVE_NCCL,
        Role::TunedAgainst,
        "72 GPUs, NCCL 2.26.2; entered with the NCCL protocol model it checks: tuned against",
    ));
    out.push(point(
        "GB200 NVL72, two racks, all-reduce 16 GiB",
        "gb200-nvl72",
        2,
        Bytes::gib(16.0),
        810.41,
        &nccl::COREWEAVE_NCCL,
        Role::TunedAgainst,
        "144 GPUs across two racks, NCCL 2.26.2; entered with the NCCL protocol model it checks: tuned against",
    ));

    out.extend(third_set());
    out
}

/// `DGX H100 all-reduce 64 MiB`-style labels for sweep points (static strings).
fn sweep_label(system: &'static str, mib: f64) -> &'static str {
    macro_rules! table {
        ($($s:literal, $m:literal => $l:literal;)*) => {
            match (system, mib as u64) {
                $(($s, $m) => $l,)*
                _ => "all-reduce sweep point",
            }
        };
    }
    table! {
        "DGX H100", 1 => "DGX H100 all-reduce 1 MiB";
        "DGX H100", 4 => "DGX H100 all-reduce 4 MiB";
        "DGX H100", 64 => "DGX H100 all-reduce 64 MiB";
        "DGX H100", 256 => "DGX H100 all-reduce 256 MiB";
        "DGX H100", 1024 => "DGX H100 all-reduce 1 GiB";
        "DGX H100", 16384 => "DGX H100 all-reduce 16 GiB";
        "8 × H200 (Azure)", 1 => "8 × H200 (Azure) all-reduce 1 MiB";
        "8 × H200 (Azure)", 16 => "8 × H200 (Azure) all-reduce 16 MiB";
        "8 × H200 (Azure)", 256 => "8 × H200 (Azure) all-reduce 256 MiB";
        "8 × H200 (Azure)", 8192 => "8 × H200 (Azure) all-reduce 8 GiB";
        "2 × p5.48xlarge", 1 => "2 × p5.48xlarge all-reduce 1 MiB";
        "2 × p5.48xlarge", 16 => "2 × p5.48xlarge all-reduce 16 MiB";
        "2 × p5.48xlarge", 256 => "2 × p5.48xlarge all-reduce 256 MiB";
        "2 × p5.48xlarge", 1024 => "2 × p5.48xlarge all-reduce 1 GiB";
        "2 × p5.48xlarge", 16384 => "2 × p5.48xlarge all-reduce 16 GiB";
    }
}

impl CollectivePoint {
    /// The model's figure for this point, in the measurement's unit.
    ///
    /// # Errors
    /// When the system is unknown or the algorithm does not apply (never for the presets).
    pub fn predicted(&self) -> Result<f64, CollectiveError> {
        let system = crate::system::find(self.system)
            .map_err(|e| CollectiveError::UnknownSystem(format!("{e}")))?;
        let cl = Cluster {
            system,
            nodes: self.nodes,
        };
        // Each benchmark times one collective launched on its own.
        let e = standalone(&cl, self.op, self.bytes, self.algorithm)?;
        Ok(match self.measured {
            Measured::Busbw(_) => e.busbw.get(),
            Measured::Time(_) => e.time.get(),
        })
    }
    /// The measured value.
    #[must_use]
    pub fn value(&self) -> f64 {
        match self.measured {
            Measured::Busbw(x) | Measured::Time(x) => x,
        }
    }
}
