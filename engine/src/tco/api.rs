//! API list prices per million tokens: open-weight models at hosted providers and frontier
//! APIs, each dated and sourced, to set beside the cost of serving a model yourself.
//!
//! A price is what a provider lists for its standard tier (not batch, not priority) and
//! short prompts. Some rest on the provider's own page (`primary`); the rest on a dated
//! third party that read it (a price dataset kept in git, a dated article), which is said.

use crate::source::Citation;

/// One API's list price.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ApiPrice {
    /// The model as the provider names it.
    pub model: &'static str,
    /// The catalog model it matches, where accelscope has one (its preset id).
    pub model_id: Option<&'static str>,
    /// Who serves it.
    pub provider: &'static str,
    /// Open weights (anyone may serve it) or not.
    pub open_weights: bool,
    /// $ per million input tokens.
    pub input: f64,
    /// $ per million input tokens found in the provider's prompt cache, if it lists one.
    pub cached_input: Option<f64>,
    /// $ per million output tokens.
    pub output: f64,
    /// When the price applied, as precisely as the source says (ISO 8601).
    pub as_of: &'static str,
    /// Where it is stated.
    pub source: &'static Citation,
    /// The provider's own page (true) or a dated third party that read it.
    pub primary: bool,
}

impl ApiPrice {
    /// $ per million output tokens of traffic whose requests read `prompt` input tokens (a
    /// share `cached` of them found in the cache) for every `output` tokens they write.
    #[must_use]
    pub fn per_mtok_output(&self, prompt: f64, output: f64, cached: f64) -> f64 {
        let cached = cached.clamp(0.0, 1.0);
        let input = self
            .cached_input
            .map_or(self.input, |c| cached * c + (1.0 - cached) * self.input);
        prompt / output * input + self.output
    }
}

static DEEPSEEK: Citation = Citation {
    key: "DS-PRICE",
    title: "DeepSeek API Docs, Models & Pricing (the price list in force until 2025-09-05 16:00 UTC, and the one from then)",
    url: "https://api-docs.deepseek.com/quick_start/pricing",
    date: "2025-09-05",
};
static FIREWORKS_OSS: Citation = Citation {
    key: "FW-OSS",
    title: "Fireworks AI, gpt-oss-120b model page: serverless $0.15 / $0.60 per 1M tokens (input/output)",
    url: "https://fireworks.ai/models/fireworks/gpt-oss-120b",
    date: "2025-08",
};
static CEREBRAS_OSS: Citation = Citation {
    key: "CB-OSS",
    title: "Cerebras Inference docs, OpenAI GPT OSS: input $0.25, output $0.69 per M tokens",
    url: "https://inference-docs.cerebras.ai/models/openai-oss",
    date: "2025-08",
};
static CEREBRAS_MAVERICK: Citation = Citation {
    key: "CB-L4M",
    title: "Cerebras Inference docs, Llama 4 Maverick: input $0.20, output $0.60 per M tokens",
    url: "https://inference-docs.cerebras.ai/models/llama-4-maverick",
    date: "2025-06",
};
static MODELS_DEV_GROQ_L33: Citation = Citation {
    key: "MD-GROQ-L33",
    title: "models.dev price dataset, Groq llama-3.3-70b-versatile: input 0.59, output 0.79 (commit a4047f403)",
    url: "https://github.com/anomalyco/models.dev/blob/f3fc692299671838c7c65fd8126bf84d81a2e817/providers/groq/models/llama-3.3-70b-versatile.toml",
    date: "2025-06-12",
};
static MODELS_DEV_TOGETHER_L33: Citation = Citation {
    key: "MD-TOG-L33",
    title: "models.dev price dataset, Together AI Llama-3.3-70B-Instruct-Turbo: input 0.88, output 0.88 (commit 7637e2254)",
    url: "https://github.com/anomalyco/models.dev/blob/f3fc692299671838c7c65fd8126bf84d81a2e817/providers/togetherai/models/meta-llama/Llama-3.3-70B-Instruct-Turbo.toml",
    date: "2025-07-25",
};
static ANTHROPIC: Citation = Citation {
    key: "ANTH-PRICE",
    title: "Anthropic, Claude API pricing: base input, cache writes, cache hits and output per MTok (the version listing Opus 4.6)",
    url: "https://platform.claude.com/docs/zh-CN/about-claude/pricing",
    date: "2026-02",
};
static OPENAI_GPT5: Citation = Citation {
    key: "OAI-GPT5",
    title: "OpenAI API docs, GPT-5-Codex model page: input $1.25, cached input $0.125, output $10.00 per 1M tokens, the same as GPT-5",
    url: "https://developers.openai.com/api/docs/models/gpt-5-codex",
    date: "2025-09",
};
static OPENAI_HEX: Citation = Citation {
    key: "OAI-2025-06",
    title: "openai_responses 0.4.1 pricing table, read from platform.openai.com/docs/pricing on 2025-06-03 (gpt-4.1: 2.00, 0.50, 8.00)",
    url: "https://hex.pm/packages/openai_responses/0.4.1/files/lib/responses/pricing.ex",
    date: "2025-06-03",
};
static GEMINI: Citation = Citation {
    key: "GEM-2.5",
    title: "Gemini API pricing as harvested from ai.google.dev (Gemini 2.5 Pro input $1.25 up to 200k tokens) with models.dev's output and cache-read figures",
    url: "https://raw.githubusercontent.com/api-evangelist/gemini/refs/heads/main/plans/gemini-plans-pricing.yml",
    date: "2026-09-20",
};

/// The prices, open-weight models first.
pub const PRICES: [ApiPrice; 12] = [
    ApiPrice {
        model: "DeepSeek-V3 (deepseek-chat)",
        model_id: Some("deepseek-v3"),
        provider: "DeepSeek",
        open_weights: true,
        input: 0.27,
        cached_input: Some(0.07),
        output: 1.10,
        as_of: "2025-02-08",
        source: &DEEPSEEK,
        primary: true,
    },
    ApiPrice {
        model: "DeepSeek-V3.1 (deepseek-chat)",
        model_id: Some("deepseek-v3"),
        provider: "DeepSeek",
        open_weights: true,
        input: 0.56,
        cached_input: Some(0.07),
        output: 1.68,
        as_of: "2025-09-05",
        source: &DEEPSEEK,
        primary: true,
    },
    ApiPrice {
        model: "gpt-oss-120b",
        model_id: None,
        provider: "Fireworks AI",
        open_weights: true,
        input: 0.15,
        cached_input: None,
        output: 0.60,
        as_of: "2025-08",
        source: &FIREWORKS_OSS,
        primary: true,
    },
    ApiPrice {
        model: "gpt-oss-120b",
        model_id: None,
        provider: "Cerebras",
        open_weights: true,
        input: 0.25,
        cached_input: None,
        output: 0.69,
        as_of: "2025-08",
        source: &CEREBRAS_OSS,
        primary: true,
    },
    ApiPrice {
        model: "Llama 4 Maverick 17B-128E",
        model_id: None,
        provider: "Cerebras",
        open_weights: true,
        input: 0.20,
        cached_input: None,
        output: 0.60,
        as_of: "2025-06",
        source: &CEREBRAS_MAVERICK,
        primary: true,
    },
    ApiPrice {
        model: "Llama 3.3 70B (versatile)",
        model_id: Some("llama3-70b"),
        provider: "Groq",
        open_weights: true,
        input: 0.59,
        cached_input: None,
        output: 0.79,
        as_of: "2025-06-12",
        source: &MODELS_DEV_GROQ_L33,
        primary: false,
    },
    ApiPrice {
        model: "Llama 3.3 70B Instruct Turbo",
        model_id: Some("llama3-70b"),
        provider: "Together AI",
        open_weights: true,
        input: 0.88,
        cached_input: None,
        output: 0.88,
        as_of: "2025-07-25",
        source: &MODELS_DEV_TOGETHER_L33,
        primary: false,
    },
    ApiPrice {
        model: "GPT-5",
        model_id: None,
        provider: "OpenAI",
        open_weights: false,
        input: 1.25,
        cached_input: Some(0.125),
        output: 10.0,
        as_of: "2025-09",
        source: &OPENAI_GPT5,
        primary: true,
    },
    ApiPrice {
        model: "GPT-4.1",
        model_id: None,
        provider: "OpenAI",
        open_weights: false,
        input: 2.0,
        cached_input: Some(0.5),
        output: 8.0,
        as_of: "2025-06-03",
        source: &OPENAI_HEX,
        primary: false,
    },
    ApiPrice {
        model: "Claude Sonnet 4.5",
        model_id: None,
        provider: "Anthropic",
        open_weights: false,
        input: 3.0,
        cached_input: Some(0.30),
        output: 15.0,
        as_of: "2026-02",
        source: &ANTHROPIC,
        primary: true,
    },
    ApiPrice {
        model: "Claude Haiku 4.5",
        model_id: None,
        provider: "Anthropic",
        open_weights: false,
        input: 1.0,
        cached_input: Some(0.10),
        output: 5.0,
        as_of: "2026-02",
        source: &ANTHROPIC,
        primary: true,
    },
    ApiPrice {
        model: "Gemini 2.5 Pro (prompts up to 200k tokens)",
        model_id: None,
        provider: "Google",
        open_weights: false,
        input: 1.25,
        cached_input: Some(0.125),
        output: 10.0,
        as_of: "2026-09-20",
        source: &GEMINI,
        primary: false,
    },
];

/// The prices for a catalog model (its preset id), cheapest output first.
#[must_use]
pub fn for_model(id: &str) -> alloc::vec::Vec<&'static ApiPrice> {
    let mut v: alloc::vec::Vec<&ApiPrice> =
        PRICES.iter().filter(|p| p.model_id == Some(id)).collect();
    v.sort_by(|a, b| a.output.total_cmp(&b.output));
    v
}

/// The utilisation at which serving yourself costs what the API does: self-hosting costs
/// `self_usd_per_mtok` per million output tokens when busy all the time, and `usd / u` at a
/// utilisation u; `None` when it never does (above 100%).
#[must_use]
pub fn break_even_utilisation(self_usd_per_mtok: f64, api_usd_per_mtok: f64) -> Option<f64> {
    let u = self_usd_per_mtok / api_usd_per_mtok;
    (u.is_finite() && u > 0.0 && u <= 1.0).then_some(u)
}

/// An API price beside serving the same traffic yourself.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Beside {
    /// The price.
    pub price: &'static ApiPrice,
    /// What the API charges per million output tokens of the traffic (its prompts, their
    /// share found in the cache, and the output).
    pub api_usd_per_mtok: f64,
    /// Serving it yourself, busy all the time, per million output tokens.
    pub self_usd_per_mtok: f64,
    /// The utilisation at which serving yourself costs what the API does (`None`: never
    /// below 100%).
    pub break_even: Option<f64>,
}

/// Every price beside serving the traffic yourself at `self_usd_per_mtok` per million output
/// tokens: requests of `prompt` input tokens (a share `cached` found in the cache) for
/// `output` output tokens. The prices of the same model (preset id `model_id`) come first,
/// then the rest, each group cheapest first.
#[must_use]
pub fn beside(
    model_id: &str,
    self_usd_per_mtok: f64,
    prompt: f64,
    output: f64,
    cached: f64,
) -> alloc::vec::Vec<Beside> {
    let mut v: alloc::vec::Vec<Beside> = PRICES
        .iter()
        .map(|p| {
            let api = p.per_mtok_output(prompt, output, cached);
            Beside {
                price: p,
                api_usd_per_mtok: api,
                self_usd_per_mtok,
                break_even: break_even_utilisation(self_usd_per_mtok, api),
            }
        })
        .collect();
    v.sort_by(|a, b| {
        let same = |x: &Beside| x.price.model_id != Some(model_id);
        same(a)
            .cmp(&same(b))
            .then(a.api_usd_per_mtok.total_cmp(&b.api_usd_per_mtok))
    });
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_price_is_dated_sourced_and_sane() {
        for p in &PRICES {
            assert!(
                p.as_of.len() >= 7 && p.as_of.starts_with("20"),
                "{}",
                p.model
            );
            assert!(p.source.url.starts_with("https://"), "{}", p.model);
            assert!(p.input > 0.0 && p.output >= p.input * 0.25, "{}", p.model);
            if let Some(c) = p.cached_input {
                assert!(c > 0.0 && c < p.input, "{}: cached {c}", p.model);
            }
            if let Some(id) = p.model_id {
                assert!(crate::workload::find_model(id).is_ok(), "{id}");
            }
        }
        assert!(PRICES.iter().filter(|p| p.open_weights).count() >= 4);
        assert!(PRICES.iter().filter(|p| !p.open_weights).count() >= 4);
    }

    #[test]
    fn a_traffic_mix_prices_its_input_and_cache() {
        // DeepSeek's list (in force until 2025-09-05): 0.27 a million fresh input tokens,
        // 0.07 cached, 1.10 output. 4 input tokens an output token, half of them cached:
        // 4 × (0.5·0.07 + 0.5·0.27) + 1.10 = 1.78.
        let p = &PRICES[0];
        assert!((p.per_mtok_output(4096.0, 1024.0, 0.5) - 1.78).abs() < 1e-9);
        assert_eq!(break_even_utilisation(0.5, 1.0), Some(0.5));
        assert_eq!(break_even_utilisation(2.0, 1.0), None);
        assert_eq!(for_model("llama3-70b")[0].provider, "Groq");
        // The same model's prices lead; each is the API's cost for the mix against ours.
        let b = beside("llama3-70b", 0.5, 1024.0, 256.0, 0.0);
        assert_eq!(b.len(), PRICES.len());
        assert_eq!(b[0].price.model_id, Some("llama3-70b"));
        assert!((b[0].api_usd_per_mtok - (4.0 * 0.59 + 0.79)).abs() < 1e-9);
        assert_eq!(b[0].break_even, Some(0.5 / b[0].api_usd_per_mtok));
    }
}
