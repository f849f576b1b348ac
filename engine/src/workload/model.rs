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
    /// Layers whose attention sees only a window of `window` tokens (gpt-oss, Gemma,
    /// Mistral 7B's sliding window; Llama 4's chunks): 0 when every layer attends to the
    /// whole context.
    #[cfg_attr(feature = "serde", serde(default))]
    pub window_layers: u32,
    /// Those layers' window, in tokens.
    #[cfg_attr(feature = "serde", serde(default))]
    pub window: u32,
    /// The windows are fixed chunks (a token attends to the tokens of its chunk before it,
    /// Llama 4) rather than sliding over the last `window` tokens.
    #[cfg_attr(feature = "serde", serde(default))]
    pub chunked: bool,
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
    /// The layers with a window, bounded by the layers there are.
    fn windowed(&self) -> f64 {
        if self.window == 0 {
            0.0
        } else {
            f64::from(self.window_layers.min(self.layers))
        }
    }

    /// The context a token at position `ctx` attends to, averaged over the layers, which is
    /// also the KV cache a sequence of `ctx` tokens keeps per layer: `ctx` in a full-attention
    /// layer, at most the window in a windowed one (for chunks, the most a chunk holds).
    #[must_use]
    pub fn attended(&self, ctx: f64) -> f64 {
        let w = self.windowed();
        if w == 0.0 {
            return ctx;
        }
        let l = f64::from(self.layers);
        ((l - w) * ctx + w * ctx.min(f64::from(self.window))) / l
    }

    /// The mean context attended by the tokens at positions `from` to `to` (a causal pass
    /// over them, the tokens before `from` already cached), averaged over the layers: for full
    /// attention (from + to)/2; in a window, what the window leaves, exactly.
    #[must_use]
    pub fn mean_attended(&self, from: f64, to: f64) -> f64 {
        let full = (from + to) / 2.0;
        let wl = self.windowed();
        if wl == 0.0 || to <= from {
            return full;
        }
        let w = f64::from(self.window);
        // The integral of min(p, w) over [from, to], or of p mod w for chunks.
        let win = if self.chunked {
            let chunk = |x: f64| {
                let k = libm::floor(x / w);
                k * w * w / 2.0 + (x - k * w) * (x - k * w) / 2.0
            };
            (chunk(to) - chunk(from)) / (to - from)
        } else {
            let int = |x: f64| {
                if x <= w {
                    x * x / 2.0
                } else {
                    w * w / 2.0 + (x - w) * w
                }
            };
            (int(to) - int(from)) / (to - from)
        };
        let l = f64::from(self.layers);
        ((l - wl) * full + wl * win) / l
    }

    /// The share of full causal attention's work a pass over `s` tokens does: 1 without
    /// windows.
    #[must_use]
    pub fn causal_share(&self, s: f64) -> f64 {
        if self.windowed() == 0.0 || s <= 0.0 {
            1.0
        } else {
            self.mean_attended(0.0, s) / (s / 2.0)
        }
    }

    /// Forward FLOPs per token at context length `ctx` (2·N + attention 4·L·d·ctx/2, causal).
    #[must_use]
    pub fn forward_flops_per_token(&self, ctx: f64) -> f64 {
        2.0 * self.params_active() + 2.0 * f64::from(self.layers) * self.d() * ctx
    }
    /// Training FLOPs per token, PaLM convention: 6·N + 12·L·d·s.
    #[must_use]
    pub fn train_flops_per_token(&self) -> f64 {
        let s = f64::from(self.seq);
        6.0 * self.params_active()
            + 12.0 * f64::from(self.layers) * self.d() * s * self.causal_share(s)
    }
    /// KV-cache bytes a sequence of `ctx` tokens keeps, in format `d`: a windowed layer
    /// keeps only its window.
    #[must_use]
    pub fn kv_bytes(&self, d: Dtype, ctx: f64) -> f64 {
        self.kv_bytes_per_token(d) * self.attended(ctx)
    }

    /// KV-cache bytes per token of context in format `d`, every layer counted (a windowed
    /// layer's window is full: see [`Model::kv_bytes`]).
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

#[cfg(test)]
mod tests {
    use super::*;

    /// gpt-oss-120b as its config gives it (36 layers alternating a 128-token sliding window
    /// and full attention, 8 key/value heads of 64).
    fn gpt_oss(windows: bool) -> Model {
        let w = if windows { ",wl18,w128" } else { "" };
        Model::parse_spec(&format!(
            "m:l36,d2880,h64,kv8,f2880,v201088,s8192,e128,k4,ef2880,hd64{w},n:gpt-oss-120b"
        ))
        .unwrap()
    }

    #[test]
    fn windows_keep_only_their_tokens() {
        let (full, win) = (gpt_oss(false), gpt_oss(true));
        // Every layer full: 2 × 36 layers × 8 heads × 64 × 2 bytes = 73,728 bytes a token.
        assert_eq!(full.kv_bytes_per_token(Dtype::Bf16), 73_728.0);
        // Half the layers keep 128 tokens: over 8,192 tokens, (18·8192 + 18·128)/36/8192.
        let ctx = 8192.0;
        let share = win.kv_bytes(Dtype::Bf16, ctx) / full.kv_bytes(Dtype::Bf16, ctx);
        assert!(
            (share - (8192.0 + 128.0) / (2.0 * 8192.0)).abs() < 1e-12,
            "{share}"
        );
        // Within the window nothing changes.
        assert_eq!(win.attended(100.0), 100.0);
        // A causal pass: the windowed half attends to min(p, 128), exactly.
        let s = 1024.0;
        let by_sum: f64 = (0..1024).map(|p| f64::from(p).min(128.0)).sum::<f64>() / s;
        let mean = win.mean_attended(0.0, s);
        assert!((mean - (s / 2.0 + by_sum) / 2.0).abs() < 0.6, "{mean}");
        assert!(win.train_flops_per_token() < full.train_flops_per_token());
        assert_eq!(full.causal_share(s), 1.0);
        // The spec carries the windows.
        assert_eq!(Model::parse_spec(&win.to_spec()).unwrap(), win);
    }

    #[test]
    fn chunks_reset_at_their_boundary() {
        let m = Model::parse_spec("m:l4,d512,h8,kv8,f1024,v1000,s8192,wl3,w1024,ck1").unwrap();
        // Over 4 chunks, a chunked layer's mean context is half a chunk.
        let mean = m.mean_attended(0.0, 4096.0);
        assert!((mean - (2048.0 + 3.0 * 512.0) / 4.0).abs() < 1e-9, "{mean}");
        assert!(Model::parse_spec("m:l4,d512,h8,kv8,f1024,v1000,s8192,wl5,w1024").is_err());
        assert!(Model::parse_spec("m:l4,d512,h8,kv8,f1024,v1000,s8192,wl2").is_err());
        assert!(Model::parse_spec("m:l4,d512,h8,kv8,f1024,v1000,s8192,ck1").is_err());
    }
}
