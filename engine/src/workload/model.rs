//! Model shapes: the presets, parameter counts, and FLOPs and bytes per token.

use alloc::string::String;
use alloc::vec::Vec;

use crate::dtype::Dtype;

use super::WorkloadError;

/// A transformer's shape. MoE models set `experts` > 0.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Model {
    /// Stable id: `llama3-70b`.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Transformer layers.
    pub layers: u32,
    /// Model (hidden) dimension d.
    pub hidden: u32,
    /// Query heads.
    pub heads: u32,
    /// Key/value heads (GQA; equal to `heads` for MHA).
    pub kv_heads: u32,
    /// FFN inner dimension of dense layers.
    pub ffn: u32,
    /// Gated FFN (SwiGLU: three matrices) or not (GELU: two).
    pub gated: bool,
    /// Vocabulary size.
    pub vocab: u32,
    /// Training sequence length.
    pub seq: u32,
    /// Routed experts per MoE layer (0 for a dense model).
    pub experts: u32,
    /// Experts each token is routed to.
    pub active_experts: u32,
    /// Always-on shared experts per MoE layer.
    pub shared_experts: u32,
    /// FFN inner dimension of one expert.
    pub expert_ffn: u32,
    /// Leading layers that stay dense in an MoE model.
    pub dense_layers: u32,
    /// Dimension per head when it is not hidden ÷ heads (Qwen3), else 0.
    #[cfg_attr(feature = "serde", serde(default))]
    pub head_dim: u32,
    /// The output head shares the embedding's weights.
    #[cfg_attr(feature = "serde", serde(default))]
    pub tied: bool,
    /// The query, key and value projections carry biases (Qwen2).
    #[cfg_attr(feature = "serde", serde(default))]
    pub qkv_bias: bool,
    /// Multi-head latent attention (DeepSeek-V2/V3), if the model uses it.
    #[cfg_attr(feature = "serde", serde(default))]
    pub mla: Option<Mla>,
    /// Count each MoE layer's router (hidden × experts). Models read from a config do; the
    /// presets were defined without it, and old links must keep their results.
    #[cfg_attr(feature = "serde", serde(default))]
    pub router: bool,
}

/// The dimensions of multi-head latent attention: queries and keys/values go through
/// low-rank projections, and the KV cache holds the compressed latent and the rotary key.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Mla {
    /// Rank of the query compression (0: queries are projected directly).
    pub q_lora: u32,
    /// Rank of the key/value compression (the latent cached per token).
    pub kv_lora: u32,
    /// Per-head query/key dimension without rotary embedding.
    pub qk_nope: u32,
    /// Per-head (and shared) rotary key dimension.
    pub qk_rope: u32,
    /// Per-head value dimension.
    pub v_head: u32,
}

impl Model {
    pub(crate) fn d(&self) -> f64 {
        f64::from(self.hidden)
    }
    /// Dimension per head.
    #[must_use]
    pub fn head_dim(&self) -> f64 {
        if self.head_dim > 0 {
            f64::from(self.head_dim)
        } else {
            self.d() / f64::from(self.heads)
        }
    }
    pub(crate) fn attn_params(&self) -> f64 {
        let d = self.d();
        let h = f64::from(self.heads);
        if let Some(a) = self.mla {
            let (nope, rope, v) = (
                f64::from(a.qk_nope),
                f64::from(a.qk_rope),
                f64::from(a.v_head),
            );
            let (ql, kl) = (f64::from(a.q_lora), f64::from(a.kv_lora));
            let q = if a.q_lora > 0 {
                d * ql + ql + ql * h * (nope + rope)
            } else {
                d * h * (nope + rope)
            };
            // Down-projection to the latent and the shared rotary key, its norm, the
            // up-projection to per-head keys and values, and the output.
            return q + d * (kl + rope) + kl + kl * h * (nope + v) + h * v * d;
        }
        if self.head_dim == 0 && !self.qkv_bias {
            return 2.0 * d * d + 2.0 * d * f64::from(self.kv_heads) * self.head_dim();
        }
        let (hd, kv) = (self.head_dim(), f64::from(self.kv_heads));
        let bias = if self.qkv_bias {
            (h + 2.0 * kv) * hd
        } else {
            0.0
        };
        2.0 * d * h * hd + 2.0 * d * kv * hd + bias
    }
    pub(crate) fn ffn_params(&self, inner: u32) -> f64 {
        (if self.gated { 3.0 } else { 2.0 }) * self.d() * f64::from(inner)
    }
    pub(crate) fn moe_layers(&self) -> f64 {
        if self.experts == 0 {
            0.0
        } else {
            f64::from(self.layers - self.dense_layers)
        }
    }
    pub(crate) fn dense_ffn_layers(&self) -> f64 {
        f64::from(self.layers) - self.moe_layers()
    }
    /// Parameters of all experts of one MoE layer.
    pub(crate) fn expert_params(&self, n: u32) -> f64 {
        f64::from(n) * self.ffn_params(self.expert_ffn)
    }
    /// Every parameter, embeddings and output head included.
    #[must_use]
    pub fn params_total(&self) -> f64 {
        let l = f64::from(self.layers);
        l * self.attn_params()
            + self.dense_ffn_layers() * self.ffn_params(self.ffn)
            + self.moe_layers() * self.expert_params(self.experts + self.shared_experts)
            + self.moe_layers() * self.router_params()
            + if self.tied { 1.0 } else { 2.0 } * f64::from(self.vocab) * self.d()
    }
    /// The router of one MoE layer (one score per routed expert), in a model read from a
    /// config; the presets leave it out.
    fn router_params(&self) -> f64 {
        if self.router {
            self.d() * f64::from(self.experts)
        } else {
            0.0
        }
    }
    /// Parameters one token's matmuls touch (the output head counts, the embedding lookup not).
    #[must_use]
    pub fn params_active(&self) -> f64 {
        let l = f64::from(self.layers);
        l * self.attn_params()
            + self.dense_ffn_layers() * self.ffn_params(self.ffn)
            + self.moe_layers() * self.expert_params(self.active_experts + self.shared_experts)
            + self.moe_layers() * self.router_params()
            + f64::from(self.vocab) * self.d()
    }
    /// Forward FLOPs per token at context length `ctx` (2·N + attention 4·L·d·ctx/2, causal).
    #[must_use]
    pub fn forward_flops_per_token(&self, ctx: f64) -> f64 {
        2.0 * self.params_active() + 2.0 * f64::from(self.layers) * self.d() * ctx
    }
    /// Training FLOPs per token, PaLM convention: 6·N + 12·L·d·s.
    #[must_use]
    pub fn train_flops_per_token(&self) -> f64 {
        6.0 * self.params_active() + 12.0 * f64::from(self.layers) * self.d() * f64::from(self.seq)
    }
    /// KV-cache bytes per token of context in format `d`.
    #[must_use]
    pub fn kv_bytes_per_token(&self, d: Dtype) -> f64 {
        if let Some(a) = self.mla {
            // The compressed latent and the shared rotary key, once per layer.
            return f64::from(self.layers) * f64::from(a.kv_lora + a.qk_rope) * d.bytes();
        }
        2.0 * f64::from(self.layers) * f64::from(self.kv_heads) * self.head_dim() * d.bytes()
    }
}

/// The presets: Llama 3 8B/70B/405B, Llama 2 70B (the MLPerf Inference model), GPT-3 175B, Mixtral 8x7B, DeepSeek-V3 (MLA approximated
/// as GQA with the same KV size per token is not attempted: its attention is counted as MHA
/// over 128 heads, which slightly overstates attention parameters).
#[must_use]
pub fn models() -> Vec<Model> {
    let m = |id: &str, name: &str, layers, hidden, heads, kv_heads, ffn, gated, vocab, seq| Model {
        id: id.into(),
        name: name.into(),
        layers,
        hidden,
        heads,
        kv_heads,
        ffn,
        gated,
        vocab,
        seq,
        ..Model::default()
    };
    let mut mixtral = m(
        "mixtral-8x7b",
        "Mixtral 8x7B",
        32,
        4096,
        32,
        8,
        14336,
        true,
        32000,
        4096,
    );
    mixtral.experts = 8;
    mixtral.active_experts = 2;
    mixtral.expert_ffn = 14336;
    let mut dsv3 = m(
        "deepseek-v3",
        "DeepSeek-V3",
        61,
        7168,
        128,
        128,
        18432,
        true,
        129_280,
        4096,
    );
    dsv3.experts = 256;
    dsv3.active_experts = 8;
    dsv3.shared_experts = 1;
    dsv3.expert_ffn = 2048;
    dsv3.dense_layers = 3;
    alloc::vec![
        m(
            "llama3-8b",
            "Llama 3 8B",
            32,
            4096,
            32,
            8,
            14336,
            true,
            128_256,
            8192
        ),
        m(
            "llama3-70b",
            "Llama 3 70B",
            80,
            8192,
            64,
            8,
            28672,
            true,
            128_256,
            8192
        ),
        m(
            "llama2-70b",
            "Llama 2 70B",
            80,
            8192,
            64,
            8,
            28672,
            true,
            32_000,
            4096
        ),
        m(
            "llama3-405b",
            "Llama 3.1 405B",
            126,
            16384,
            128,
            8,
            53248,
            true,
            128_256,
            8192
        ),
        m(
            "gpt3-175b",
            "GPT-3 175B",
            96,
            12288,
            96,
            96,
            49152,
            false,
            50257,
            2048
        ),
        mixtral,
        dsv3,
    ]
}

/// The model with this id.
///
/// # Errors
/// [`WorkloadError::UnknownModel`] listing the valid ids.
pub fn find_model(id: &str) -> Result<Model, WorkloadError> {
    if id.starts_with(super::custom::PREFIX) {
        return Model::parse_spec(id);
    }
    models()
        .into_iter()
        .find(|m| m.id == id)
        .ok_or_else(|| WorkloadError::UnknownModel(id.into()))
}
