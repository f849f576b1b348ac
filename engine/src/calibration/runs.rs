//! The training and serving points of the calibration set: published runs beside the
//! model's figure for each, the runs that set Trainium's efficiency and the serving kernel
//! factor, and the fits themselves.

use alloc::string::String;
use alloc::vec::Vec;

use super::{Family, Metric, Phase, Role, RunPoint, SECOND_SET, THIRD_SET};
use crate::catalog;
use crate::dtype::Dtype;
use crate::efficiency;
use crate::source::Citation;
use crate::system::{self, Cluster};
use crate::workload::{
    find_model, infer, train, Compiled, Dispatch, InferConfig, Layout, TrainConfig, WorkloadError,
    SERVING_KERNEL_FACTOR,
};

use crate::tco::N_TRN1PERF;

/// Meta, "The Llama 3 Herd of Models", Table 4.
pub static META_LLAMA3: Citation = Citation {
    key: "META-L3",
    title: "Meta: The Llama 3 Herd of Models (arXiv 2407.21783), Table 4",
    url: "https://arxiv.org/abs/2407.21783",
    date: "2024-07-31",
};
/// NVIDIA NeMo performance summary (container 24.07).
pub static NEMO_PERF: Citation = Citation {
    key: "NEMO-PERF",
    title:
        "NVIDIA NeMo: performance summary, 24.07 (docs/source/performance/performance_summary.md)",
    url: "https://github.com/NVIDIA/NeMo/blob/main/docs/source/performance/performance_summary.md",
    date: "2024-07",
};
/// MLPerf Inference v4.1 results, closed division, NVIDIA.
pub static MLPERF_INF41: Citation = Citation {
    key: "MLPERF-INF-4.1",
    title: "MLCommons: MLPerf Inference v4.1 results, closed division, NVIDIA (Llama 2 70B, 99.9%)",
    url: "https://github.com/mlcommons/inference_results_v4.1/tree/main/closed/NVIDIA/results",
    date: "2024-08-28",
};

/// MLPerf Inference v5.0 results, closed division.
pub static MLPERF_INF50: Citation = Citation {
    key: "MLPERF-INF-5.0",
    title: "MLCommons: MLPerf Inference v5.0 results, closed division (AMD 8xMI325X_2xEPYC_9575F, Llama 2 70B 99.9%, Offline)",
    url: "https://github.com/mlcommons/inference_results_v5.0/tree/main/closed/AMD/results/8xMI325X_2xEPYC_9575F",
    date: "2025-04-02",
};
/// MLPerf Inference v5.0 results, closed division, NVIDIA's 8 × H200.
pub static MLPERF_INF50_NV: Citation = Citation {
    key: "MLPERF-INF-5.0-NV",
    title: "MLCommons: MLPerf Inference v5.0 results, closed division, NVIDIA H200-SXM-141GBx8_TRT (Llama 2 70B Server and Interactive)",
    url: "https://github.com/mlcommons/inference_results_v5.0/tree/main/closed/NVIDIA/results/H200-SXM-141GBx8_TRT",
    date: "2025-04-02",
};
/// NVIDIA dgxc-benchmarking, Llama 3.1 recipes with BF16 and FP8 runs of the same jobs.
pub static DGXC_BENCH: Citation = Citation {
    key: "DGXC-BENCH",
    title: "NVIDIA dgxc-benchmarking, tag v25.04: llama3.1/README.md (DGX H100, BF16 and FP8 throughput)",
    url: "https://github.com/NVIDIA/dgxc-benchmarking/blob/v25.04/llama3.1/README.md",
    date: "2025-04",
};
/// NVIDIA NeMo performance summary, 25.02 release (DGX-B200 rows).
pub static NEMO_PERF_2502: Citation = Citation {
    key: "NEMO-PERF-25.02",
    title: "NVIDIA NeMo Framework: performance summary, 25.02 (DGX-B200, FP8)",
    url: "https://docs.nvidia.com/nemo-framework/user-guide/latest/performance/performance_summary.html",
    date: "2025-02",
};

/// AWS Neuron tutorials: Llama 3.3 70B and Llama 3.1 405B on trn2.48xlarge (LLMPerf P50).
pub static N_TRN2_TUTORIALS: Citation = Citation {
    key: "N-TRN2-TUT",
    title: "AWS Neuron: NxD Inference tutorials on Trn2, llama70b_perf_comparison.csv and llama405b_perf_comparison.csv (TP64 at LNC=2, batch 1, 10,000 prompt and 1,500 output tokens; Neuron 2.21 era)",
    url: "https://github.com/aws-neuron/aws-neuron-sdk/blob/81ce03ae261e12925e53437a0f690478e6366155/libraries/nxd-inference/tutorials/trn2-llama3.3-70b-tutorial.rst",
    date: "2025-02-04",
};
/// NVIDIA Megatron-Bridge's performance summaries (archive of releases 25.09 to 26.06).
pub static MEGATRON_BRIDGE: Citation = Citation {
    key: "MEGATRON-BRIDGE",
    title: "NVIDIA-NeMo/Megatron-Bridge docs/performance-summary-archive.md: DeepSeek-V3 and Qwen3 MoE pretraining on B200, GB200, GB300 and H100 (tokens/s per GPU, layouts)",
    url: "https://github.com/NVIDIA-NeMo/Megatron-Bridge/blob/067f987df03b8355b03192d88d70f1709fedf51a/docs/performance-summary-archive.md",
    date: "2026-08-22",
};
/// NVIDIA dgxc-benchmarking v25.05: DeepSeek-V3 pretraining (measured tables).
pub static DGXC_BENCH_2505: Citation = Citation {
    key: "DGXC-BENCH-25.05",
    title: "NVIDIA dgxc-benchmarking, tag v25.05: deepseek_v3/pretraining/README.md (DeepSeek-V3 BF16 on 1,024 H100: 644,781.55 tokens/s)",
    url: "https://github.com/NVIDIA/dgxc-benchmarking/blob/68eaf7e117bf16cb018861ce101e8f80925f74d8/deepseek_v3/pretraining/README.md",
    date: "2025-05",
};
/// MLPerf Inference v4.1, closed division, AMD's 8 × MI300X.
pub static MLPERF_INF41_AMD: Citation = Citation {
    key: "MLPERF-INF-4.1-AMD",
    title: "MLCommons: MLPerf Inference v4.1 results, closed division, AMD 8xMI300X_2xEPYC-9374F (Llama 2 70B 99%, Offline 23,514.8 tokens/s)",
    url: "https://github.com/mlcommons/inference_results_v4.1/tree/a2f5d66d17e8f75c02fd74dfe810ecca6a046696/closed/AMD/results/8xMI300X_2xEPYC-9374F",
    date: "2024-08-28",
};
/// MLPerf Inference v5.1, closed division, AMD's 8 × MI300X.
pub static MLPERF_INF51_AMD: Citation = Citation {
    key: "MLPERF-INF-5.1-AMD",
    title: "MLCommons: MLPerf Inference v5.1 results, closed division, AMD 8xMI300X_2xEPYC_9575F (Llama 2 70B 99%, Offline 27,803.9 and Server 24,593.77 tokens/s)",
    url: "https://github.com/mlcommons/inference_results_v5.1/tree/965182b03376a00fcae415c54e560e1c83937932/closed/AMD/results/8xMI300X_2xEPYC_9575F",
    date: "2025-09-09",
};
/// AWS Neuron's Trn1 training performance page as released on 2024-12-20 (Neuron 2.21),
/// whose decoder table still held Llama 2 7B and 13B.
pub static N_TRN1PERF_2_21: Citation = Citation {
    key: "N-TRN1PERF-2.21",
    title: "AWS Neuron SDK: Trn1/Trn1n training performance, decoder models (training_data_decoder.csv, Neuron 2.21): Llama 2 7B on 16 and 13B on 32 trn1.32xlarge, sequences/s with topology, micro-batch and global batch",
    url: "https://github.com/aws-neuron/aws-neuron-sdk/blob/752349fd3de5aaa6eb69690955eeaa7d43fcd082/general/benchmarks/trn1/training_data_decoder.csv",
    date: "2024-12-20",
};
/// Google's MaxText recipes for TPU v6e and v5p (logged training steps).
pub static MAXTEXT_RECIPES: Citation = Citation {
    key: "MAXTEXT-RECIPES",
    title: "AI-Hypercomputer/tpu-recipes (commit c8cfe2f6): MaxText Llama 3.1 8B and 70B on v6e-256, 405B on 2 × v6e-256 and on v5p-1024 (512 chips), FSDP over the whole slice; tokens/s per device from the logged steps",
    url: "https://github.com/AI-Hypercomputer/tpu-recipes/tree/c8cfe2f689081d36701a101cd73a70965d80926b/training",
    date: "2025-10-08",
};
/// AWS Neuron's speculative-decoding tutorial on Trn2 (Qwen3-32B).
pub static N_TRN2_SD: Citation = Citation {
    key: "N-TRN2-SD",
    title: "AWS Neuron: speculative decoding tutorial, Qwen3-32B on Trn2 (TP64 at LNC=2, one sequence, 128 prompt and 512 output tokens, vLLM container sdk2.26.1; P99 figures)",
    url: "https://github.com/aws-neuron/aws-neuron-sdk/blob/81ce03ae261e12925e53437a0f690478e6366155/libraries/nxd-inference/tutorials/sd-inference-tutorial.rst",
    date: "2025-12",
};
/// AWS Neuron's vLLM tutorial on EAGLE3 speculative decoding for Llama 3.1 8B.
pub static VLLM_NEURON_EAGLE_LLAMA: Citation = Citation {
    key: "VLLM-NEURON-EAGLE3-LLAMA",
    title: "AWS Neuron, vLLM on Neuron: EAGLE3 speculative decoding with Llama-3.1-8B-Instruct on trn2.48xlarge (TP8, two sequences of up to 2,048 tokens, sonnet 512 prompt and 128 output tokens, 50 prompts at concurrency 2; baseline and 3 speculative tokens; Neuron 2.32; the page calls its figures illustrative)",
    url: "https://github.com/aws-neuron/aws-neuron-sdk/blob/a3247f5b8c305f9b70a19993acb306122e736eec/vllm-neuron/docs/tutorials/tutorial-eagle3-speculative-decoding-llama-3-1.md",
    date: "2026-08-17",
};
/// AWS Neuron's vLLM tutorial on EAGLE3 speculative decoding for gpt-oss-120b.
pub static VLLM_NEURON_EAGLE_GPTOSS: Citation = Citation {
    key: "VLLM-NEURON-EAGLE3-GPTOSS",
    title: "AWS Neuron, vLLM on Neuron: EAGLE3 speculative decoding with gpt-oss-120b on trn2.48xlarge (TP16, one sequence of up to 768 tokens, BF16 with the MXFP4 experts dequantized, sonnet 512 prompt and 128 output tokens, 30 prompts one at a time; baseline and 1 speculative token; Neuron 2.31; the page calls its figures illustrative)",
    url: "https://github.com/aws-neuron/aws-neuron-sdk/blob/a3247f5b8c305f9b70a19993acb306122e736eec/vllm-neuron/docs/tutorials/tutorial-eagle3-speculative-decoding-gpt-oss.md",
    date: "2026-08-17",
};
/// The Trinity port in NxD Inference's contributed models (Arcee's AfmoeForCausalLM).
pub static NXDI_TRINITY: Citation = Citation {
    key: "NXDI-TRINITY",
    title: "aws-neuron/neuronx-distributed-inference contrib/models/Trinity/README.md (Trinity-Mini on trn2.3xlarge at TP4, Trinity-Large on trn2.48xlarge at TP64, LNC=2, BF16, sequences of 2,048 with bucketing, batch 1, 2 and 4; token generation averaged over 28 tokens after 3 warm-up; Neuron 2.28; a contributed port, not an AWS benchmark)",
    url: "https://github.com/aws-neuron/neuronx-distributed-inference/blob/c8184dcd22475c1f11adfd0f319de3e673cba072/contrib/models/Trinity/README.md",
    date: "2026-03-18",
};
/// Hugging Face optimum-neuron: Llama 4 on a trn2.48xlarge.
pub static OPTIMUM_NEURON_LLAMA4: Citation = Citation {
    key: "OPTIMUM-NEURON-LLAMA4",
    title: "Hugging Face optimum-neuron: benchmark/vllm/single-instance/llama4-Scout-trn2 and llama4-Maverick-trn2 (TP64 at LNC=2, compiled for 32 and 8 sequences of up to 4,096 tokens, guidellm 1,500 prompt and 250 output tokens; synchronous runs)",
    url: "https://github.com/huggingface/optimum-neuron/tree/213224e6aae42e570b88b3a5e6f2716112823469/benchmark/vllm/single-instance",
    date: "2025-10-09",
};
/// Trinity-Mini's shape (32 layers, the first 2 dense; 128 experts of 1,024 with 8 active
/// and one shared; 26 B parameters, 3 B active). Its gated attention's extra gate and the
/// 2,048-token windows of 3 layers in 4 are not modelled (at these lengths the windows hold
/// the whole context).
const TRINITY_MINI: &str =
    "m:l32,d2048,h32,kv4,f6144,v200192,s131072,e128,k8,sh1,ef1024,dl2,hd128,n:Trinity-Mini";
/// Trinity-Large's shape (60 layers, the first 6 dense; 256 experts of 3,072 with 4 active
/// and one shared; 398 B parameters, 13 B active per its model card; the README's "~250B"
/// is not what its config gives).
const TRINITY_LARGE: &str =
    "m:l60,d3072,h48,kv8,f12288,v200192,s262144,e256,k4,sh1,ef3072,dl6,hd128,n:Trinity-Large";
/// Llama 4 Scout's text shape (48 MoE layers of 16 experts of 8,192, one active and one
/// shared; 108 B parameters, 17 B active).
pub(crate) const LLAMA4_SCOUT: &str =
    "m:l48,d5120,h40,kv8,f16384,v202048,s262144,e16,k1,sh1,ef8192,hd128,n:Llama-4-Scout";
/// Llama 4 Maverick's text shape (24 dense layers of 16,384 between 24 MoE layers of 128
/// experts of 8,192, one active and one shared; 400 B parameters, 17 B active).
const LLAMA4_MAVERICK: &str =
    "m:l48,d5120,h40,kv8,f16384,v202048,s262144,e128,k1,sh1,ef8192,dl24,hd128,n:Llama-4-Maverick";
/// gpt-oss-120b's shape (its Hugging Face config: 36 layers, hidden 2,880, 64 query and 8
/// KV heads of 64, 128 experts of 2,880 with 4 active; 116.8 B parameters).
const GPT_OSS_120B: &str =
    "m:l36,d2880,h64,kv8,f2880,v201088,s131072,e128,k4,ef2880,hd64,n:gpt-oss-120b";
/// AWS's Llama 3.3 70B tutorial compiled one sequence of up to 12,800 tokens, its prompts
/// to buckets of 2,048, 4,096, 8,192 and 12,288 tokens (its flags, quoted in the tutorial).
const TUTORIAL_70B: Compiled = Compiled {
    batch: 1,
    seq: 12_800,
    buckets: &[2_048, 4_096, 8_192, 12_288, 12_800],
};
/// AWS's Llama 3.1 405B tutorial: one sequence, prompt buckets of 2,048, 4,096, 10,240 and
/// 12,288 tokens, 12,800 in all.
const TUTORIAL_405B: Compiled = Compiled {
    batch: 1,
    seq: 12_800,
    buckets: &[2_048, 4_096, 10_240, 12_288, 12_800],
};
/// AWS's speculative-decoding tutorial served Qwen3-32B with vLLM at one sequence of up to
/// 6,400 tokens (`--max-num-seqs 1 --max-model-len 6400`), bucketed by default.
const SD_TUTORIAL: Compiled = Compiled {
    batch: 1,
    seq: 6_400,
    buckets: &[],
};
/// optimum-neuron's Trn2 benchmarks compile `batch` sequences of up to 4,096 tokens (each
/// run's `.env`: BATCH_SIZE, SEQUENCE_LENGTH), bucketed by default.
const fn optimum_neuron(batch: u32) -> Compiled {
    Compiled {
        batch,
        seq: 4_096,
        buckets: &[],
    }
}
/// Qwen3-32B's shape (its Hugging Face config: 64 layers, hidden 5,120, 64 heads, 8 KV heads).
const QWEN3_32B: &str = "m:l64,d5120,h64,kv8,f25600,v151936,s8192,hd128,n:Qwen3-32B";
/// Qwen3-30B-A3B trained on 4K sequences.
const QWEN3_30B_A3B_4K: &str =
    "m:l48,d2048,h32,kv4,f6144,v151936,s4096,e128,k8,ef768,hd128,n:Qwen3-30B-A3B";
/// Qwen3-30B-A3B's shape (128 experts, 8 active).
const QWEN3_30B_A3B: &str =
    "m:l48,d2048,h32,kv4,f6144,v151936,s8192,e128,k8,ef768,hd128,n:Qwen3-30B-A3B";
/// Qwen3-235B-A22B trained on 4K sequences.
const QWEN3_235B_4K: &str =
    "m:l94,d4096,h64,kv4,f12288,v151936,s4096,e128,k8,ef1536,hd128,n:Qwen3-235B-A22B";
/// gpt-oss-120b trained on 4K sequences.
const GPT_OSS_120B_4K: &str =
    "m:l36,d2880,h64,kv8,f2880,v201088,s4096,e128,k4,ef2880,hd64,wl18,w128,n:gpt-oss-120b";
/// Mixtral 8x7B trained on 4K sequences.
const MIXTRAL_8X7B_4K: &str =
    "m:l32,d4096,h32,kv8,f14336,v32000,s4096,e8,k2,ef14336,hd128,n:Mixtral 8x7B";
/// Mixtral 8x22B trained on 8K sequences.
const MIXTRAL_8X22B_8K: &str =
    "m:l56,d6144,h48,kv8,f16384,v32768,s8192,e8,k2,ef16384,hd128,n:Mixtral 8x22B";
/// DeepSeek-V2-Lite (27 layers, 64 routed experts and 2 shared, 6 routed a token, a dense
/// first layer, latent attention without a query projection rank), 4K sequences.
const DEEPSEEK_V2_LITE_4K: &str =
    "m:l27,d2048,h16,kv16,f10944,v102400,s4096,e64,k6,sh2,ef1408,dl1,mla0.512.128.64.128,n:DeepSeek-V2-Lite";
/// DeepSeek-V2 (60 layers, 160 routed experts and 2 shared, 6 routed a token), 4K sequences.
const DEEPSEEK_V2_4K: &str =
    "m:l60,d5120,h128,kv128,f12288,v102400,s4096,e160,k6,sh2,ef1536,dl1,mla1536.512.128.64.128,n:DeepSeek-V2";
/// Qwen3-235B-A22B's shape (94 layers, 128 experts, 8 active).
const QWEN3_235B: &str =
    "m:l94,d4096,h64,kv4,f12288,v151936,s8192,e128,k8,ef1536,hd128,n:Qwen3-235B-A22B";
/// Hugging Face optimum-neuron: Qwen3-235B-A22B on a trn2.48xlarge.
pub static OPTIMUM_NEURON_QWEN235: Citation = Citation {
    key: "OPTIMUM-NEURON-Q235",
    title: "Hugging Face optimum-neuron: benchmark/vllm/single-instance/qwen3-235B-A22B-trn2 (TP64 at LNC=2, guidellm 1,500 prompt and 250 output tokens)",
    url: "https://github.com/huggingface/optimum-neuron/tree/213224e6aae42e570b88b3a5e6f2716112823469/benchmark/vllm/single-instance/qwen3-235B-A22B-trn2",
    date: "2025-10-09",
};
/// Hugging Face optimum-neuron vLLM benchmarks on Trn2.
pub static OPTIMUM_NEURON_TRN2: Citation = Citation {
    key: "OPTIMUM-NEURON",
    title: "Hugging Face optimum-neuron: benchmark/vllm/single-instance/llama-3.1-8b-trn2 (TP4 at LNC=2 = one Trainium2 chip, guidellm 1,500 prompt and 250 output tokens)",
    url: "https://github.com/huggingface/optimum-neuron/tree/213224e6aae42e570b88b3a5e6f2716112823469/benchmark/vllm/single-instance/llama-3.1-8b-trn2",
    date: "2025-10-16",
};
/// NxD Inference's contributed DeepSeek-V3 port on trn2.48xlarge.
pub static NXDI_DEEPSEEK: Citation = Citation {
    key: "NXDI-DSV3",
    title: "aws-neuron/neuronx-distributed-inference contrib/models/DeepSeek-V3/README.md (TP64 at LNC=2, batch 1, BF16, 256 + 256 tokens; Neuron 2.28; a contributed port, not an AWS benchmark)",
    url: "https://github.com/aws-neuron/neuronx-distributed-inference/blob/4bcdc54bf3b6ccdad490e5cd0680a3dc95270b8e/contrib/models/DeepSeek-V3/README.md",
    date: "2026-04",
};

/// Every citation this module adds.
#[must_use]
pub fn citations() -> Vec<&'static Citation> {
    alloc::vec![
        &META_LLAMA3,
        &NEMO_PERF,
        &MLPERF_INF41,
        &DGXC_BENCH,
        &NEMO_PERF_2502,
        &MLPERF_INF50,
        &MLPERF_INF50_NV,
        &N_TRN2_TUTORIALS,
        &OPTIMUM_NEURON_TRN2,
        &NXDI_DEEPSEEK,
        &N_TRN2_SD,
        &MAXTEXT_RECIPES,
        &training::DGXC_GROK1,
        &training::PRIMUS_MOE,
        &training::PRIMUS_PROJECTION,
        &training::TPU_RECIPES_TRILLIUM,
        &training::TORCHTITAN_H200,
        &training::TPU_RECIPES_IRONWOOD,
        &OPTIMUM_NEURON_QWEN235,
        &MLPERF_INF41_AMD,
        &MLPERF_INF51_AMD,
        &MEGATRON_BRIDGE,
        &DGXC_BENCH_2505,
        &VLLM_NEURON_EAGLE_LLAMA,
        &VLLM_NEURON_EAGLE_GPTOSS,
        &NXDI_TRINITY,
        &OPTIMUM_NEURON_LLAMA4,
        &moe::TRTLLM_PERF,
        &moe::TRTLLM_PERF_V1,
        &moe::MLPERF_INF51_MIXTRAL,
        &moe::INFERENCEX_MI300X,
        &moe::OPTIMUM_NEURON_BATCHED
    ]
}

/// A training run: system, nodes, model, format, global batch, layout degrees, BF16 matmul
/// efficiency (`None`: the chip's default); `variants` are the (virtual stages, recompute) pairs to try, the fastest that
/// fits is the model's figure (as the layout search would choose with these degrees).
struct TrainRun {
    system: &'static str,
    nodes: u32,
    model: &'static str,
    dtype: Dtype,
    global_batch: u32,
    degrees: (u32, u32, u32),
    /// Context-parallel degree (1: none).
    cp: u32,
    /// ZeRO stage (3: FSDP).
    zero: u8,
    /// Expert-parallel degree (1: none).
    ep: u32,
    micro_batch: u32,
    efficiency: Option<f64>,
    variants: &'static [(u32, bool)],
    mfu: bool,
    /// How the run's recipe sets what the layout does not say.
    recipe: Recipe,
}

/// What a run's recipe sets beside its degrees: host offload, hybrid sharding's replica
/// groups, and how its expert all-to-alls cross nodes and overlap compute.
#[derive(Clone, Copy)]
struct Recipe {
    /// Layer inputs offloaded to host memory (with recomputation).
    offload: bool,
    /// Hybrid sharding's replica groups (1: none).
    replicate: u32,
    /// How the expert all-to-all crosses nodes, as the run's recipe dispatches.
    dispatch: Dispatch,
    /// Whether the run's recipe overlaps the expert all-to-alls with another micro-batch.
    ep_overlap: bool,
}

impl Recipe {
    /// None of them: no offload, one replica group, a copy for each expert, no overlap.
    const PLAIN: Recipe = Recipe {
        offload: false,
        replicate: 1,
        dispatch: Dispatch::PerExpert,
        ep_overlap: false,
    };
}

/// The preset system, its chip and a model, by id (ids here are the crate's own presets).
fn setup(
    system: &str,
    nodes: u32,
    model: &str,
) -> Result<(Cluster, crate::chip::Chip, crate::workload::Model), WorkloadError> {
    let bad = |e: &dyn core::fmt::Display| WorkloadError::BadInput(alloc::format!("{e}"));
    let sys = system::find(system).map_err(|e| bad(&e))?;
    let chip = catalog::find(sys.chip).map_err(|e| bad(&e))?;
    Ok((Cluster { system: sys, nodes }, chip, find_model(model)?))
}

fn run_train(r: &TrainRun) -> (Result<f64, WorkloadError>, String) {
    let (cl, chip, model) = match setup(r.system, r.nodes, r.model) {
        Ok(x) => x,
        Err(e) => return (Err(e), String::new()),
    };
    let (tp, pp, dp) = r.degrees;
    let mut best: Option<crate::workload::TrainReport> = None;
    let mut err = WorkloadError::BadLayout("no variant given".into());
    for &(interleave, recompute) in r.variants {
        let layout = Layout {
            tp,
            pp,
            dp,
            interleave,
            recompute,
            micro_batch: r.micro_batch,
            cp: r.cp,
            zero: r.zero,
            ep: r.ep,
            offload: r.recipe.offload && recompute,
            replicate: r.recipe.replicate,
        };
        let eff = r
            .efficiency
            .unwrap_or_else(|| efficiency::default_bf16(&chip).value);
        let mut cfg = TrainConfig::new(model.clone(), r.dtype, r.global_batch, layout, eff);
        cfg.tp_overlap = cl.system.overlap.value;
        cfg.dp_overlap = cl.system.overlap.value;
        cfg.ep_dispatch = r.recipe.dispatch;
        cfg.ep_overlap = r.recipe.ep_overlap;
        match train(&cl, &chip, &cfg) {
            Ok(t)
                if best
                    .as_ref()
                    .is_none_or(|b| t.tokens_per_s > b.tokens_per_s) =>
            {
                best = Some(t)
            }
            Ok(_) => {}
            Err(e) => err = e,
        }
    }
    match best {
        Some(t) => (
            Ok(if r.mfu { t.mfu } else { t.tokens_per_s }),
            alloc::format!(
                "{} chips, {}, {} GEMMs at {} of peak",
                cl.chips(),
                t.layout,
                r.dtype,
                pct(t.parts.gemm_efficiency)
            ),
        ),
        None => (Err(err), alloc::format!("{} chips", cl.chips())),
    }
}

fn pct(x: f64) -> String {
    alloc::format!("{:.1}%", x * 100.0)
}

fn run_serve(
    system: &str,
    tp: u32,
    batch: u32,
    kernel_factor: f64,
) -> (Result<f64, WorkloadError>, String) {
    let (cl, chip, model) = match setup(system, 1, "llama2-70b") {
        Ok(x) => x,
        Err(e) => return (Err(e), String::new()),
    };
    let mut cfg = InferConfig::new(model, Dtype::Fp8, batch, 290, 290);
    cfg.tp = Some(tp);
    cfg.kernel_factor = kernel_factor;
    let setup = alloc::format!(
        "TP{tp} replicas of {batch} sequences, FP8, 290 prompt + 290 output tokens, serving kernels at {:.2} of the FP8 large-matmul rate",
        kernel_factor
    );
    (infer(&cl, &chip, &cfg).map(|r| r.tokens_per_s), setup)
}

/// Which latency of one request a point measured.
#[derive(Clone, Copy)]
enum Latency {
    /// Time to the first token: the prompt's prefill and the first decode step.
    FirstToken,
    /// Time between output tokens: one decode step.
    PerToken,
}

/// One replica of `tp` chips on one node of `system` serving `batch` sequences of `model`:
/// the latency a request sees.
fn run_latency(
    (system, model, dtype): (&str, &str, Dtype),
    (tp, batch, prompt, output): (u32, u32, u32, u32),
    which: Latency,
    (layer_fixed, compiled, (draft, acceptance)): (Option<f64>, Option<Compiled>, (u32, f64)),
) -> (Result<f64, WorkloadError>, String) {
    let (cl, chip, m) = match setup(system, 1, model) {
        Ok(x) => x,
        Err(e) => return (Err(e), String::new()),
    };
    let mut cfg = InferConfig::new(m, dtype, batch, prompt, output);
    cfg.tp = Some(tp);
    if let Some(f) = layer_fixed {
        cfg.neuron_layer_fixed_s = f;
    }
    cfg.compiled = compiled;
    cfg.draft_tokens = draft;
    cfg.acceptance = acceptance;
    let setup = alloc::format!(
        "one replica of {tp} chip{} holding {batch} sequence{}{}, {dtype}, {prompt} prompt + {output} output tokens{}; {}",
        if tp == 1 { "" } else { "s" },
        if batch == 1 { "" } else { "s" },
        compiled.map_or(String::new(), |c| alloc::format!(
            " (compiled for {} of up to {} tokens, {})",
            if c.batch == 1 { String::from("one") } else { alloc::format!("{}", c.batch) },
            c.seq,
            if c.buckets.is_empty() {
                String::from("buckets of powers of two")
            } else {
                alloc::format!("buckets {:?}", c.buckets)
            }
        )),
        if draft > 0 {
            alloc::format!(
                ", {draft} drafted token{} per step by a one-layer head, each accepted with probability {acceptance:.3}",
                if draft == 1 { "" } else { "s" }
            )
        } else {
            String::new()
        },
        match which {
            Latency::FirstToken => "prefill plus one decode step",
            Latency::PerToken => "one decode step",
        }
    );
    let r = infer(&cl, &chip, &cfg).map(|r| match which {
        Latency::FirstToken => r.prefill.get() / f64::from(batch) + r.decode_step.get(),
        Latency::PerToken => r.decode_step.get(),
    });
    (r, setup)
}

/// The x in [lo, hi] at which the increasing function `f` reaches `target` (bisection).
pub(crate) fn solve(lo: f64, hi: f64, target: f64, f: impl Fn(f64) -> Option<f64>) -> Option<f64> {
    let (mut a, mut b) = (lo, hi);
    if f(a)? > target || f(b)? < target {
        return None;
    }
    for _ in 0..40 {
        let mid = 0.5 * (a + b);
        if f(mid)? < target {
            a = mid;
        } else {
            b = mid;
        }
    }
    Some(0.5 * (a + b))
}

/// The Trn1 GPT-3 175B run Trainium's BF16 matmul efficiency is fitted to.
fn trn1_gpt3(efficiency: Option<f64>) -> TrainRun {
    TrainRun {
        system: "trn1-16",
        nodes: 32,
        model: "gpt3-175b",
        dtype: Dtype::Bf16,
        global_batch: 1024,
        degrees: (16, 8, 4),
        cp: 1,
        zero: 1,
        ep: 1,
        micro_batch: 1,
        efficiency,
        variants: RECOMPUTE,
        mfu: true,
        recipe: Recipe::PLAIN,
    }
}

/// Fit Trainium's BF16 matmul efficiency to the Trn1 GPT-3 175B run (33.14% MFU, Neuron
/// 2.13): the efficiency at which the model's MFU equals the measured one.
#[must_use]
pub fn fit_trainium_efficiency() -> Option<f64> {
    solve(0.2, 1.0, 0.3314, |e| run_train(&trn1_gpt3(Some(e))).0.ok())
}

/// Fit Neuron's fixed time per decoder layer to AWS's Llama 3.3 70B tutorial on trn2.48xlarge
/// (19.6 ms per output token at batch 1, P50).
#[must_use]
pub fn fit_neuron_layer_fixed() -> Option<f64> {
    solve(0.0, 1e-3, 19.6e-3, |f| {
        run_latency(
            ("trn2-16", "llama3-70b", Dtype::Bf16),
            (16, 1, 10_000, 1_500),
            Latency::PerToken,
            (Some(f), Some(TUTORIAL_70B), (0, 0.0)),
        )
        .0
        .ok()
    })
}

/// Fit the serving kernel factor to the 8 × H200 MLPerf Inference v4.1 Llama 2 70B Offline
/// run (31,302.7 tokens/s).
#[must_use]
pub fn fit_serving_factor() -> Option<f64> {
    solve(0.2, 1.0, 31_302.7, |k| {
        run_serve("hgx-h200-8", 1, 806, k).0.ok()
    })
}

const RECOMPUTE: &[(u32, bool)] = &[(1, true)];
const INTERLEAVED: &[(u32, bool)] = &[
    (1, false),
    (1, true),
    (2, false),
    (2, true),
    (4, false),
    (4, true),
];

/// NeMo's Llama 3 70B FP8 run on 64 H100s with the given (virtual stages, recompute) variants.
fn nemo_llama3_70b(variants: &'static [(u32, bool)]) -> TrainRun {
    TrainRun {
        system: "hgx-h100-8",
        nodes: 8,
        model: "llama3-70b",
        dtype: Dtype::Fp8,
        global_batch: 128,
        degrees: (4, 4, 2),
        cp: 2,
        zero: 1,
        ep: 1,
        micro_batch: 1,
        efficiency: None,
        variants,
        mfu: false,
        recipe: Recipe::PLAIN,
    }
}

/// NeMo's GPT-3 175B FP8 run on 512 H100s.
fn nemo_gpt3(variants: &'static [(u32, bool)]) -> TrainRun {
    TrainRun {
        system: "hgx-h100-8",
        nodes: 64,
        model: "gpt3-175b",
        dtype: Dtype::Fp8,
        global_batch: 2048,
        degrees: (4, 8, 16),
        cp: 1,
        zero: 1,
        ep: 1,
        micro_batch: 2,
        efficiency: None,
        variants,
        mfu: false,
        recipe: Recipe::PLAIN,
    }
}

mod moe;
mod serving;
mod training;

/// The training and serving points, each evaluated with today's model and defaults.
#[must_use]
pub fn points() -> Vec<RunPoint> {
    let mut out = training::points();
    out.extend(serving::points());
    out.extend(moe::points());
    out
}

const PLAIN_OR_RECOMPUTE: &[(u32, bool)] = &[(1, false), (1, true)];
const INTERLEAVED_2: &[(u32, bool)] = &[(2, false), (2, true)];
const INTERLEAVED_4: &[(u32, bool)] = &[(4, false), (4, true)];
const INTERLEAVED_8: &[(u32, bool)] = &[(8, false), (8, true)];
const INTERLEAVED_5: &[(u32, bool)] = &[(5, false), (5, true)];
const INTERLEAVED_6: &[(u32, bool)] = &[(6, false), (6, true)];
