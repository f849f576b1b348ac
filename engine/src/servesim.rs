//! A serving replica simulated request by request: arrivals, continuous batching under a
//! token budget with chunked prefill, the KV cache as blocks (a request is preempted and
//! recomputed when they run out), a prefix cache that keeps a session's context for its next
//! turn, and KV offload to host memory. Each step costs what the analytic serving model's
//! parts say ([`crate::workload::StepModel`]), so at low load the two agree; under load the
//! queue, the batch and the cache decide the latencies.
//!
//! Seeded and deterministic: the same configuration and seed give the same result.

pub mod engines;
pub mod measured;
pub mod traffic;

use alloc::collections::{BinaryHeap, VecDeque};
use alloc::string::String;
use alloc::vec::Vec;
use core::cmp::Reverse;

use crate::workload::{StepModel, WorkloadError};
pub use traffic::{Rng, TraceRow, Traffic};

/// How the replica is run and what arrives.
#[derive(Clone, Debug, PartialEq)]
pub struct SimConfig {
    /// What arrives.
    pub traffic: Traffic,
    /// Requests per second arriving at the replica (for sessions, their turns), on average.
    pub rate: f64,
    /// Seconds of arrivals (the simulation then runs until the last request is answered).
    pub duration_s: f64,
    /// The seed of everything random.
    pub seed: u64,
    /// Prompt tokens of a request (of a session's first turn).
    pub prompt: u32,
    /// Output tokens of a request.
    pub output: u32,
    /// Sequences a step runs at most.
    pub max_seqs: u32,
    /// Tokens a step processes at most, decoded and prefilled.
    pub token_budget: u32,
    /// Tokens of KV cache a block holds.
    pub block_tokens: u32,
    /// Keep a session's KV cache for its next turn.
    pub prefix_cache: bool,
    /// Host memory for KV blocks evicted from HBM, bytes (0: none).
    pub host_kv_bytes: f64,
    /// Bandwidth between host memory and the replica's HBM, bytes/s.
    pub host_bw: f64,
    /// The serving engine's own time each step, seconds: scheduling, sampling and
    /// detokenising on the host, where they are not hidden behind the accelerator's work
    /// ([`engines::Engine`]).
    pub host_step_s: f64,
    /// How the engine fits prefills in: `false`, chunks of prompts share steps with the
    /// decoding sequences (chunked prefill); `true`, a step with prompts waiting prefills only
    /// them and the decoding sequences wait (vLLM's scheduler without chunked prefill,
    /// Neuron's context encoding).
    pub prefill_first: bool,
    /// Each request of Poisson or bursty traffic draws its prompt and output lengths around
    /// the given means (log-normal, as sessions' turns do) instead of taking them exactly:
    /// a dataset's requests, not one shape repeated.
    pub vary_lengths: bool,
    /// Time-to-first-token target, seconds.
    pub ttft_target_s: f64,
    /// Time-per-output-token target, seconds.
    pub tpot_target_s: f64,
}

impl SimConfig {
    /// A configuration with vLLM's defaults (256 sequences, 8,192 tokens a step, blocks of
    /// 16 tokens) and the prefix cache on.
    #[must_use]
    pub fn new(traffic: Traffic, rate: f64, prompt: u32, output: u32) -> SimConfig {
        SimConfig {
            traffic,
            rate,
            duration_s: DEFAULT_DURATION_S,
            seed: 1,
            prompt,
            output,
            max_seqs: 256,
            token_budget: 8192,
            block_tokens: 16,
            prefix_cache: true,
            host_kv_bytes: 0.0,
            host_bw: 0.0,
            host_step_s: 0.0,
            prefill_first: false,
            vary_lengths: false,
            ttft_target_s: 2.0,
            tpot_target_s: 0.1,
        }
    }
}

/// Bandwidth between host memory and a replica's HBM unless given, GB/s: PCIe Gen5 ×16
/// carries 64 GB/s a direction, of which about 50 are taken as reached (an assumption).
pub const DEFAULT_HOST_BW_GBPS: f64 = 50.0;
/// Seconds of traffic simulated unless asked otherwise: ten minutes.
pub const DEFAULT_DURATION_S: f64 = 600.0;
/// Most requests one simulation serves.
pub const MAX_REQUESTS: f64 = 1_000_000.0;
/// Most steps one simulation runs before it stops and says so.
pub const MAX_STEPS: u64 = 20_000_000;
/// Most tokens a step may process.
pub const MAX_TOKEN_BUDGET: u32 = 1 << 20;
/// Bins of the utilisation timeline.
pub const TIMELINE_BINS: usize = 120;

/// The mean and three percentiles of a latency.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Percentiles {
    /// Mean.
    pub mean: f64,
    /// Median.
    pub p50: f64,
    /// 90th percentile.
    pub p90: f64,
    /// 99th percentile.
    pub p99: f64,
}

/// One bin of the timeline.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Bin {
    /// Its start, seconds.
    pub t_s: f64,
    /// Share of it the replica was running steps.
    pub busy: f64,
    /// Sequences running, on average over its steps.
    pub running: f64,
    /// Requests waiting at its end.
    pub waiting: f64,
    /// Share of the KV blocks in use (cached prefixes included) at its end.
    pub kv_used: f64,
}

/// What a simulation found.
#[derive(Clone, Debug, PartialEq)]
pub struct SimReport {
    /// Requests that arrived.
    pub requests: u32,
    /// Requests answered.
    pub completed: u32,
    /// Time to first token.
    pub ttft_s: Percentiles,
    /// Time per output token after the first.
    pub tpot_s: Percentiles,
    /// Inter-token latency: every gap between two tokens of a request, token by token (where
    /// TPOT averages each request's). Its percentiles are read from a histogram of bins 2%
    /// wide.
    pub itl_s: Percentiles,
    /// Arrival to last token.
    pub e2e_s: Percentiles,
    /// Each answered request's TTFT, in arrival order (for a distribution).
    pub ttfts: Vec<f64>,
    /// Each answered request's TPOT, in arrival order.
    pub tpots: Vec<f64>,
    /// Output tokens per second, from the first arrival to the last token.
    pub output_tokens_per_s: f64,
    /// Requests per second answered within both targets.
    pub goodput_rps: f64,
    /// Share of answered requests within both targets.
    pub within_targets: f64,
    /// Times a running request lost its KV cache to a fuller one and was recomputed.
    pub preemptions: u32,
    /// Share of prompt tokens found in the prefix cache (HBM or host).
    pub prefix_hit: f64,
    /// Share of prompt tokens brought back from host memory.
    pub host_hit: f64,
    /// Steps run.
    pub steps: u64,
    /// Share of the time the replica was busy.
    pub busy: f64,
    /// KV blocks the replica holds.
    pub kv_blocks: u32,
    /// The timeline.
    pub timeline: Vec<Bin>,
    /// Seconds simulated.
    pub makespan_s: f64,
    /// Said where the simulation stopped early or simplified.
    pub notes: Vec<String>,
}

/// A request's life.
#[derive(Clone, Debug)]
struct Req {
    arrival: f64,
    /// Tokens of context it sends (a session's history included).
    prompt: u32,
    /// Output tokens still to come (fewer after a preemption: what it had is recomputed as
    /// prompt).
    output: u32,
    /// Output tokens it asked for.
    asked: u32,
    /// Its session (index into the sessions), if any.
    session: Option<usize>,
    /// Prompt tokens its prefill must still compute (after the prefix cache).
    to_prefill: u32,
    /// Prompt tokens computed so far.
    prefilled: u32,
    /// Prompt tokens found cached.
    cached: u32,
    generated: u32,
    first: f64,
    /// When its last token came.
    last: f64,
    finish: f64,
    blocks: u32,
    /// Extra time to bring its prefix back from host memory, paid in its first step.
    reload_s: f64,
}

/// A session's state between turns.
#[derive(Clone, Debug)]
struct Session {
    turns_left: u32,
    /// Its context after the last answered turn.
    context: u32,
    /// Blocks of that context kept in HBM (0 when not cached there).
    cached_blocks: u32,
    /// Tokens of it kept in host memory (0 when not offloaded).
    host_tokens: u32,
    /// When its cache was last used (for least-recently-used eviction).
    last_use: f64,
}

/// Simulates `cfg`'s traffic on a replica whose steps cost what `sm` says.
///
/// # Errors
/// Lengths or rates out of range, a prompt that cannot fit the KV cache, or a step the model
/// cannot cost.
#[allow(clippy::too_many_lines)]
pub fn simulate(sm: &StepModel, cfg: &SimConfig) -> Result<SimReport, WorkloadError> {
    let bad = |m: &str| Err(WorkloadError::BadInput(m.into()));
    let positive = |x: f64| x > 0.0 && x.is_finite();
    if !(positive(cfg.rate) && positive(cfg.duration_s)) {
        return bad("the rate and the duration must be positive");
    }
    if cfg.rate * cfg.duration_s > MAX_REQUESTS {
        return bad(
            "a simulation serves at most 1,000,000 requests: lower the rate or the duration",
        );
    }
    if cfg.prompt == 0
        || cfg.output == 0
        || cfg.max_seqs == 0
        || cfg.token_budget == 0
        || cfg.block_tokens == 0
    {
        return bad("prompt, output, sequences, token budget and block size must be at least 1");
    }
    if cfg.token_budget > MAX_TOKEN_BUDGET {
        return bad("a step processes at most 1,048,576 tokens");
    }
    let m = &sm.model;
    // A compiled deployment (Neuron) holds at most its graph's batch.
    let graph = sm.compiled;
    let max_seqs = graph.map_or(cfg.max_seqs, |c| cfg.max_seqs.min(c.batch.max(1)));
    let bt = f64::from(cfg.block_tokens);
    let total_blocks =
        libm::floor(sm.kv_capacity / sm.kv_bytes / bt).min(f64::from(u32::MAX)) as u32;
    if total_blocks == 0 {
        return bad("the weights leave no room for a KV cache on this replica");
    }
    // Blocks a sequence of `ctx` tokens holds: windowed layers keep only their window.
    let blocks_for = |ctx: u32| libm::ceil(m.attended(f64::from(ctx)) / bt) as u32;
    let host_blocks = if cfg.host_bw > 0.0 {
        libm::floor(cfg.host_kv_bytes / sm.kv_bytes / bt) as u32
    } else {
        0
    };
    let mut rng = Rng::new(cfg.seed);
    let mut reqs: Vec<Req> = Vec::new();
    let mut sessions: Vec<Session> = Vec::new();
    // Arrivals not yet due: (time, request index).
    let mut due: BinaryHeap<Reverse<(u64, usize)>> = BinaryHeap::new();
    let key = |t: f64| t.to_bits();
    let new_req = |arrival: f64, prompt: u32, output: u32, session: Option<usize>| Req {
        arrival,
        prompt,
        output,
        asked: output,
        session,
        to_prefill: prompt,
        prefilled: 0,
        cached: 0,
        generated: 0,
        first: f64::NAN,
        last: f64::NAN,
        finish: f64::NAN,
        blocks: 0,
        reload_s: 0.0,
    };
    let (p, o) = (f64::from(cfg.prompt), f64::from(cfg.output));
    match &cfg.traffic {
        Traffic::Trace(rows) => {
            for r in rows.iter().filter(|r| r.at_s <= cfg.duration_s) {
                due.push(Reverse((key(r.at_s), reqs.len())));
                reqs.push(new_req(r.at_s, r.prompt, r.output, None));
            }
        }
        t => {
            // Requests (or sessions) arrive at rate / turns per session.
            let starts = cfg.rate / t.mean_turns();
            let mut at = 0.0;
            loop {
                at += match t {
                    Traffic::Bursty => rng.gamma_small(0.25, 1.0 / starts),
                    _ => rng.exp(1.0 / starts),
                };
                if at > cfg.duration_s {
                    break;
                }
                let (prompt, output, session) = match t {
                    Traffic::Chat | Traffic::Agentic => {
                        // Turns: 1 + geometric, so the mean is the traffic's.
                        let q = 1.0 / t.mean_turns();
                        let extra = libm::floor(libm::log(rng.uniform()) / libm::log(1.0 - q));
                        let turns = 1 + extra.min(200.0) as u32;
                        let out = if matches!(t, Traffic::Agentic) {
                            o / 4.0
                        } else {
                            o
                        };
                        sessions.push(Session {
                            turns_left: turns - 1,
                            context: 0,
                            cached_blocks: 0,
                            host_tokens: 0,
                            last_use: at,
                        });
                        (rng.length(p), rng.length(out), Some(sessions.len() - 1))
                    }
                    _ if cfg.vary_lengths => (rng.length(p), rng.length(o), None),
                    _ => (cfg.prompt, cfg.output, None),
                };
                due.push(Reverse((key(at), reqs.len())));
                reqs.push(new_req(at, prompt, output, session));
            }
        }
    }
    let mut notes = Vec::new();
    if reqs
        .iter()
        .any(|r| blocks_for(r.prompt + r.output) > total_blocks)
    {
        notes
            .push("a request's context is larger than the whole KV cache: it is cut to fit".into());
    }
    let mut waiting: VecDeque<usize> = VecDeque::new();
    let mut running: Vec<usize> = Vec::new();
    let mut free = total_blocks;
    // Cached sessions' blocks, oldest use first, found by scanning (few sessions are cached).
    let mut host_free = host_blocks;
    let mut t = 0.0_f64;
    let mut busy = 0.0;
    let mut steps = 0u64;
    let mut preemptions = 0u32;
    let (mut prompt_tokens, mut cached_tokens, mut host_tokens) = (0.0, 0.0, 0.0);
    let mut exchanges: Vec<f64> = Vec::new();
    let horizon = cfg.duration_s;
    let bin_w = horizon / TIMELINE_BINS as f64;
    let mut timeline: Vec<Bin> = (0..TIMELINE_BINS)
        .map(|i| Bin {
            t_s: i as f64 * bin_w,
            ..Bin::default()
        })
        .collect();
    let mut bin_steps = alloc::vec![0u32; TIMELINE_BINS];
    let mut itl = Histogram::new();
    loop {
        while let Some(Reverse((k, i))) = due.peek().copied() {
            if f64::from_bits(k) > t {
                break;
            }
            due.pop();
            waiting.push_back(i);
        }
        if running.is_empty() && waiting.is_empty() {
            match due.peek() {
                Some(Reverse((k, _))) => {
                    t = f64::from_bits(*k);
                    continue;
                }
                None => break,
            }
        }
        // Admit from the queue while sequences and blocks allow, evicting cached prefixes
        // (least recently used first) to make room.
        while running.len() < max_seqs as usize {
            let Some(&i) = waiting.front() else { break };
            let r = &reqs[i];
            let ctx = r.prompt.min(
                total_blocks
                    .saturating_mul(cfg.block_tokens)
                    .saturating_sub(r.output.max(1)),
            );
            let mut cached = 0u32;
            let mut reload = 0.0;
            let mut reuse_blocks = 0u32;
            if let (true, Some(s)) = (cfg.prefix_cache, r.session) {
                let sess = &sessions[s];
                if sess.cached_blocks > 0 {
                    cached = sess.context.min(ctx);
                    reuse_blocks = sess.cached_blocks;
                } else if sess.host_tokens > 0 {
                    cached = sess.host_tokens.min(ctx);
                    reload = m.attended(f64::from(cached)) * sm.kv_bytes / cfg.host_bw;
                }
            }
            let need = blocks_for(ctx).saturating_sub(reuse_blocks);
            // Room: free blocks, and other sessions' cached blocks.
            let evictable: u32 = sessions
                .iter()
                .enumerate()
                .filter(|(k, _)| Some(*k) != r.session)
                .map(|(_, s)| s.cached_blocks)
                .sum();
            if need > free + evictable {
                break;
            }
            while free < need {
                // The least recently used cached session gives its blocks up, to host memory
                // if there is room there.
                let Some((k, _)) = sessions
                    .iter()
                    .enumerate()
                    .filter(|(k, s)| s.cached_blocks > 0 && Some(*k) != r.session)
                    .min_by(|a, b| a.1.last_use.total_cmp(&b.1.last_use))
                else {
                    break;
                };
                let s = &mut sessions[k];
                free += s.cached_blocks;
                if host_blocks > 0 && s.cached_blocks <= host_free {
                    host_free -= s.cached_blocks;
                    s.host_tokens = s.context;
                }
                s.cached_blocks = 0;
            }
            waiting.pop_front();
            if let Some(s) = r.session {
                let sess = &mut sessions[s];
                if sess.host_tokens > 0 && reload > 0.0 {
                    host_free += blocks_for(sess.host_tokens);
                    sess.host_tokens = 0;
                }
                sess.cached_blocks = 0;
                sess.last_use = t;
            }
            free -= need;
            let r = &mut reqs[i];
            r.blocks = need + reuse_blocks;
            r.prompt = ctx;
            r.cached = cached;
            r.to_prefill = ctx - cached;
            r.prefilled = 0;
            r.reload_s = reload;
            prompt_tokens += f64::from(ctx);
            cached_tokens += f64::from(cached);
            if reload > 0.0 {
                host_tokens += f64::from(cached);
            }
            running.push(i);
        }
        if running.is_empty() {
            // Nothing fits yet: wait for the next arrival (only an oversized request can
            // stall here, and it was cut to fit).
            match due.peek() {
                Some(Reverse((k, _))) if f64::from_bits(*k) > t => {
                    t = f64::from_bits(*k);
                    continue;
                }
                _ => break,
            }
        }
        // Each decoding sequence may need a block for its next token; preempt the newest
        // running request (recomputed later) when none is free.
        let mut k = 0;
        while k < running.len() {
            let i = running[k];
            let r = &reqs[i];
            let decoding = r.prefilled >= r.to_prefill;
            let ctx = r.prompt + r.generated;
            if decoding && blocks_for(ctx + 1) > r.blocks {
                if free == 0 {
                    // Evict a cached session first; else preempt the newest other request.
                    if let Some((s, _)) = sessions
                        .iter()
                        .enumerate()
                        .filter(|(_, s)| s.cached_blocks > 0)
                        .min_by(|a, b| a.1.last_use.total_cmp(&b.1.last_use))
                    {
                        free += sessions[s].cached_blocks;
                        sessions[s].cached_blocks = 0;
                    } else {
                        let victim = *running.last().unwrap_or(&i);
                        running.retain(|x| *x != victim);
                        // (`output` counts what is left; the finished tokens become prompt.)
                        let v = &mut reqs[victim];
                        free += v.blocks;
                        v.blocks = 0;
                        // Recomputed from scratch: its prompt and what it had generated.
                        v.prompt += v.generated;
                        v.output -= v.generated.min(v.output - 1);
                        v.generated = 0;
                        v.prefilled = 0;
                        v.to_prefill = v.prompt;
                        v.cached = 0;
                        waiting.push_front(victim);
                        preemptions += 1;
                        if victim == i {
                            continue;
                        }
                        continue;
                    }
                }
                free -= 1;
                reqs[i].blocks += 1;
            }
            k += 1;
        }
        // The step: one token of every decoding sequence, then prefill chunks in admission
        // order up to the token budget.
        let (mut decode, mut att, mut indexed) = (0.0_f64, 0.0, 0.0);
        let (mut prefill, mut prefill_flops, mut reload) = (0.0, 0.0, 0.0);
        let mut budget = f64::from(cfg.token_budget);
        let mut chunks: Vec<(usize, u32)> = Vec::new();
        // A prefill-first engine (and a compiled deployment, whose context encoding is a graph
        // of its own) gives a step to the prompts whenever one is waiting.
        let decoding = !((cfg.prefill_first || graph.is_some())
            && running
                .iter()
                .any(|&i| reqs[i].prefilled < reqs[i].to_prefill));
        for &i in running.iter().filter(|_| decoding) {
            let r = &reqs[i];
            if r.prefilled >= r.to_prefill {
                decode += 1.0;
                let ctx = f64::from(r.prompt + r.generated);
                att += m.attended_read(ctx);
                indexed += ctx;
                budget -= 1.0;
            }
        }
        if let (Some(c), true) = (graph, decode > 0.0) {
            // The token-generation graph runs its whole batch, every sequence at the bucket
            // of the longest context.
            let longest = running
                .iter()
                .map(|&i| &reqs[i])
                .filter(|r| r.prefilled >= r.to_prefill)
                .map(|r| r.prompt + r.generated)
                .max()
                .unwrap_or(0);
            let bucket = c.bucket(f64::from(longest) + 1.0);
            decode = decode.max(f64::from(c.batch));
            att = decode * m.attended_read(bucket);
            indexed = decode * bucket;
        }
        for &i in &running {
            if budget < 1.0 {
                break;
            }
            let r = &reqs[i];
            if r.prefilled < r.to_prefill {
                let (c, from) = (
                    (r.to_prefill - r.prefilled).min(budget as u32),
                    f64::from(r.cached + r.prefilled),
                );
                // A compiled deployment prefills one whole prompt a step, padded to its
                // bucket; otherwise chunks fill the budget.
                let (c, to) = match graph {
                    // (A prompt past the last bucket runs as it is.)
                    Some(g) => (
                        r.to_prefill - r.prefilled,
                        g.bucket(f64::from(r.prompt)).max(f64::from(r.prompt)),
                    ),
                    None => (c, from + f64::from(c)),
                };
                let run = to - from;
                prefill += run;
                prefill_flops += run
                    * (m.forward_flops_per_token(m.mean_attended(from, to))
                        + m.indexer_flops((from + to) / 2.0));
                budget -= run;
                reload += r.reload_s;
                chunks.push((i, c));
                if graph.is_some() {
                    break;
                }
            }
        }
        let tokens = (decode + prefill) as usize;
        if exchanges.len() <= tokens {
            exchanges.resize(tokens + 1, f64::NAN);
        }
        if exchanges[tokens].is_nan() {
            exchanges[tokens] = sm.exchanges(tokens as f64)?;
        }
        let dt = sm.step_with(
            decode,
            (att, indexed),
            prefill,
            prefill_flops,
            exchanges[tokens],
        ) + reload
            + cfg.host_step_s;
        let start = t;
        t += dt;
        busy += dt - cfg.host_step_s;
        steps += 1;
        let b = ((start / bin_w) as usize).min(TIMELINE_BINS - 1);
        bin_steps[b] += 1;
        timeline[b].running += running.len() as f64;
        timeline[b].busy += dt - cfg.host_step_s;
        // Tokens out: a prefill that completes gives the request its first token.
        for (i, c) in chunks {
            let r = &mut reqs[i];
            r.prefilled += c;
            r.reload_s = 0.0;
            if r.prefilled >= r.to_prefill {
                r.generated = 1;
                r.last = t;
                if r.first.is_nan() {
                    r.first = t;
                }
            }
        }
        let mut done = Vec::new();
        for &i in &running {
            let r = &mut reqs[i];
            if decoding
                && r.prefilled >= r.to_prefill
                && r.generated >= 1
                && !r.first.is_nan()
                && r.first < t
            {
                r.generated += 1;
                itl.add(t - r.last);
                r.last = t;
            }
            if r.generated >= r.output && !r.first.is_nan() {
                r.finish = t;
                done.push(i);
            }
        }
        for i in done {
            running.retain(|x| *x != i);
            let (session, blocks, ctx) = {
                let r = &reqs[i];
                (r.session, r.blocks, r.prompt + r.generated)
            };
            match session {
                Some(s) if sessions[s].turns_left > 0 => {
                    let sess = &mut sessions[s];
                    sess.turns_left -= 1;
                    sess.context = ctx;
                    sess.last_use = t;
                    if cfg.prefix_cache {
                        sess.cached_blocks = blocks;
                    } else {
                        free += blocks;
                    }
                    // The next turn: after a user's reply or a tool's run, the whole context
                    // and something new.
                    let agentic = matches!(cfg.traffic, Traffic::Agentic);
                    let (think, fresh, out) = if agentic {
                        (rng.exp(2.0), rng.length(p / 2.0), rng.length(o / 4.0))
                    } else {
                        (rng.exp(15.0), rng.length(p / 4.0), rng.length(o))
                    };
                    let at = t + think;
                    let prompt = ctx.saturating_add(fresh);
                    due.push(Reverse((key(at), reqs.len())));
                    reqs.push(new_req(at, prompt, out, Some(s)));
                }
                _ => free += blocks,
            }
            reqs[i].blocks = 0;
        }
        let used = f64::from(total_blocks - free) / f64::from(total_blocks);
        timeline[b].waiting = waiting.len() as f64;
        timeline[b].kv_used = used;
        if steps >= MAX_STEPS {
            notes.push(alloc::format!(
                "stopped after {MAX_STEPS} steps: the replica cannot keep up with this load"
            ));
            break;
        }
    }
    for (bin, n) in timeline.iter_mut().zip(&bin_steps) {
        if *n > 0 {
            bin.running /= f64::from(*n);
        }
        bin.busy = (bin.busy / bin_w).min(1.0);
    }
    // Answered requests, in arrival order.
    let mut answered: Vec<&Req> = reqs.iter().filter(|r| !r.finish.is_nan()).collect();
    answered.sort_by(|a, b| a.arrival.total_cmp(&b.arrival));
    let ttfts: Vec<f64> = answered.iter().map(|r| r.first - r.arrival).collect();
    let tpots: Vec<f64> = answered
        .iter()
        .map(|r| {
            if r.asked > 1 {
                (r.finish - r.first) / f64::from(r.asked - 1)
            } else {
                0.0
            }
        })
        .collect();
    let e2e: Vec<f64> = answered.iter().map(|r| r.finish - r.arrival).collect();
    let first_arrival = answered.first().map_or(0.0, |r| r.arrival);
    let out_tokens: f64 = answered.iter().map(|r| f64::from(r.asked)).sum();
    let ok = ttfts
        .iter()
        .zip(&tpots)
        .filter(|(a, b)| **a <= cfg.ttft_target_s && **b <= cfg.tpot_target_s)
        .count();
    let span = (t - first_arrival).max(1e-9);
    Ok(SimReport {
        requests: reqs.len() as u32,
        completed: answered.len() as u32,
        ttft_s: percentiles(&ttfts),
        tpot_s: percentiles(&tpots),
        itl_s: itl.percentiles(),
        e2e_s: percentiles(&e2e),
        output_tokens_per_s: out_tokens / span,
        goodput_rps: ok as f64 / cfg.duration_s,
        within_targets: if answered.is_empty() {
            0.0
        } else {
            ok as f64 / answered.len() as f64
        },
        preemptions,
        prefix_hit: if prompt_tokens > 0.0 {
            cached_tokens / prompt_tokens
        } else {
            0.0
        },
        host_hit: if prompt_tokens > 0.0 {
            host_tokens / prompt_tokens
        } else {
            0.0
        },
        steps,
        busy: busy / t.max(1e-9),
        kv_blocks: total_blocks,
        timeline,
        makespan_s: t,
        notes,
        ttfts,
        tpots,
    })
}

/// What a simulation found besides its latencies, in one line: throughput, the share within
/// the targets, use, preemptions, the prefix cache and host memory's share.
#[must_use]
pub fn summary(r: &SimReport, c: &SimConfig) -> String {
    use crate::units::sig;
    let ms = |x: f64| alloc::format!("{} ms", sig(x * 1e3, 3));
    alloc::format!(
        "{} output tokens/s; {}% of requests within TTFT ≤ {} and TPOT ≤ {} (goodput {} requests/s); busy {}%; {} preemptions; the prefix cache found {}% of prompt tokens ({} KV blocks of {} tokens)",
        sig(r.output_tokens_per_s, 4),
        sig(r.within_targets * 100.0, 3),
        ms(c.ttft_target_s),
        ms(c.tpot_target_s),
        sig(r.goodput_rps, 3),
        sig(r.busy * 100.0, 3),
        r.preemptions,
        sig(r.prefix_hit * 100.0, 3),
        r.kv_blocks,
        c.block_tokens
    ) + &if c.host_bw > 0.0 && c.host_kv_bytes > 0.0 {
        alloc::format!(
            "; {}% of prompt tokens reloaded from {} GB of host memory at {} GB/s",
            sig(r.host_hit * 100.0, 3),
            sig(c.host_kv_bytes / 1e9, 4),
            sig(c.host_bw / 1e9, 3)
        )
    } else {
        String::new()
    }
}

/// The 50th, 90th and 99th percentiles of `xs` (nearest rank); zeros when empty.
#[must_use]
pub fn percentiles(xs: &[f64]) -> Percentiles {
    if xs.is_empty() {
        return Percentiles::default();
    }
    let mut v: Vec<f64> = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let at = |q: f64| {
        let k = libm::ceil(q * v.len() as f64) as usize;
        v[k.clamp(1, v.len()) - 1]
    };
    Percentiles {
        mean: v.iter().sum::<f64>() / v.len() as f64,
        p50: at(0.5),
        p90: at(0.9),
        p99: at(0.99),
    }
}

/// Gaps between tokens, counted in bins of equal ratio (from 10 µs to 1,000 s, 2% each): a
/// run of millions of tokens keeps a few kilobytes, and its percentiles are within a bin.
struct Histogram {
    counts: Vec<u64>,
    sum: f64,
    n: u64,
}

impl Histogram {
    const LO: f64 = 1e-5;
    const RATIO: f64 = 1.02;
    const BINS: usize = 931; // 1.02^931 ≈ 1e8: up to 1,000 s.

    fn new() -> Histogram {
        Histogram {
            counts: alloc::vec![0; Self::BINS],
            sum: 0.0,
            n: 0,
        }
    }
    fn add(&mut self, x: f64) {
        let k = if x <= Self::LO {
            0
        } else {
            (libm::log(x / Self::LO) / libm::log(Self::RATIO)) as usize
        };
        self.counts[k.min(Self::BINS - 1)] += 1;
        self.sum += x;
        self.n += 1;
    }
    /// The mean, and each percentile at its bin's geometric middle.
    fn percentiles(&self) -> Percentiles {
        if self.n == 0 {
            return Percentiles::default();
        }
        let at = |q: f64| {
            let want = libm::ceil(q * self.n as f64).max(1.0) as u64;
            let mut seen = 0;
            for (k, c) in self.counts.iter().enumerate() {
                seen += c;
                if seen >= want {
                    return Self::LO * libm::pow(Self::RATIO, k as f64 + 0.5);
                }
            }
            Self::LO * libm::pow(Self::RATIO, Self::BINS as f64)
        };
        Percentiles {
            mean: self.sum / self.n as f64,
            p50: at(0.5),
            p90: at(0.9),
            p99: at(0.99),
        }
    }
}

#[cfg(test)]
mod tests;

/// One load of a sweep: the rate and the 99th percentiles there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LoadPoint {
    /// Requests per second.
    pub rate: f64,
    /// TTFT at the 99th percentile.
    pub ttft_p99_s: f64,
    /// TPOT at the 99th percentile.
    pub tpot_p99_s: f64,
    /// Whether both are within the targets (MLPerf's Server rule).
    pub holds: bool,
}

/// TTFT against offered load: `cfg` simulated at `points` rates from `lo` to `hi`
/// (geometrically spaced), then the highest rate that holds both targets at the 99th
/// percentile, found by bisection between the last rate that held and the first that did not
/// (`refine` halvings). `progress` hears each simulation as it finishes.
///
/// # Errors
/// As [`simulate`].
pub fn load_curve(
    sm: &StepModel,
    cfg: &SimConfig,
    (lo, hi): (f64, f64),
    points: usize,
    refine: usize,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<(Vec<LoadPoint>, Option<f64>), WorkloadError> {
    let total = points + refine;
    let mut at = |rate: f64, k: usize| -> Result<LoadPoint, WorkloadError> {
        let r = simulate(
            sm,
            &SimConfig {
                rate,
                ..cfg.clone()
            },
        )?;
        progress(k + 1, total);
        let holds = r.completed == r.requests
            && r.ttft_s.p99 <= cfg.ttft_target_s
            && r.tpot_s.p99 <= cfg.tpot_target_s;
        Ok(LoadPoint {
            rate,
            ttft_p99_s: r.ttft_s.p99,
            tpot_p99_s: r.tpot_s.p99,
            holds,
        })
    };
    let n = points.max(2);
    let mut curve = Vec::with_capacity(n);
    for k in 0..n {
        let rate = lo * libm::pow(hi / lo, k as f64 / (n - 1) as f64);
        curve.push(at(rate, k)?);
    }
    let last_ok = curve.iter().rposition(|p| p.holds);
    let max = match last_ok {
        None => None,
        Some(i) if i + 1 == curve.len() => Some(curve[i].rate),
        Some(i) => {
            let (mut a, mut b) = (curve[i].rate, curve[i + 1].rate);
            for k in 0..refine {
                let mid = libm::sqrt(a * b);
                let p = at(mid, n + k)?;
                if p.holds {
                    a = mid;
                } else {
                    b = mid;
                }
                curve.push(p);
            }
            Some(a)
        }
    };
    curve.sort_by(|x, y| x.rate.total_cmp(&y.rate));
    Ok((curve, max))
}
