//! Your own model: a shape read from a Hugging Face `config.json` (Llama, Mistral, Mixtral,
//! Qwen2/2.5/3 dense and MoE, DeepSeek-V2/V3 with latent attention and shared experts, GPT-2)
//! or typed in, checked, and named by a compact spec that travels wherever a model id does:
//! `m:l32,d4096,h32,kv8,f14336,v128256,s8192,n:My model` (characters a link
//! carries as they are). Published sizes of
//! well-known shapes are found by matching the shape, so a pasted config shows its count
//! beside the vendor's.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::{Mla, Model, WorkloadError};
use crate::json::{self, Value};
use crate::source::Citation;

/// The prefix of a model spec.
pub const PREFIX: &str = "m:";
/// Longest model name kept, in characters.
pub const MAX_NAME: usize = 80;

/// Limits of a shape: beyond any model published, and small enough that the step and memory
/// arithmetic stays finite.
const LIMITS: [(&str, &str, u32, u32); 29] = [
    ("l", "layers", 1, 1024),
    ("d", "hidden size", 1, 262_144),
    ("h", "attention heads", 1, 4096),
    ("kv", "key/value heads", 1, 4096),
    ("f", "FFN size", 1, 4_000_000),
    ("v", "vocabulary", 1, 8_000_000),
    ("s", "sequence length", 1, 10_000_000),
    ("e", "routed experts", 0, 8192),
    ("k", "experts per token", 0, 8192),
    ("sh", "shared experts", 0, 64),
    ("ef", "expert FFN size", 0, 4_000_000),
    ("dl", "dense layers", 0, 1024),
    ("hd", "head dimension", 0, 65_536),
    ("g", "gated FFN (0 or 1)", 0, 1),
    ("tied", "tied embeddings (0 or 1)", 0, 1),
    ("bias", "QKV bias (0 or 1)", 0, 1),
    ("wl", "windowed layers", 0, 1024),
    ("w", "attention window", 0, 10_000_000),
    ("ck", "chunked windows (0 or 1)", 0, 1),
    ("ll", "linear-attention layers", 0, 1024),
    ("lk", "linear-attention key heads", 0, 4096),
    ("lv", "linear-attention value heads", 0, 4096),
    ("lkd", "linear-attention key head dimension", 0, 65_536),
    ("lvd", "linear-attention value head dimension", 0, 65_536),
    ("lc", "linear-attention convolution width", 0, 64),
    ("tk", "tokens sparse attention picks", 0, 10_000_000),
    ("ih", "sparse-attention indexer heads", 0, 4096),
    ("idim", "sparse-attention indexer head dimension", 0, 65_536),
    ("mtp", "multi-token prediction modules", 0, 16),
];

fn bad(what: String) -> WorkloadError {
    WorkloadError::BadInput(what)
}

/// A name safe inside a spec: no separators or control characters, at most [`MAX_NAME`].
#[must_use]
pub fn clean_name(name: &str) -> String {
    clean_text(name, &[';', '&', '=', '%'], MAX_NAME)
}

/// `name` with each of `separators` made a space, control characters dropped, at most `max`
/// characters, trimmed: a name that cannot break the format it sits in.
#[must_use]
pub(crate) fn clean_text(name: &str, separators: &[char], max: usize) -> String {
    name.chars()
        .map(|c| if separators.contains(&c) { ' ' } else { c })
        .filter(|c| !c.is_control())
        .take(max)
        .collect::<String>()
        .trim()
        .to_string()
}

impl Model {
    /// The compact spec of this shape (its id when it is not a preset).
    #[must_use]
    pub fn to_spec(&self) -> String {
        let mut s = format!(
            "{PREFIX}l{},d{},h{},kv{},f{},v{},s{}",
            self.layers, self.hidden, self.heads, self.kv_heads, self.ffn, self.vocab, self.seq
        );
        if !self.gated {
            s.push_str(",g0");
        }
        if self.experts > 0 {
            s.push_str(&format!(
                ",e{},k{},ef{}",
                self.experts, self.active_experts, self.expert_ffn
            ));
            if self.shared_experts > 0 {
                s.push_str(&format!(",sh{}", self.shared_experts));
            }
            if self.dense_layers > 0 {
                s.push_str(&format!(",dl{}", self.dense_layers));
            }
        }
        if self.head_dim > 0 {
            s.push_str(&format!(",hd{}", self.head_dim));
        }
        if self.tied {
            s.push_str(",tied1");
        }
        if self.qkv_bias {
            s.push_str(",bias1");
        }
        if self.window_layers > 0 {
            s.push_str(&format!(",wl{},w{}", self.window_layers, self.window));
            if self.chunked {
                s.push_str(",ck1");
            }
        }
        if self.linear_layers > 0 {
            let [nk, nv, dk, dv, conv] = self.linear;
            s.push_str(&format!(
                ",ll{},lk{nk},lv{nv},lkd{dk},lvd{dv},lc{conv}",
                self.linear_layers
            ));
        }
        if self.sparse_topk > 0 {
            s.push_str(&format!(
                ",tk{},ih{},idim{}",
                self.sparse_topk, self.indexer[0], self.indexer[1]
            ));
        }
        if let Some(a) = self.mla {
            s.push_str(&format!(
                ",mla{}.{}.{}.{}.{}",
                a.q_lora, a.kv_lora, a.qk_nope, a.qk_rope, a.v_head
            ));
        }
        if self.mtp > 0 {
            s.push_str(&format!(",mtp{}", self.mtp));
        }
        let name = clean_name(&self.name);
        if !name.is_empty() {
            s.push_str(",n:");
            s.push_str(&name);
        }
        s
    }

    /// Read a spec written by [`Model::to_spec`] (or by hand), checked by [`Model::check`].
    /// Models read this way count their MoE routers.
    ///
    /// # Errors
    /// A part that is not `key=value` with a known key, a value out of range, or a shape that
    /// does not hold together.
    pub fn parse_spec(spec: &str) -> Result<Model, WorkloadError> {
        let body = spec.strip_prefix(PREFIX).unwrap_or(spec);
        let mut m = Model {
            name: String::from("Custom model"),
            gated: true,
            seq: 4096,
            router: true,
            ..Model::default()
        };
        for part in body.split(',').filter(|p| !p.trim().is_empty()) {
            if let Some(name) = part.strip_prefix("n:") {
                if name.chars().count() > MAX_NAME {
                    return Err(bad(format!(
                        "a model's name has at most {MAX_NAME} characters"
                    )));
                }
                m.name = clean_name(name);
                continue;
            }
            let split = part
                .find(|c: char| !c.is_ascii_lowercase())
                .unwrap_or(part.len());
            let (k, v) = (&part[..split], part[split..].trim());
            if k == "mla" {
                let n: Vec<u32> = v
                    .split('.')
                    .map(|x| x.parse::<u32>().ok().filter(|x| *x <= 65_536))
                    .collect::<Option<Vec<_>>>()
                    .filter(|n| n.len() == 5)
                    .ok_or_else(|| {
                        bad(format!(
                            "mla '{}' is not q_lora.kv_lora.qk_nope.qk_rope.v_head",
                            v.chars().take(40).collect::<String>()
                        ))
                    })?;
                m.mla = Some(Mla {
                    q_lora: n[0],
                    kv_lora: n[1],
                    qk_nope: n[2],
                    qk_rope: n[3],
                    v_head: n[4],
                });
                continue;
            }
            let Some((_, what, lo, hi)) = LIMITS.iter().find(|(key, ..)| *key == k) else {
                let keys: Vec<&str> = LIMITS.iter().map(|(k, ..)| *k).collect();
                return Err(bad(format!(
                    "unknown model part '{}' (valid: {}, mla, n:name)",
                    part.chars().take(20).collect::<String>(),
                    keys.join(", ")
                )));
            };
            let x = v
                .parse::<u32>()
                .ok()
                .filter(|x| (*lo..=*hi).contains(x))
                .ok_or_else(|| {
                    bad(format!(
                        "the {what} '{}' is not a whole number from {lo} to {hi}",
                        v.chars().take(20).collect::<String>()
                    ))
                })?;
            match k {
                "l" => m.layers = x,
                "d" => m.hidden = x,
                "h" => m.heads = x,
                "kv" => m.kv_heads = x,
                "f" => m.ffn = x,
                "v" => m.vocab = x,
                "s" => m.seq = x,
                "e" => m.experts = x,
                "k" => m.active_experts = x,
                "sh" => m.shared_experts = x,
                "ef" => m.expert_ffn = x,
                "dl" => m.dense_layers = x,
                "hd" => m.head_dim = x,
                "g" => m.gated = x == 1,
                "tied" => m.tied = x == 1,
                "wl" => m.window_layers = x,
                "w" => m.window = x,
                "ck" => m.chunked = x == 1,
                "ll" => m.linear_layers = x,
                "lk" => m.linear[0] = x,
                "lv" => m.linear[1] = x,
                "lkd" => m.linear[2] = x,
                "lvd" => m.linear[3] = x,
                "lc" => m.linear[4] = x,
                "tk" => m.sparse_topk = x,
                "ih" => m.indexer[0] = x,
                "idim" => m.indexer[1] = x,
                "mtp" => m.mtp = x,
                _ => m.qkv_bias = x == 1,
            }
        }
        m.check().map_err(bad)?;
        m.id = m.to_spec();
        Ok(m)
    }

    /// Whether the shape holds together; the message names the first field that does not.
    ///
    /// # Errors
    /// A missing size, heads that do not divide, or experts that do not add up.
    pub fn check(&self) -> Result<(), String> {
        for (v, what) in [
            (self.layers, "layers"),
            (self.hidden, "hidden size"),
            (self.heads, "attention heads"),
            (self.kv_heads, "key/value heads"),
            (self.vocab, "vocabulary"),
            (self.seq, "sequence length"),
        ] {
            if v == 0 {
                return Err(format!("the model needs its {what}"));
            }
        }
        if self.ffn == 0 && (self.experts == 0 || self.dense_layers > 0) {
            return Err("the model needs its FFN size".into());
        }
        if self.kv_heads > self.heads || self.heads % self.kv_heads != 0 {
            return Err(format!(
                "{} key/value heads do not divide {} attention heads",
                self.kv_heads, self.heads
            ));
        }
        if self.head_dim == 0 && self.mla.is_none() && self.hidden % self.heads != 0 {
            return Err(format!(
                "a hidden size of {} does not split into {} heads (give the head dimension)",
                self.hidden, self.heads
            ));
        }
        if self.experts > 0 {
            if self.active_experts == 0 || self.active_experts > self.experts {
                return Err(format!(
                    "{} experts per token is not from 1 to the {} experts",
                    self.active_experts, self.experts
                ));
            }
            if self.expert_ffn == 0 {
                return Err("an MoE model needs its expert FFN size".into());
            }
            if self.dense_layers >= self.layers {
                return Err(format!(
                    "{} dense layers leave no MoE layer of {}",
                    self.dense_layers, self.layers
                ));
            }
        } else if self.active_experts > 0 || self.shared_experts > 0 || self.dense_layers > 0 {
            return Err("experts per token, shared experts and dense layers need experts".into());
        }
        if self.window_layers > self.layers {
            return Err(format!(
                "{} windowed layers are more than the {} layers",
                self.window_layers, self.layers
            ));
        }
        if (self.window_layers > 0) != (self.window > 0) {
            return Err("windowed layers and their window go together".into());
        }
        if self.chunked && self.window_layers == 0 {
            return Err("chunked windows need windowed layers".into());
        }
        if self.window_layers.saturating_add(self.linear_layers) > self.layers {
            return Err(format!(
                "{} windowed and {} linear-attention layers are more than the {} layers",
                self.window_layers, self.linear_layers, self.layers
            ));
        }
        if self.linear_layers > 0 && self.linear.contains(&0) {
            return Err("linear-attention layers need their key and value heads, head dimensions and convolution width".into());
        }
        if self.linear_layers == 0 && self.linear != [0; 5] {
            return Err("a linear-attention shape needs linear-attention layers".into());
        }
        if (self.sparse_topk > 0) != (self.indexer[0] > 0 && self.indexer[1] > 0) {
            return Err(
                "sparse attention's top k and its indexer's heads and dimension go together".into(),
            );
        }
        if let Some(a) = self.mla {
            if a.kv_lora == 0 || a.qk_nope + a.qk_rope == 0 || a.v_head == 0 {
                return Err("latent attention needs kv_lora, a key and a value dimension".into());
            }
        }
        Ok(())
    }
}

/// A published parameter count, to show beside a computed one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Published {
    /// The model.
    pub name: &'static str,
    /// Total parameters.
    pub total: f64,
    /// Parameters active per token (MoE), if published.
    pub active: Option<f64>,
    /// Where it is stated.
    pub source: &'static Citation,
}

static META_LLAMA31: Citation = Citation {
    key: "META-L31",
    title: "Meta Llama 3.1 model card (8B, 70B, 405B)",
    url: "https://github.com/meta-llama/llama-models/blob/main/models/llama3_1/MODEL_CARD.md",
    date: "2024-07-23",
};
static QWEN25: Citation = Citation {
    key: "QWEN25",
    title: "Qwen2.5 model cards: Qwen2.5-7B 7.61B, Qwen2.5-72B 72.7B parameters",
    url: "https://huggingface.co/Qwen/Qwen2.5-72B",
    date: "2024-09-19",
};
static MISTRAL7B: Citation = Citation {
    key: "MISTRAL7B",
    title: "Mistral AI, Mistral 7B announcement: a 7.3B parameter model",
    url: "https://mistral.ai/news/announcing-mistral-7b",
    date: "2023-09-27",
};
static MIXTRAL: Citation = Citation {
    key: "MIXTRAL",
    title: "Mistral AI, Mixtral of experts: 46.7B total parameters, 12.9B per token",
    url: "https://mistral.ai/news/mixtral-of-experts",
    date: "2023-12-11",
};
static DSV3: Citation = Citation {
    key: "DSV3",
    title: "DeepSeek-V3 Technical Report: 671B total parameters, 37B activated per token (arXiv 2412.19437)",
    url: "https://arxiv.org/abs/2412.19437",
    date: "2024-12-27",
};
static QWEN3: Citation = Citation {
    key: "QWEN3",
    title:
        "Qwen3 model cards: Qwen3-30B-A3B 30.5B total, 3.3B activated; Qwen3-235B-A22B 235B, 22B",
    url: "https://huggingface.co/Qwen/Qwen3-30B-A3B",
    date: "2025-04-29",
};
static GPT2: Citation = Citation {
    key: "GPT2",
    title: "openai-community/gpt2 model card: the smallest GPT-2, 124M parameters",
    url: "https://huggingface.co/openai-community/gpt2",
    date: "2019-02-14",
};

/// A shape's signature: layers, hidden, heads, key/value heads, vocabulary, experts.
type Signature = (u32, u32, u32, u32, u32, u32);

/// Published sizes by shape.
const KNOWN: [(Signature, Published); 11] = {
    const fn p(
        name: &'static str,
        total: f64,
        active: Option<f64>,
        source: &'static Citation,
    ) -> Published {
        Published {
            name,
            total,
            active,
            source,
        }
    }
    [
        (
            (32, 4096, 32, 8, 128_256, 0),
            p("Llama 3.1 8B", 8e9, None, &META_LLAMA31),
        ),
        (
            (80, 8192, 64, 8, 128_256, 0),
            p("Llama 3.1 70B", 70e9, None, &META_LLAMA31),
        ),
        (
            (126, 16384, 128, 8, 128_256, 0),
            p("Llama 3.1 405B", 405e9, None, &META_LLAMA31),
        ),
        (
            (80, 8192, 64, 8, 152_064, 0),
            p("Qwen2.5-72B", 72.7e9, None, &QWEN25),
        ),
        (
            (28, 3584, 28, 4, 152_064, 0),
            p("Qwen2.5-7B", 7.61e9, None, &QWEN25),
        ),
        (
            (32, 4096, 32, 8, 32_000, 0),
            p("Mistral 7B", 7.3e9, None, &MISTRAL7B),
        ),
        (
            (32, 4096, 32, 8, 32_000, 8),
            p("Mixtral 8x7B", 46.7e9, Some(12.9e9), &MIXTRAL),
        ),
        (
            (61, 7168, 128, 128, 129_280, 256),
            p("DeepSeek-V3", 671e9, Some(37e9), &DSV3),
        ),
        (
            (48, 2048, 32, 4, 151_936, 128),
            p("Qwen3-30B-A3B", 30.5e9, Some(3.3e9), &QWEN3),
        ),
        (
            (94, 4096, 64, 4, 151_936, 128),
            p("Qwen3-235B-A22B", 235e9, Some(22e9), &QWEN3),
        ),
        (
            (12, 768, 12, 12, 50_257, 0),
            p("GPT-2 (small)", 124e6, None, &GPT2),
        ),
    ]
};

/// The published size of a model with this shape, if it is a well-known one.
#[must_use]
pub fn published(m: &Model) -> Option<Published> {
    let key = (m.layers, m.hidden, m.heads, m.kv_heads, m.vocab, m.experts);
    KNOWN.iter().find(|(k, _)| *k == key).map(|(_, p)| *p)
}

/// Keys of a `config.json` that do not change the shape modelled (read silently).
const IGNORED: [&str; 56] = [
    "_name_or_path",
    "architectures",
    "attention_dropout",
    "auto_map",
    "bos_token_id",
    "eos_token_id",
    "pad_token_id",
    "hidden_act",
    "initializer_range",
    "rms_norm_eps",
    "layer_norm_eps",
    "layer_norm_epsilon",
    "rope_theta",
    "rope_scaling",
    "torch_dtype",
    "transformers_version",
    "use_cache",
    "pretraining_tp",
    "mlp_bias",
    "model_type",
    "use_sliding_window",
    "max_window_layers",
    "router_aux_loss_coef",
    "output_router_logits",
    "router_jitter_noise",
    "norm_topk_prob",
    "scoring_func",
    "topk_method",
    "routed_scaling_factor",
    "n_group",
    "topk_group",
    "aux_loss_alpha",
    "seq_aux",
    "ep_size",
    "num_nextn_predict_layers",
    "quantization_config",
    "dtype",
    "activation_function",
    "attn_pdrop",
    "embd_pdrop",
    "resid_pdrop",
    "summary_activation",
    "summary_first_dropout",
    "summary_proj_to_labels",
    "summary_type",
    "summary_use_proj",
    "task_specific_params",
    "scale_attn_weights",
    "n_ctx",
    "bos_token",
    "eos_token",
    "moe_layer_freq",
    "decoder_sparse_step",
    "mlp_only_layers",
    "qkv_bias",
    "tokenizer_class",
];

/// The shape keys read, for the message about the others.
const READ: [&str; 40] = [
    "hidden_size",
    "intermediate_size",
    "num_hidden_layers",
    "num_attention_heads",
    "num_key_value_heads",
    "vocab_size",
    "tie_word_embeddings",
    "head_dim",
    "max_position_embeddings",
    "attention_bias",
    "num_local_experts",
    "num_experts",
    "n_routed_experts",
    "num_experts_per_tok",
    "n_shared_experts",
    "moe_intermediate_size",
    "shared_expert_intermediate_size",
    "first_k_dense_replace",
    "q_lora_rank",
    "kv_lora_rank",
    "qk_nope_head_dim",
    "qk_rope_head_dim",
    "v_head_dim",
    "n_embd",
    "n_layer",
    "n_head",
    "sliding_window",
    "layer_types",
    "attention_chunk_size",
    "no_rope_layers",
    "sliding_window_pattern",
    "full_attention_interval",
    "linear_num_key_heads",
    "linear_num_value_heads",
    "linear_key_head_dim",
    "linear_value_head_dim",
    "linear_conv_kernel_dim",
    "index_topk",
    "index_n_heads",
    "index_head_dim",
];

/// The layers of a config that attend within a window, and the window: from `layer_types`
/// (gpt-oss, recent Gemma and Qwen configs), Gemma's `sliding_window_pattern` or alternation,
/// a sliding window over every layer (Mistral 7B), or Llama 4's chunks (`attention_chunk_size`
/// in the layers `no_rope_layers` marks as using rotary embeddings).
fn read_windows(
    v: &Value,
    kind: &str,
    m: &mut Model,
    notes: &mut Vec<String>,
) -> Result<(), String> {
    let num = |key: &str| -> Result<Option<u32>, String> {
        match v.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Number(x)) if *x >= 0.0 && *x <= 1e9 && *x == libm::floor(*x) => {
                Ok(Some(*x as u32))
            }
            Some(other) => Err(format!("{key} is {}, not a whole number", other.kind())),
        }
    };
    let strings = |key: &str| -> Result<Option<Vec<String>>, String> {
        match v.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Array(a)) => a
                .iter()
                .map(|x| match x {
                    Value::Str(s) => Ok(s.clone()),
                    Value::Number(n) => Ok(format!("{n}")),
                    other => Err(format!("{key} holds {}, not names", other.kind())),
                })
                .collect::<Result<Vec<_>, _>>()
                .map(Some),
            Some(other) => Err(format!("{key} is {}, not a list", other.kind())),
        }
    };
    let layers = m.layers;
    let use_window = !matches!(v.get("use_sliding_window"), Some(Value::Bool(false)));
    let window = num("sliding_window")?.filter(|w| *w > 0 && use_window);
    if let Some(chunk) = num("attention_chunk_size")?.filter(|c| *c > 0) {
        // Llama 4: the layers with rotary embeddings attend within chunks; the others (NoPE)
        // attend to everything.
        let local = match strings("no_rope_layers")? {
            Some(l) if l.len() == layers as usize => {
                l.iter().filter(|x| x.as_str() == "1").count() as u32
            }
            _ => layers - layers / 4,
        };
        m.window_layers = local;
        m.window = chunk;
        m.chunked = true;
        notes.push(format!(
            "{local} of {layers} layers attend within chunks of {chunk} tokens"
        ));
        return Ok(());
    }
    if let Some(types) = strings("layer_types")? {
        if types.len() != layers as usize {
            return Err(format!(
                "layer_types lists {} layers, not the {layers} of num_hidden_layers",
                types.len()
            ));
        }
        let count = |t: &str| types.iter().filter(|x| x.as_str() == t).count() as u32;
        let sliding = count("sliding_attention");
        read_linear(v, m, count("linear_attention"), notes)?;
        if sliding > 0 {
            let w = window.ok_or("layer_types has sliding layers but sliding_window is missing")?;
            m.window_layers = sliding;
            m.window = w;
            notes.push(format!(
                "{sliding} of {layers} layers attend to a sliding window of {w} tokens"
            ));
        }
        return Ok(());
    }
    if let Some(n) = num("full_attention_interval")?.filter(|n| *n > 1) {
        read_linear(v, m, layers - layers / n, notes)?;
    }
    let Some(w) = window else { return Ok(()) };
    if w >= 1_000_000 {
        return Ok(());
    }
    let local = match (kind, num("sliding_window_pattern")?) {
        // Every p-th layer is global (Gemma 3: 5 local to 1 global).
        (_, Some(p)) if p > 1 => layers - layers / p,
        // Gemma 2 alternates local and global layers.
        ("gemma2", _) => layers / 2,
        _ => layers,
    };
    m.window_layers = local;
    m.window = w;
    notes.push(format!(
        "{local} of {layers} layers attend to a sliding window of {w} tokens"
    ));
    Ok(())
}

/// The shape of `count` linear-attention (Gated DeltaNet) layers, from Qwen3-Next's fields.
fn read_linear(
    v: &Value,
    m: &mut Model,
    count: u32,
    notes: &mut Vec<String>,
) -> Result<(), String> {
    if count == 0 {
        return Ok(());
    }
    let get = |key: &str, default: Option<u32>| -> Result<u32, String> {
        match v.get(key) {
            Some(Value::Number(x)) if *x >= 1.0 && *x <= 65_536.0 && *x == libm::floor(*x) => {
                Ok(*x as u32)
            }
            None | Some(Value::Null) => {
                default.ok_or_else(|| format!("{count} linear-attention layers need {key}"))
            }
            Some(other) => Err(format!(
                "{key} is {}, not a whole number from 1 to 65,536",
                other.kind()
            )),
        }
    };
    m.linear_layers = count;
    m.linear = [
        get("linear_num_key_heads", None)?,
        get("linear_num_value_heads", None)?,
        get("linear_key_head_dim", None)?,
        get("linear_value_head_dim", None)?,
        get("linear_conv_kernel_dim", Some(4))?,
    ];
    notes.push(format!(
        "{count} of {} layers are linear attention: no KV cache, a fixed state per sequence",
        m.layers
    ));
    Ok(())
}

/// DeepSeek's sparse attention (V3.2): the tokens its indexer picks, and the indexer's shape.
fn read_sparse(v: &Value, m: &mut Model, notes: &mut Vec<String>) -> Result<(), String> {
    let num = |key: &str| match v.get(key) {
        Some(Value::Number(x)) if *x >= 1.0 && *x <= 1e7 && *x == libm::floor(*x) => {
            Ok(Some(*x as u32))
        }
        None | Some(Value::Null) => Ok(None),
        Some(other) => Err(format!("{key} is {}, not a whole number", other.kind())),
    };
    if let Some(k) = num("index_topk")? {
        let need = |key: &str| num(key)?.ok_or_else(|| format!("index_topk needs {key}"));
        m.sparse_topk = k;
        m.indexer = [need("index_n_heads")?, need("index_head_dim")?];
        notes.push(format!(
            "sparse attention: each token attends to the {k} tokens its indexer picks"
        ));
    }
    Ok(())
}

/// Read a Hugging Face `config.json`: the model and notes on what was assumed or not read.
///
/// # Errors
/// The text is not JSON, a needed field is missing, or a field has the wrong type or an
/// impossible value; the message names the field.
pub fn from_hf_config(text: &str) -> Result<(Model, Vec<String>), String> {
    let v = json::parse(text)?;
    if !matches!(v, Value::Object(_)) {
        return Err("a config.json is one object of settings".into());
    }
    let mut notes = Vec::new();
    // A multimodal config (Gemma 3, Llama 4) holds the language model's shape in
    // `text_config`.
    let v = match (v.get("hidden_size"), v.get("text_config")) {
        (None, Some(t @ Value::Object(_))) => {
            notes.push("the language model's shape is read from text_config; the vision tower is not counted".into());
            t.clone()
        }
        _ => v,
    };
    let kind = match v.get("model_type") {
        Some(Value::Str(s)) => s.clone(),
        Some(x) => return Err(format!("model_type is {}, not a string", x.kind())),
        None => String::new(),
    };
    // A whole, positive number (or `None` when absent or null).
    let num = |key: &str| -> Result<Option<u32>, String> {
        match v.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Number(x)) if *x >= 0.0 && *x <= 1e9 && *x == libm::floor(*x) => {
                Ok(Some(*x as u32))
            }
            Some(Value::Number(x)) => Err(format!("{key} is {x}, not a whole number")),
            Some(other) => Err(format!("{key} is {}, not a number", other.kind())),
        }
    };
    let need = |key: &str| -> Result<u32, String> {
        num(key)?
            .filter(|x| *x > 0)
            .ok_or_else(|| format!("{key} is missing (or 0)"))
    };
    let flag = |key: &str, default: bool| -> Result<bool, String> {
        match v.get(key) {
            None | Some(Value::Null) => Ok(default),
            Some(Value::Bool(b)) => Ok(*b),
            Some(other) => Err(format!("{key} is {}, not true or false", other.kind())),
        }
    };
    let gpt2 = kind == "gpt2" || (kind.is_empty() && v.get("n_embd").is_some());
    let mut m = Model {
        gated: true,
        router: true,
        ..Model::default()
    };
    if gpt2 {
        m.hidden = need("n_embd")?;
        m.layers = need("n_layer")?;
        m.heads = need("n_head")?;
        m.kv_heads = m.heads;
        m.ffn = num("n_inner")?.unwrap_or(4 * m.hidden);
        m.vocab = need("vocab_size")?;
        m.seq = num("n_positions")?.unwrap_or(1024);
        m.gated = false;
        m.tied = flag("tie_word_embeddings", true)?;
        notes.push("GPT-2: learned position embeddings and biases are not counted (under 1% of the parameters)".into());
    } else {
        if !matches!(
            kind.as_str(),
            "llama"
                | "mistral"
                | "mixtral"
                | "qwen2"
                | "qwen2_moe"
                | "qwen3"
                | "qwen3_moe"
                | "deepseek_v2"
                | "deepseek_v3"
                | "gpt_oss"
                | "gemma2"
                | "gemma3_text"
                | "llama4_text"
                | "qwen3_next"
                | "deepseek_v32"
                | ""
        ) {
            notes.push(format!(
                "model_type '{kind}' is not one accelscope knows; read as a Llama-style decoder"
            ));
        }
        m.hidden = need("hidden_size")?;
        m.layers = need("num_hidden_layers")?;
        m.heads = need("num_attention_heads")?;
        m.kv_heads = num("num_key_value_heads")?.unwrap_or(m.heads);
        m.vocab = need("vocab_size")?;
        m.ffn = num("intermediate_size")?.unwrap_or(0);
        m.tied = flag("tie_word_embeddings", false)?;
        m.qkv_bias = flag("attention_bias", kind == "qwen2" || kind == "qwen2_moe")?;
        if let Some(hd) = num("head_dim")? {
            if hd > 0 && hd * m.heads != m.hidden {
                m.head_dim = hd;
            }
        }
        match v.get("hidden_act") {
            Some(Value::Str(a)) if a != "silu" && a != "swiglu" => notes.push(format!(
                "hidden_act '{a}': the FFN is still taken as gated (three matrices)"
            )),
            _ => {}
        }
        let experts = match (
            num("num_local_experts")?,
            num("num_experts")?,
            num("n_routed_experts")?,
        ) {
            (Some(e), ..) | (None, Some(e), _) | (None, None, Some(e)) => e,
            _ => 0,
        };
        if experts > 0 {
            m.experts = experts;
            m.active_experts = need("num_experts_per_tok")?;
            m.expert_ffn = num("moe_intermediate_size")?.unwrap_or(m.ffn);
            m.shared_experts = num("n_shared_experts")?.unwrap_or(0);
            if let Some(s) = num("shared_expert_intermediate_size")?.filter(|s| *s > 0) {
                if m.expert_ffn > 0 && s % m.expert_ffn == 0 {
                    m.shared_experts = s / m.expert_ffn;
                } else {
                    m.shared_experts = 1;
                    notes.push(format!(
                        "the shared expert's {s} FFN is counted as one expert of {}",
                        m.expert_ffn
                    ));
                }
            }
            m.dense_layers = num("first_k_dense_replace")?.unwrap_or(0);
            for (key, one) in [("moe_layer_freq", 1), ("decoder_sparse_step", 1)] {
                if let Some(f) = num(key)?.filter(|f| *f != one) {
                    notes.push(format!(
                        "{key} = {f}: every layer after the dense ones is taken as MoE"
                    ));
                }
            }
            if matches!(v.get("mlp_only_layers"), Some(Value::Array(a)) if !a.is_empty()) {
                notes.push("mlp_only_layers is not read: those layers are taken as MoE".into());
            }
        }
        if let Some(kv) = num("kv_lora_rank")?.filter(|k| *k > 0) {
            m.mla = Some(Mla {
                q_lora: num("q_lora_rank")?.unwrap_or(0),
                kv_lora: kv,
                qk_nope: need("qk_nope_head_dim")?,
                qk_rope: need("qk_rope_head_dim")?,
                v_head: need("v_head_dim")?,
            });
        }
        read_windows(&v, &kind, &mut m, &mut notes)?;
        read_sparse(&v, &mut m, &mut notes)?;
        let pos = num("max_position_embeddings")?.unwrap_or(0);
        m.seq = if pos == 0 { 4096 } else { pos.min(8192) };
        if pos > 8192 {
            notes.push(format!(
                "trains at a sequence of 8,192 tokens (the config allows {pos}); set s in the shape to change it"
            ));
        }
        if let Some(n) = num("num_nextn_predict_layers")?.filter(|n| *n > 0) {
            m.mtp = n.min(16);
            notes.push("the multi-token prediction layers train on the last pipeline stage and are not counted in the size (as the published size does not)".into());
        }
    }
    if let Value::Object(fields) = &v {
        let others: Vec<&str> = fields
            .iter()
            .map(|(k, _)| k.as_str())
            .filter(|k| !IGNORED.contains(k) && !READ.contains(k))
            .filter(|k| !matches!(*k, "n_inner" | "n_positions" | "vocab_size" | "hidden_act"))
            .collect();
        if !others.is_empty() {
            let list: Vec<&str> = others.iter().take(12).copied().collect();
            notes.push(format!(
                "not read, as they do not change the shape accelscope models: {}{}",
                list.join(", "),
                if others.len() > 12 {
                    format!(" and {} more", others.len() - 12)
                } else {
                    String::new()
                }
            ));
        }
    }
    m.name = match v.get("_name_or_path") {
        Some(Value::Str(n)) if !n.trim().is_empty() => {
            clean_name(n.rsplit('/').next().unwrap_or(n))
        }
        _ => published(&m).map_or_else(
            || {
                format!(
                    "Pasted {} model",
                    if kind.is_empty() { "decoder" } else { &kind }
                )
            },
            |p| p.name.into(),
        ),
    };
    m.check()?;
    m.id = m.to_spec();
    // The spec is what travels: it must read back as this model.
    let back = Model::parse_spec(&m.id).map_err(|e| format!("{e}"))?;
    debug_assert_eq!(back, m);
    Ok((m, notes))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(name: &str) -> (Model, Vec<String>) {
        let text = match name {
            "llama-3.1-8b" => include_str!("../../tests/data/hf/llama-3.1-8b.json"),
            "llama-3.1-70b" => include_str!("../../tests/data/hf/llama-3.1-70b.json"),
            "llama-3.1-405b" => include_str!("../../tests/data/hf/llama-3.1-405b.json"),
            "qwen2.5-72b" => include_str!("../../tests/data/hf/qwen2.5-72b.json"),
            "mistral-7b" => include_str!("../../tests/data/hf/mistral-7b-v0.1.json"),
            "mixtral-8x7b" => include_str!("../../tests/data/hf/mixtral-8x7b-v0.1.json"),
            "deepseek-v3" => include_str!("../../tests/data/hf/deepseek-v3.json"),
            "qwen3-30b-a3b" => include_str!("../../tests/data/hf/qwen3-30b-a3b.json"),
            "gpt2" => include_str!("../../tests/data/hf/gpt2.json"),
            "gpt-oss-120b" => include_str!("../../tests/data/hf/gpt-oss-120b.json"),
            _ => unreachable!(),
        };
        from_hf_config(text).unwrap_or_else(|e| panic!("{name}: {e}"))
    }

    /// Parameter counts of pasted public configs against the sizes their makers publish
    /// (sources in [`KNOWN`]): within 2%, and for MoE models the active count too.
    #[test]
    fn pasted_configs_count_their_published_parameters() {
        for name in [
            "llama-3.1-8b",
            "llama-3.1-70b",
            "llama-3.1-405b",
            "qwen2.5-72b",
            "mistral-7b",
            "mixtral-8x7b",
            "deepseek-v3",
            "qwen3-30b-a3b",
            "gpt2",
        ] {
            let (m, _) = read(name);
            let p = published(&m).unwrap_or_else(|| panic!("{name}: no published size matched"));
            let err = m.params_total() / p.total - 1.0;
            assert!(
                err.abs() < 0.02,
                "{name}: {:.4e} vs {:.4e} ({:+.2}%)",
                m.params_total(),
                p.total,
                err * 100.0
            );
            if let Some(a) = p.active {
                // Makers differ on whether the embedding lookup counts as active (Qwen's does,
                // DeepSeek's does not); the model leaves it out, so either convention is met.
                let embed = f64::from(m.vocab) * f64::from(m.hidden);
                let e = [m.params_active(), m.params_active() + embed]
                    .map(|x| x / a - 1.0)
                    .into_iter()
                    .fold(f64::INFINITY, |b, x| if x.abs() < b.abs() { x } else { b });
                assert!(
                    e.abs() < 0.02,
                    "{name} active: {:.4e} vs {a:.4e} ({:+.2}%)",
                    m.params_active(),
                    e * 100.0
                );
            }
        }
        // Exact where the checkpoint's count is known (Hugging Face safetensors metadata):
        // Llama 3.1 8B holds 8,030,261,248 parameters, norms included (266,240 of them).
        let (m, _) = read("llama-3.1-8b");
        assert!((m.params_total() + 266_240.0 - 8_030_261_248.0).abs() < 1.0);
    }

    #[test]
    fn a_pasted_model_travels_as_a_spec_and_reads_back() {
        for name in ["deepseek-v3", "qwen3-30b-a3b", "gpt2", "qwen2.5-72b"] {
            let (m, _) = read(name);
            assert!(m.id.starts_with(PREFIX), "{}", m.id);
            assert!(m.id.len() < 160, "{name}: {} characters", m.id.len());
            assert_eq!(Model::parse_spec(&m.id).unwrap(), m);
            assert_eq!(super::super::find_model(&m.id).unwrap(), m);
        }
        let (ds, notes) = read("deepseek-v3");
        assert_eq!(ds.mla.map(|a| a.kv_lora), Some(512));
        assert_eq!(
            ds.kv_bytes_per_token(crate::dtype::Dtype::Bf16),
            61.0 * 576.0 * 2.0
        );
        assert!(notes.iter().any(|n| n.contains("8,192")), "{notes:?}");
    }

    #[test]
    fn bad_configs_name_the_field() {
        let e = |t: &str| from_hf_config(t).unwrap_err();
        assert!(e("[1]").contains("one object"));
        assert!(e("{\"hidden_size\": 4096}").contains("num_hidden_layers"));
        assert!(e(r#"{"hidden_size": "4096", "num_hidden_layers": 2}"#)
            .contains("hidden_size is a string"));
        assert!(e(r#"{"hidden_size": 4096.5, "num_hidden_layers": 2}"#)
            .contains("hidden_size is 4096.5"));
        let base = r#""hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32, "vocab_size": 32000, "intermediate_size": 11008"#;
        assert!(e(&format!("{{{base}, \"num_key_value_heads\": 5}}")).contains("do not divide"));
        assert!(e(&format!(
            "{{{base}, \"num_local_experts\": 8, \"num_experts_per_tok\": 9}}"
        ))
        .contains("experts per token"));
        assert!(e(&format!("{{{base}, \"tie_word_embeddings\": 1}}")).contains("not true or false"));
        let (_, notes) = from_hf_config(&format!(
            "{{{base}, \"model_type\": \"falcon\", \"new_decoder_architecture\": true}}"
        ))
        .unwrap();
        assert!(notes.iter().any(|n| n.contains("falcon")), "{notes:?}");
        assert!(
            notes.iter().any(|n| n.contains("new_decoder_architecture")),
            "{notes:?}"
        );
        // Specs are checked the same way.
        assert!(Model::parse_spec("m:l2,d64,h3,kv3,f1,v1").is_err());
        assert!(Model::parse_spec("m:l2,d64,h4,kv4,f1,v1,zz1").is_err());
        assert!(Model::parse_spec("m:l2000,d64,h4,kv4,f1,v1").is_err());
        assert!(Model::parse_spec("m:l2,d64,h4,kv4,f1,v1,n:ok").is_ok());
    }

    /// gpt-oss-120b's config (Hugging Face, as MaxText copies it with the MXFP4 quantisation
    /// settings removed): 36 layers alternating a 128-token sliding window and full
    /// attention. Its KV cache per token over the model's sequence is about half the
    /// every-layer-full figure (2 × 36 × 8 × 64 × 2 = 73,728 bytes in BF16).
    #[test]
    fn gpt_oss_keeps_half_its_layers_in_a_window() {
        let (m, notes) = read("gpt-oss-120b");
        assert_eq!((m.window_layers, m.window, m.chunked), (18, 128, false));
        assert_eq!(m.kv_bytes_per_token(crate::dtype::Dtype::Bf16), 73_728.0);
        let ctx = f64::from(m.seq);
        let share = m.kv_bytes(crate::dtype::Dtype::Bf16, ctx) / (ctx * 73_728.0);
        assert!(share <= 0.55, "{share}");
        assert!(
            notes.iter().any(|n| n.contains("sliding window of 128")),
            "{notes:?}"
        );
        // OpenAI's gpt-oss model card: about 117B parameters, 5.1B active.
        assert!(
            (m.params_total() / 116.8e9 - 1.0).abs() < 0.01,
            "{}",
            m.params_total()
        );
        assert!(
            (m.params_active() / 5.13e9 - 1.0).abs() < 0.02,
            "{}",
            m.params_active()
        );
    }

    #[test]
    fn window_patterns_and_chunks_are_read() {
        let base = r#""hidden_size": 512, "num_hidden_layers": 12, "num_attention_heads": 8, "num_key_value_heads": 4, "vocab_size": 1000, "intermediate_size": 1024"#;
        let read = |extra: &str| {
            from_hf_config(&format!("{{{base}, {extra}}}"))
                .map(|(m, _)| (m.window_layers, m.window, m.chunked))
        };
        // Gemma 3: every 6th layer global; Gemma 2 alternates; Mistral windows every layer.
        assert_eq!(
            read(
                r#""model_type": "gemma3_text", "sliding_window": 1024, "sliding_window_pattern": 6"#
            ),
            Ok((10, 1024, false))
        );
        assert_eq!(
            read(r#""model_type": "gemma2", "sliding_window": 4096"#),
            Ok((6, 4096, false))
        );
        assert_eq!(
            read(r#""model_type": "mistral", "sliding_window": 4096"#),
            Ok((12, 4096, false))
        );
        // Qwen's sliding window is off unless use_sliding_window says otherwise.
        assert_eq!(
            read(r#""model_type": "qwen2", "sliding_window": 4096, "use_sliding_window": false"#),
            Ok((0, 0, false))
        );
        // Llama 4: chunks in the layers with rotary embeddings, every 4th layer global.
        assert_eq!(
            read(r#""model_type": "llama4_text", "attention_chunk_size": 8192"#),
            Ok((9, 8192, true))
        );
        // A text_config is read in place of the top level.
        let nested = format!(
            r#"{{"model_type": "gemma3", "text_config": {{{base}, "sliding_window": 1024, "sliding_window_pattern": 6}}}}"#
        );
        assert_eq!(from_hf_config(&nested).unwrap().0.window_layers, 10);
        // A layer list of the wrong length is named.
        assert!(
            read(r#""layer_types": ["full_attention"], "sliding_window": 128"#)
                .unwrap_err()
                .contains("layer_types")
        );
    }

    /// Qwen3-Next-80B-A3B's shape (its config's fields as transformers' defaults for the
    /// checkpoint give them): 48 layers, every 4th full attention (2 KV heads of 256), the rest
    /// Gated DeltaNet (16 key and 32 value heads of 128, a convolution of 4).
    #[test]
    fn qwen3_next_keeps_kv_only_in_its_full_layers() {
        let text = r#"{"model_type": "qwen3_next", "hidden_size": 2048, "num_hidden_layers": 48,
            "num_attention_heads": 16, "num_key_value_heads": 2, "head_dim": 256,
            "intermediate_size": 5120, "vocab_size": 151936, "num_experts": 512,
            "num_experts_per_tok": 10, "moe_intermediate_size": 512,
            "shared_expert_intermediate_size": 512, "full_attention_interval": 4,
            "linear_num_key_heads": 16, "linear_num_value_heads": 32, "linear_key_head_dim": 128,
            "linear_value_head_dim": 128, "linear_conv_kernel_dim": 4,
            "max_position_embeddings": 262144}"#;
        let (m, notes) = from_hf_config(text).unwrap();
        assert_eq!((m.linear_layers, m.linear), (36, [16, 32, 128, 128, 4]));
        // 12 full layers × 2 KV heads × 256 × 2 (K and V) × 2 bytes = 24,576 bytes a token
        // (as published for the checkpoint); the linear layers add a fixed state.
        let d = crate::dtype::Dtype::Bf16;
        let grows = m.kv_bytes(d, 2.0e4) - m.kv_bytes(d, 1.0e4);
        assert!((grows / 1.0e4 - 24_576.0).abs() < 1e-6, "{grows}");
        // 36 × (32 × 128 × 128 + (2 × 16 × 128 + 32 × 128) × 3) elements of state.
        assert_eq!(m.linear_state(), 36.0 * (524_288.0 + 24_576.0));
        // The name says it: about 80B parameters, "A3B" a token (rounded: the count here,
        // output head included, is 3.46B).
        assert!(
            (m.params_total() / 80e9 - 1.0).abs() < 0.03,
            "{}",
            m.params_total()
        );
        assert!(
            (m.params_active() / 3e9 - 1.0).abs() < 0.2,
            "{}",
            m.params_active()
        );
        assert!(
            notes
                .iter()
                .any(|n| n.contains("36 of 48 layers are linear")),
            "{notes:?}"
        );
        assert_eq!(Model::parse_spec(&m.to_spec()).unwrap(), m);
        // Linear layers attend to nothing: training's attention work is a quarter.
        assert!((m.causal_share(4096.0) - 0.25).abs() < 1e-12);
        // Their recurrence costs 7 FLOPs a state element a token (36 layers × 32 heads ×
        // 128 × 128), counted in a token's forward FLOPs, and three times that in training.
        let rec = 36.0 * 7.0 * 32.0 * 128.0 * 128.0;
        assert_eq!(m.linear_flops_per_token(), rec);
        let dense = 2.0 * m.params_active() + 2.0 * 48.0 * 2048.0 * 100.0;
        assert!((m.forward_flops_per_token(100.0) - dense - rec).abs() < 1.0);
        // A decode step reads and writes every sequence's state: on one H200, 64 sequences
        // of Qwen3-Next take longer than the same step without the state, by the state's
        // traffic at the replica's bandwidth.
        let sys = crate::system::find("hgx-h200-8").unwrap();
        let chip = crate::catalog::find(sys.chip).unwrap();
        let cluster = crate::system::Cluster {
            system: sys,
            nodes: 1,
        };
        let mut cfg = super::super::InferConfig::new(m.clone(), d, 64, 1024, 256);
        cfg.tp = Some(4);
        let sm = super::super::infer(&cluster, &chip, &cfg)
            .unwrap()
            .step_model;
        assert_eq!(sm.state_bytes, m.linear_state() * 2.0);
        let with = sm.step(64.0, (64.0 * 1100.0, 0.0), 0.0, 0.0).unwrap();
        let mut without = sm.clone();
        without.state_bytes = 0.0;
        let gap = with - without.step(64.0, (64.0 * 1100.0, 0.0), 0.0, 0.0).unwrap();
        let io = 64.0 * 2.0 * sm.state_bytes / 4.0 / sm.bw;
        assert!((gap / io - 1.0).abs() < 1e-9, "{gap} against {io}");
    }

    /// DeepSeek-V3.2's config (as MaxText copies it from the checkpoint): its sparse attention
    /// reads the 2,048 tokens the indexer picks, while every token's latent stays cached.
    #[test]
    fn deepseek_v32_reads_only_what_its_indexer_picks() {
        let text = r#"{"model_type": "deepseek_v32", "hidden_size": 7168, "num_hidden_layers": 61,
            "num_attention_heads": 128, "num_key_value_heads": 128, "intermediate_size": 18432,
            "vocab_size": 129280, "n_routed_experts": 256, "num_experts_per_tok": 8,
            "n_shared_experts": 1, "moe_intermediate_size": 2048, "first_k_dense_replace": 3,
            "q_lora_rank": 1536, "kv_lora_rank": 512, "qk_nope_head_dim": 128,
            "qk_rope_head_dim": 64, "v_head_dim": 128, "index_topk": 2048, "index_n_heads": 64,
            "index_head_dim": 128, "max_position_embeddings": 163840}"#;
        let (m, _) = from_hf_config(text).unwrap();
        assert_eq!((m.sparse_topk, m.indexer), (2048, [64, 128]));
        assert_eq!(m.attended_read(32_768.0), 2048.0);
        assert_eq!(m.attended(32_768.0), 32_768.0);
        // Kept a token: the latent and rotary key (61 × 576 × 2 bytes in BF16) and the
        // indexer's FP8 key and scale (61 × 132).
        let d = crate::dtype::Dtype::Bf16;
        let per = (m.kv_bytes(d, 2.0e4) - m.kv_bytes(d, 1.0e4)) / 1.0e4;
        assert!(
            (per - (61.0 * 576.0 * 2.0 + 61.0 * 132.0)).abs() < 1e-6,
            "{per}"
        );
        assert!(m.indexer_flops(1000.0) > 0.0);
        // DeepSeek-V3's 671B, and the indexers' ~1B.
        assert!(
            (m.params_total() / 672e9 - 1.0).abs() < 0.02,
            "{}",
            m.params_total()
        );
        assert_eq!(Model::parse_spec(&m.to_spec()).unwrap(), m);
    }
}
