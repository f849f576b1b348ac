//! Serving engines as the simulator sees them: the time each takes a step on the host, outside
//! the accelerator's work, and how it fits prompts in beside the decoding sequences.
//!
//! The accelerator's step is the analytic model's ([`crate::workload::StepModel`]); an engine
//! adds what its scheduler does around it. `ideal` adds nothing, and so agrees with the
//! analytic model, which knows no engine. The host time of the Python-scheduled engines is
//! one parameter, fitted to one published run ([`super::measured::fit_host_step`]).

use super::SimConfig;

/// A Python-scheduled engine's own time a step (scheduling, sampling, detokenising, the
/// batch's bookkeeping) where the accelerator waits for it, seconds: fitted to SGLang 0.3's
/// median TPOT on 4 × H100 at 4 requests/s ([`super::measured::fit_host_step`]; a test checks
/// the fit still gives it).
pub const HOST_STEP_S: f64 = 5.58e-3;

/// One engine.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Engine {
    /// Id as links and the CLI write it.
    pub id: &'static str,
    /// What it stands for.
    pub name: &'static str,
    /// Its own time a step, seconds.
    pub host_step_s: f64,
    /// Prompts get steps of their own, the decoding sequences waiting ([`SimConfig::prefill_first`]).
    pub prefill_first: bool,
    /// Where its figures come from, and which are assumed.
    pub basis: &'static str,
}

impl Engine {
    /// Sets `cfg`'s engine parameters to this engine's.
    pub fn apply(&self, cfg: &mut SimConfig) {
        cfg.host_step_s = self.host_step_s;
        cfg.prefill_first = self.prefill_first;
    }
}

/// Every engine, the default first.
pub const ENGINES: [Engine; 4] = [
    Engine {
        id: "ideal",
        name: "ideal",
        host_step_s: 0.0,
        prefill_first: false,
        basis: "no engine: the accelerator's time alone, prompts chunked into decode steps, as the analytic model has it, so the two agree at low load",
    },
    Engine {
        id: "trt-llm",
        name: "TensorRT-LLM",
        host_step_s: 0.0,
        prefill_first: false,
        basis: "in-flight batching with prompts chunked into decode steps, as MLPerf's configurations set it (enable_chunked_context); assumed: its C++ executor's time a step is hidden behind the GPU's",
    },
    Engine {
        id: "sglang",
        name: "SGLang 0.3",
        host_step_s: HOST_STEP_S,
        prefill_first: true,
        basis: "prefill batches run before decoding (mixed chunks are opt-in); its host time a step fitted to SGLang 0.3's median TPOT on 4 × H100 at 4 requests/s",
    },
    Engine {
        id: "vllm",
        name: "vLLM (and Neuron's vLLM)",
        host_step_s: HOST_STEP_S,
        prefill_first: true,
        basis: "prompts in steps of their own, as vLLM's V0 scheduler without chunked prefill and Neuron's context encoding run them; assumed: SGLang's fitted host time carried over to this other Python-scheduled engine",
    },
];

/// Every engine's id.
pub const IDS: [&str; ENGINES.len()] = {
    let mut out = [""; ENGINES.len()];
    let mut i = 0;
    while i < ENGINES.len() {
        out[i] = ENGINES[i].id;
        i += 1;
    }
    out
};

/// The engine `id`.
#[must_use]
pub fn find(id: &str) -> Option<&'static Engine> {
    ENGINES.iter().find(|e| e.id == id)
}
