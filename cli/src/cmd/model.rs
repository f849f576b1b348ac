//! `accelscope model`: a model's parameters, KV cache per token and spec.

use engine::units::sig;
use engine::workload::{self, custom::Published};
use engine::Dtype;
use serde_json::{json, Value};

use super::Run;
use crate::args::{Json, ModelArgs};
use crate::error::Error;
use crate::report::{Format, Report};

/// A model's parameters, KV cache per token and spec
///
/// A model's parameters (beside the published count of a known shape), KV cache per token
/// and its spec, which --model takes like any preset id. `train`, `infer` and `serve-curve`
/// also take --model-config. `accelscope model gpt-oss-120b` is `--model gpt-oss-120b`.
#[derive(clap::Args, Debug)]
// The model may be named without --model.
#[command(
    mut_group("ModelArgs", |g| g.required(false)),
    mut_arg("model", |a| a.required_unless_present_any(["model_config", "id"]))
)]
pub struct Args {
    /// The model, as --model takes it (a preset id or an m: spec)
    #[arg(value_name = "ID", conflicts_with_all = ["model", "model_config"])]
    id: Option<String>,
    #[command(flatten)]
    model: ModelArgs,
    #[command(flatten)]
    out: Json,
}

/// A model and the published count of its shape, if known.
pub struct ModelReport {
    m: workload::Model,
    published: Option<Published>,
}

impl Run for Args {
    type Output = ModelReport;
    fn run(&self) -> Result<ModelReport, Error> {
        let m = match &self.id {
            Some(id) => workload::find_model(id)?,
            None => self.model.load()?,
        };
        let published = workload::custom::published(&m);
        Ok(ModelReport { m, published })
    }
    fn format(&self) -> Format {
        self.out.format()
    }
}

impl Report for ModelReport {
    fn json(&self) -> serde_json::Result<Value> {
        let m = &self.m;
        // KV per token over a sequence of the model's length: windowed layers keep only their
        // window of it.
        let ctx = f64::from(m.seq);
        Ok(json!({
            "name": m.name, "spec": m.to_spec(), "params_total": m.params_total(),
            "params_active": m.params_active(),
            "kv_bytes_per_token_bf16": m.kv_bytes(Dtype::Bf16, ctx) / ctx,
            "kv_bytes_per_token_bf16_every_layer": m.kv_bytes_per_token(Dtype::Bf16),
            "kv_context_tokens": ctx,
            "windowed_layers": m.window_layers, "window_tokens": m.window, "chunked": m.chunked,
            "train_flops_per_token": m.train_flops_per_token(),
            "published": self.published.as_ref().map(|p| json!({"name": p.name, "total": p.total, "active": p.active,
                "source": {"title": p.source.title, "url": p.source.url, "date": p.source.date}})),
        }))
    }

    fn text(&self) -> Option<String> {
        let m = &self.m;
        let vs = |x: f64| format!("{} B", sig(x / 1e9, 4));
        Some(format!(
            "{}: {} parameters, {} active per token; KV cache {} KiB per token in BF16{}{}\nspec: {}",
            m.name,
            vs(m.params_total()),
            vs(m.params_active()),
            sig(m.kv_bytes(Dtype::Bf16, f64::from(m.seq)) / f64::from(m.seq) / 1024.0, 4),
            if m.window_layers > 0 {
                format!(
                    " over {} tokens ({} of {} layers keep a {} of {} tokens; {} KiB with every layer full)",
                    m.seq,
                    m.window_layers,
                    m.layers,
                    if m.chunked { "chunk" } else { "window" },
                    m.window,
                    sig(m.kv_bytes_per_token(Dtype::Bf16) / 1024.0, 4)
                )
            } else {
                String::new()
            },
            self.published.as_ref().map_or(String::new(), |p| format!(
                "\npublished ({}): {}{} — {}",
                p.name,
                vs(p.total),
                p.active
                    .map_or(String::new(), |a| format!(", {} active", vs(a))),
                p.source.url
            )),
            m.to_spec()
        ))
    }
}
