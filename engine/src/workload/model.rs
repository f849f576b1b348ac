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
    /// Layers of linear attention (Gated DeltaNet, Qwen3-Next): no KV cache, a fixed state
    /// per sequence instead; 0 for none.
    #[cfg_attr(feature = "serde", serde(default))]
    pub linear_layers: u32,
    /// Their shape: key heads, value heads, key and value head dimensions, and the width of
    /// their short convolution.
    #[cfg_attr(feature = "serde", serde(default))]
    pub linear: [u32; 5],
    /// DeepSeek's sparse attention: each token attends to the `topk` tokens a lightning
    /// indexer picks (0: every token).
    #[cfg_attr(feature = "serde", serde(default))]
    pub sparse_topk: u32,
    /// The indexer's heads and head dimension.
    #[cfg_attr(feature = "serde", serde(default))]
    pub indexer: [u32; 2],
    /// Multi-token prediction modules trained beside the model (DeepSeek-V3 has one): each
    /// one more transformer layer and one more pass through the output head, on the last
    /// pipeline stage. Not counted in the model's size, as published sizes leave them out.
    #[cfg_attr(feature = "serde", serde(default))]
    pub mtp: u32,
}

/// Bytes the sparse-attention indexer keeps per token per layer: its FP8 key and one FP32
/// scale (DeepSeek-V3.2's reference implementation and vLLM's cache layout).
const INDEXER_KEY_EXTRA: f64 = 4.0;

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
    /// Attention parameters of every layer: full or windowed attention, linear attention and
    /// the sparse-attention indexer where the model has them.
    pub(crate) fn attn_params_all(&self) -> f64 {
        let l = f64::from(self.layers);
        if self.linear_layers == 0 && self.sparse_topk == 0 {
            return l * self.attn_params();
        }
        let ll = f64::from(self.linear_layers.min(self.layers));
        let d = self.d();
        let [nk, nv, dk, dv, conv] = self.linear.map(f64::from);
        // Gated DeltaNet: q, k, v and the output gate z in; the decay and write rates (a, b);
        // the short convolution over q, k and v; the output, its norm, A and the dt bias.
        let linear = d * (2.0 * nk * dk + 2.0 * nv * dv)
            + d * 2.0 * nv
            + (2.0 * nk * dk + nv * dv) * conv
            + nv * dv * d
            + dv
            + 2.0 * nv;
        let [ih, idim] = self.indexer.map(f64::from);
        let q = self.mla.map_or(d, |a| f64::from(a.q_lora.max(1)));
        let indexer = if self.sparse_topk > 0 {
            q * ih * idim + d * idim + d * ih + 2.0 * idim
        } else {
            0.0
        };
        (l - ll) * self.attn_params() + ll * linear + l * indexer
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
        self.attn_params_all()
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
        self.attn_params_all()
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

    /// Layers of linear attention, bounded by the layers there are.
    fn linear_count(&self) -> f64 {
        f64::from(self.linear_layers.min(self.layers))
    }

    /// Whether every layer attends to the whole context (no window, linear layer or sparse
    /// attention): the presets, whose figures must not move by a rounding.
    fn plain(&self) -> bool {
        self.windowed() == 0.0 && self.linear_layers == 0 && self.sparse_topk == 0
    }

    /// The KV cache a sequence of `ctx` tokens keeps, in tokens, averaged over the layers:
    /// `ctx` in a full-attention layer, at most the window in a windowed one (for chunks, the
    /// most a chunk holds), none in a linear-attention layer. Sparse attention keeps every
    /// token.
    #[must_use]
    pub fn attended(&self, ctx: f64) -> f64 {
        if self.plain() {
            return ctx;
        }
        let (l, w, ll) = (f64::from(self.layers), self.windowed(), self.linear_count());
        ((l - w - ll) * ctx + w * ctx.min(f64::from(self.window))) / l
    }

    /// The context a token at position `ctx` reads and computes with, averaged over the
    /// layers: [`Model::attended`], but at most the `topk` tokens sparse attention picks.
    #[must_use]
    pub fn attended_read(&self, ctx: f64) -> f64 {
        if self.sparse_topk == 0 {
            return self.attended(ctx);
        }
        self.attended(ctx.min(f64::from(self.sparse_topk)))
    }

    /// The mean context attended by the tokens at positions `from` to `to` (a causal pass
    /// over them, the tokens before `from` already cached), averaged over the layers: for full
    /// attention (from + to)/2; in a window (or sparse attention's top k), what it leaves,
    /// exactly; nothing in a linear-attention layer.
    #[must_use]
    pub fn mean_attended(&self, from: f64, to: f64) -> f64 {
        let full = (from + to) / 2.0;
        if self.plain() || to <= from {
            return full;
        }
        // The mean over [from, to] of min(p, w), or of p mod w for chunks.
        let capped = |w: f64, chunked: bool| {
            let int = |x: f64| {
                if chunked {
                    let k = libm::floor(x / w);
                    k * w * w / 2.0 + (x - k * w) * (x - k * w) / 2.0
                } else if x <= w {
                    x * x / 2.0
                } else {
                    w * w / 2.0 + (x - w) * w
                }
            };
            (int(to) - int(from)) / (to - from)
        };
        let (l, wl, ll) = (f64::from(self.layers), self.windowed(), self.linear_count());
        let full_part = if self.sparse_topk > 0 {
            capped(f64::from(self.sparse_topk), false)
        } else {
            full
        };
        let win_part = if wl > 0.0 {
            capped(f64::from(self.window), self.chunked)
        } else {
            0.0
        };
        ((l - wl - ll) * full_part + wl * win_part) / l
    }

    /// The share of full causal attention's work a pass over `s` tokens does: 1 when every
    /// layer attends to the whole context.
    #[must_use]
    pub fn causal_share(&self, s: f64) -> f64 {
        if self.plain() || s <= 0.0 {
            1.0
        } else {
            self.mean_attended(0.0, s) / (s / 2.0)
        }
    }

    /// The sparse-attention indexer's FLOPs for one token scoring `ctx` tokens (0 without
    /// one): every layer's heads dot its query with each token's key.
    #[must_use]
    pub fn indexer_flops(&self, ctx: f64) -> f64 {
        if self.sparse_topk == 0 {
            return 0.0;
        }
        let [ih, idim] = self.indexer.map(f64::from);
        2.0 * f64::from(self.layers) * ih * idim * ctx
    }

    /// Bytes of the indexer's keys one token keeps (and a decoded token reads for each token
    /// of its context): 0 without one.
    #[must_use]
    pub fn indexer_bytes_per_token(&self) -> f64 {
        if self.sparse_topk == 0 {
            return 0.0;
        }
        f64::from(self.layers) * (f64::from(self.indexer[1]) + INDEXER_KEY_EXTRA)
    }

    /// Elements of the fixed state one sequence keeps in its linear-attention layers: each
    /// value head's key-by-value matrix and the short convolution's window.
    #[must_use]
    pub fn linear_state(&self) -> f64 {
        let [nk, nv, dk, dv, conv] = self.linear.map(f64::from);
        self.linear_count() * (nv * dk * dv + (2.0 * nk * dk + nv * dv) * (conv - 1.0).max(0.0))
    }

    /// The linear-attention layers' recurrence, FLOPs per token (0 without them): in each
    /// value head the delta rule reads the key-by-value state with the key (2·dk·dv), writes
    /// it back decayed with a rank-one update (3·dk·dv) and reads it with the query
    /// (2·dk·dv). Their projections are parameters, counted with the rest.
    #[must_use]
    pub fn linear_flops_per_token(&self) -> f64 {
        let [_, nv, dk, dv, _] = self.linear.map(f64::from);
        self.linear_count() * 7.0 * nv * dk * dv
    }

    /// Forward FLOPs per token at context length `ctx` (2·N + attention 4·L·d·ctx/2, causal,
    /// and the linear-attention layers' recurrence).
    #[must_use]
    pub fn forward_flops_per_token(&self, ctx: f64) -> f64 {
        2.0 * self.params_active()
            + 2.0 * f64::from(self.layers) * self.d() * ctx
            + self.linear_flops_per_token()
    }
    /// Training FLOPs per token, PaLM convention: 6·N + 12·L·d·s (and three times the
    /// linear-attention recurrence's forward FLOPs).
    #[must_use]
    pub fn train_flops_per_token(&self) -> f64 {
        let s = f64::from(self.seq);
        6.0 * self.params_active()
            + 12.0 * f64::from(self.layers) * self.d() * s * self.causal_share(s)
            + 3.0 * self.linear_flops_per_token()
    }
    /// KV-cache bytes a sequence of `ctx` tokens keeps, in format `d`: a windowed layer
    /// keeps only its window.
    #[must_use]
    pub fn kv_bytes(&self, d: Dtype, ctx: f64) -> f64 {
        if self.plain() {
            return self.kv_bytes_per_token(d) * ctx;
        }
        // Linear layers' state is taken in the cache's format (implementations differ).
        self.kv_bytes_per_token(d) * self.attended(ctx)
            + self.indexer_bytes_per_token() * ctx
            + self.linear_state() * d.bytes()
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
    (0..MODEL_IDS.len()).map(preset).collect()
}

/// The preset at `k` of [`MODEL_IDS`] alone: a lookup neither builds nor parses the others.
fn preset(k: usize) -> Model {
    let classic = MODEL_IDS.len() - TODAYS.len();
    match TODAYS.get(k.wrapping_sub(classic)) {
        Some(spec) => {
            let mut m = Model::parse_spec(spec).unwrap_or_default();
            m.id = MODEL_IDS[k].into();
            m
        }
        None => classic_models().swap_remove(k),
    }
}

/// The presets written out field by field (those before today's in [`MODEL_IDS`]).
fn classic_models() -> Vec<Model> {
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
    // DeepSeek-V3 technical report, section 2.2: one MTP module (depth 1).
    dsv3.mtp = 1;
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

/// Every preset's id in the order [`models`] lists them (today's models last): what a
/// link's model is checked against without building the presets or carrying their specs.
pub const MODEL_IDS: [&str; 15] = [
    "llama3-8b",
    "llama3-70b",
    "llama2-70b",
    "llama3-405b",
    "gpt3-175b",
    "mixtral-8x7b",
    "deepseek-v3",
    "deepseek-r1",
    "gpt-oss-120b",
    "gpt-oss-20b",
    "qwen3-30b-a3b",
    "qwen3-235b-a22b",
    "llama4-scout",
    "llama4-maverick",
    "kimi-k2",
];

/// Whether `id` names a model: a preset's id, or a spec that reads.
///
/// # Errors
/// [`WorkloadError::UnknownModel`], or what is wrong with the spec.
pub fn check_model(id: &str) -> Result<(), WorkloadError> {
    if id.starts_with(super::custom::PREFIX) {
        Model::parse_spec(id).map(drop)
    } else if MODEL_IDS.contains(&id) {
        Ok(())
    } else {
        Err(WorkloadError::UnknownModel(id.into()))
    }
}

/// The models buyers serve today, as their Hugging Face configs give them (read into specs
/// by [`Model::parse_spec`]): DeepSeek-R1 with its latent attention (the `deepseek-v3`
/// preset above keeps the multi-head approximation links made with it rely on), gpt-oss
/// with its 128-token windows on every other layer, Qwen3's mixtures of experts, Llama 4
/// with its shared expert, its dense layers between MoE layers (Maverick) and its 8,192-token
/// attention chunks on three layers in four, and Kimi K2; their ids close [`MODEL_IDS`].
const TODAYS: [&str; 8] = [
    "m:l61,d7168,h128,kv128,f18432,v129280,s163840,e256,k8,sh1,ef2048,dl3,mla1536.512.128.64.128,n:DeepSeek-R1",
    "m:l36,d2880,h64,kv8,f2880,v201088,s131072,e128,k4,ef2880,hd64,wl18,w128,n:gpt-oss-120b",
    "m:l24,d2880,h64,kv8,f2880,v201088,s131072,e32,k4,ef2880,hd64,wl12,w128,n:gpt-oss-20b",
    "m:l48,d2048,h32,kv4,f6144,v151936,s40960,e128,k8,ef768,hd128,n:Qwen3-30B-A3B",
    "m:l94,d4096,h64,kv4,f12288,v151936,s40960,e128,k8,ef1536,hd128,n:Qwen3-235B-A22B",
    "m:l48,d5120,h40,kv8,f16384,v202048,s262144,e16,k1,sh1,ef8192,hd128,wl36,w8192,ck1,n:Llama 4 Scout",
    "m:l48,d5120,h40,kv8,f16384,v202048,s262144,e128,k1,sh1,ef8192,dl24,hd128,wl36,w8192,ck1,n:Llama 4 Maverick",
    "m:l61,d7168,h64,kv64,f18432,v163840,s131072,e384,k8,sh1,ef2048,dl1,mla1536.512.128.64.128,n:Kimi K2",
];

/// The model with this id.
///
/// # Errors
/// [`WorkloadError::UnknownModel`] listing the valid ids.
pub fn find_model(id: &str) -> Result<Model, WorkloadError> {
    if id.starts_with(super::custom::PREFIX) {
        return Model::parse_spec(id);
    }
    MODEL_IDS
        .iter()
        .position(|m| *m == id)
        .map(preset)
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
    fn the_id_list_is_the_presets_ids() {
        let ids: Vec<String> = models().into_iter().map(|m| m.id).collect();
        assert_eq!(ids, MODEL_IDS);
        for id in MODEL_IDS {
            assert!(check_model(id).is_ok());
            assert_eq!(
                find_model(id).unwrap(),
                models().into_iter().find(|m| m.id == id).unwrap()
            );
        }
        // A preset is built alone from its spec: one that no longer reads would be a blank.
        for spec in TODAYS {
            assert!(Model::parse_spec(spec).is_ok(), "{spec}");
        }
        assert!(check_model("gpt-5").is_err());
        assert!(check_model("m:l2").is_err());
    }

    #[test]
    fn todays_models_hold_their_published_parameters() {
        // Total and active parameters as each model card states them: DeepSeek-R1 671 B and
        // 37 B (deepseek-ai/DeepSeek-R1); gpt-oss-120b 116.8 B and 5.1 B, gpt-oss-20b 20.9 B and
        // 3.6 B (openai/gpt-oss model card, Table 1); Qwen3-30B-A3B 30.5 B and 3.3 B,
        // Qwen3-235B-A22B 235 B and 22 B (Qwen/Qwen3 model cards); Llama 4 Scout 109 B and
        // 17 B, Maverick 400 B and 17 B (meta-llama model cards); Kimi K2 1.04 T and 32 B
        // (moonshotai/Kimi-K2-Instruct). Within 3% total and 10% active: norms, routers
        // and biases are counted differently from card to card.
        for (id, total, active) in [
            ("deepseek-r1", 671e9, 37e9),
            ("gpt-oss-120b", 116.8e9, 5.1e9),
            ("gpt-oss-20b", 20.9e9, 3.6e9),
            ("qwen3-30b-a3b", 30.5e9, 3.3e9),
            ("qwen3-235b-a22b", 235e9, 22e9),
            ("llama4-scout", 109e9, 17e9),
            ("llama4-maverick", 400e9, 17e9),
            ("kimi-k2", 1.04e12, 32e9),
        ] {
            let m = find_model(id).unwrap();
            let t = m.params_total() / total - 1.0;
            let a = m.params_active() / active - 1.0;
            assert!(
                t.abs() < 0.03 && a.abs() < 0.10,
                "{id}: total {t:+.3}, active {a:+.3}"
            );
        }
        // Latent attention keeps 576 values a layer a token, not 2 × 128 heads × 128.
        let r1 = find_model("deepseek-r1").unwrap();
        assert_eq!(r1.kv_bytes_per_token(Dtype::Bf16), 61.0 * 576.0 * 2.0);
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
