//! Published sources that more than one layer cites, grouped by who published them, so that
//! no module imports a higher one only to reach a citation. Each module still cites what only
//! it uses beside its figures.

use crate::source::Citation;

// NVIDIA.

/// The DGX H100 nccl-tests sweep the NVLS pipeline fill is fitted to (16 MiB).
pub static DGXC_NCCL: Citation = Citation {
    key: "DGXC-NCCL",
    title: "NVIDIA dgxc-benchmarking, nccl/README.md: all_reduce_perf on one DGX H100, 8 B to 16 GiB",
    url: "https://github.com/NVIDIA/dgxc-benchmarking/blob/8e77d607c06f8c8603568ba7e49e65f8ff88c1b8/nccl/README.md",
    date: "2025-12-04",
};

// AWS (samples published with AWS).

/// 2 × p5.48xlarge nccl-tests sweep (fitted at 1 MiB; the other sizes tuned against).
pub static AWSOME_NCCL: Citation = Citation {
    key: "AWSOME-NCCL",
    title: "aws-samples/awsome-distributed-training, micro-benchmarks/nccl-tests/README.md: all_reduce_perf on 2 × p5.48xlarge, 8 B to 16 GiB",
    url: "https://github.com/aws-samples/awsome-distributed-training/blob/main/micro-benchmarks/nccl-tests/README.md",
    date: "2024-04-11",
};

// Microsoft Azure.

/// Azure ND H100 v5 and ND H200 v5 nccl-tests sweeps (tuned against).
pub static AZURE_NCCL: Citation = Citation {
    key: "AZURE-NCCL",
    title: "Azure AI-benchmarking-guide: NCCL all-reduce (NVLS) in-place busbw on ND H100 v5 (NCCL 2.18.5) and ND H200 v5 (NCCL 2.20.5)",
    url: "https://github.com/Azure/AI-benchmarking-guide/tree/main/Azure_Results",
    date: "2024-09-24",
};

// CoreWeave.

/// CoreWeave's GB200 NVL72 nccl-tests results (tuned against).
pub static COREWEAVE_NCCL: Citation = Citation {
    key: "COREWEAVE-NCCL",
    title: "coreweave/nccl-tests README: all_reduce_perf on GB200 NVL72, one and two racks (NCCL 2.26.2)",
    url: "https://github.com/coreweave/nccl-tests/blob/master/README.md",
    date: "2025",
};

// Users of AMD Instinct (rccl-tests).

/// rccl-tests on one 8 × MI300X server (AMD's RCCL, a fork of NCCL with the same protocols).
pub static RCCL_MI300X: Citation = Citation {
    key: "RCCL-MI300X",
    title: "hisohara/ai-scripts, training/01_rccl-smoketest/README.md: rccl-tests all_reduce_perf on 8 × MI300X, 8 B to 8 GiB (commit 0780bb3c)",
    url: "https://github.com/hisohara/ai-scripts/blob/0780bb3c957ba1dd4254b3147c2027a44304db34/training/01_rccl-smoketest/README.md",
    date: "2025",
};
