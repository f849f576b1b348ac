//! The serving view of a job: the throughput-versus-interactivity curve of its model on its
//! own platform and on the platforms drawn beside it, each priced at that platform's own
//! rate, and the cheapest configuration on each that meets the job's TTFT and TPOT targets.
//!
//! Each curve is one scale-up domain's worth of configurations
//! ([`crate::workload::curve::curve`]): a replica's chips and its concurrent sequences. Per
//! chip and per dollar do not depend on how many replicas a cluster holds.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use crate::job::{self, Job};
use crate::source::Sourced;
use crate::system::Cluster;
use crate::workload::curve::{cheapest, curve, frontier, ServePoint};
use crate::workload::disagg::{self, Pool, Split};
use crate::workload::{find_model, infer, InferConfig};

/// One platform's curve.
#[derive(Clone, Debug, PartialEq)]
pub struct PlatformCurve {
    /// System id.
    pub system: String,
    /// System name.
    pub name: String,
    /// Price of a chip-hour on it (the job's pricing: rented at the platform's own rate, or
    /// owned at its own chip price).
    pub usd_per_chip_hour: Sourced<f64>,
    /// Every configuration that fits, by interactivity.
    pub points: Vec<ServePoint>,
    /// The points no other beats on both throughput per chip and interactivity.
    pub frontier: Vec<ServePoint>,
    /// The configuration with the most throughput per chip that meets the targets.
    pub cheapest: Option<ServePoint>,
    /// Why no configuration fits, when none does.
    pub error: Option<String>,
}

impl PlatformCurve {
    /// $ per million output tokens at point `p`.
    #[must_use]
    pub fn usd_per_mtok(&self, p: &ServePoint) -> f64 {
        p.usd_per_mtok(self.usd_per_chip_hour.value)
    }
    /// Output tokens per dollar at point `p`.
    #[must_use]
    pub fn tokens_per_usd(&self, p: &ServePoint) -> f64 {
        p.tokens_per_s_per_chip * 3600.0 / self.usd_per_chip_hour.value
    }
}

/// A job's serving curves.
#[derive(Clone, Debug, PartialEq)]
pub struct Serving {
    /// Time-to-first-token target, s.
    pub ttft_s: f64,
    /// Time-per-output-token target, s.
    pub tpot_s: f64,
    /// The job's platform first, then the others drawn beside it.
    pub platforms: Vec<PlatformCurve>,
}

impl Serving {
    /// The platform and point with the lowest $ per million tokens meeting the targets.
    #[must_use]
    pub fn cheapest(&self) -> Option<(usize, ServePoint)> {
        self.platforms
            .iter()
            .enumerate()
            .filter_map(|(i, c)| c.cheapest.map(|p| (i, p, c.usd_per_mtok(&p))))
            .min_by(|a, b| a.2.total_cmp(&b.2))
            .map(|(i, p, _)| (i, p))
    }
    /// Points evaluated over every platform.
    #[must_use]
    pub fn len(&self) -> usize {
        self.platforms.iter().map(|c| c.points.len()).sum()
    }
    /// Whether no platform has a point.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The job's platforms: its own, then [`Job::curve_systems`] without repeats.
#[must_use]
pub fn platforms(job: &Job) -> Vec<String> {
    let mut ids = alloc::vec![job.system.clone()];
    for s in &job.curve_systems {
        if !ids.contains(s) {
            ids.push(s.clone());
        }
    }
    ids
}

/// The curve of the job's model on `system` at the job's prompt and output lengths, format
/// and targets.
#[must_use]
pub fn platform_curve(job: &Job, system_id: &str) -> PlatformCurve {
    let on = if system_id == job.system {
        job.clone()
    } else {
        job.moved_to(system_id, 1)
    };
    let fail = |name: String, why: String| PlatformCurve {
        system: system_id.to_string(),
        name,
        usd_per_chip_hour: Sourced::assumption(f64::NAN),
        points: Vec::new(),
        frontier: Vec::new(),
        cheapest: None,
        error: Some(why),
    };
    let sys = match crate::job::system_of(job, system_id) {
        Ok(s) => s,
        Err(e) => return fail(system_id.to_string(), e.to_string()),
    };
    let name = sys.name.to_string();
    let (chip, model) = match (crate::catalog::find(sys.chip), find_model(&on.model)) {
        (Ok(c), Ok(m)) => (c, m),
        (Err(e), _) => return fail(name, e.to_string()),
        (_, Err(e)) => return fail(name, e.to_string()),
    };
    let (_, rate, _) = job::pricing(&on, &sys, &chip.id);
    let base = job::infer_config(&on, &chip, model, 1);
    let cluster = Cluster {
        system: sys,
        nodes: 1,
    };
    let points = curve(&cluster, &chip, &base);
    let error = if points.is_empty() {
        // The largest replica at one sequence says why nothing fits.
        let widest = InferConfig {
            tp: Some(cluster.system.chips()),
            ..base
        };
        Some(infer(&cluster, &chip, &widest).map_or_else(
            |e| e.to_string(),
            |_| format!("no configuration fits one {name}"),
        ))
    } else {
        None
    };
    PlatformCurve {
        system: system_id.to_string(),
        name,
        usd_per_chip_hour: rate,
        frontier: frontier(&points),
        cheapest: cheapest(&points, job.ttft_s, job.tpot_s),
        points,
        error,
    }
}

/// The job's serving curves on all its platforms.
#[must_use]
pub fn serving(job: &Job) -> Serving {
    Serving {
        ttft_s: job.ttft_s,
        tpot_s: job.tpot_s,
        platforms: platforms(job)
            .iter()
            .map(|s| platform_curve(job, s))
            .collect(),
    }
}

/// One serving option's effect on the job's own platform.
#[derive(Clone, Debug, PartialEq)]
pub struct Effect {
    /// What is set.
    pub label: String,
    /// The frontier with it.
    pub frontier: Vec<ServePoint>,
    /// The cheapest configuration meeting the targets with it.
    pub cheapest: Option<ServePoint>,
    /// Its $ per million output tokens.
    pub usd_per_mtok: Option<f64>,
}

/// The job without its serving options (formats, speculative decoding, prefix cache).
#[must_use]
pub fn without_options(job: &Job) -> Job {
    Job {
        weight_dtype: None,
        kv_dtype: None,
        draft_tokens: 0,
        prefix_hit: 0.0,
        ..job.clone()
    }
}

/// What each serving option the job sets does on its own platform: the curve without any,
/// with each alone, and with all of them; empty when none is set.
#[must_use]
pub fn effects(job: &Job) -> Vec<Effect> {
    let bare = without_options(job);
    let mut variants: Vec<(String, Job)> = Vec::new();
    if let Some(w) = job.weight_dtype {
        variants.push((
            format!("weights in {w}"),
            Job {
                weight_dtype: Some(w),
                ..bare.clone()
            },
        ));
    }
    if let Some(k) = job.kv_dtype {
        variants.push((
            format!("KV cache in {k}"),
            Job {
                kv_dtype: Some(k),
                ..bare.clone()
            },
        ));
    }
    if job.draft_tokens > 0 {
        variants.push((
            format!(
                "{} drafted tokens, {:.0}% accepted",
                job.draft_tokens,
                job.acceptance * 100.0
            ),
            Job {
                draft_tokens: job.draft_tokens,
                acceptance: job.acceptance,
                ..bare.clone()
            },
        ));
    }
    if job.prefix_hit > 0.0 {
        variants.push((
            format!("{:.0}% prefix-cache hits", job.prefix_hit * 100.0),
            Job {
                prefix_hit: job.prefix_hit,
                ..bare.clone()
            },
        ));
    }
    if variants.is_empty() {
        return Vec::new();
    }
    if variants.len() > 1 {
        variants.push(("all of them".into(), job.clone()));
    }
    core::iter::once(("none of them".to_string(), bare))
        .chain(variants)
        .map(|(label, j)| {
            let c = platform_curve(&j, &j.system);
            Effect {
                label,
                usd_per_mtok: c.cheapest.map(|p| c.usd_per_mtok(&p)),
                cheapest: c.cheapest,
                frontier: c.frontier,
            }
        })
        .collect()
}

/// A job served disaggregated: its prefill and decode pools, the cheapest split meeting its
/// targets, and the cheapest co-located configuration on the decode pool's platform.
#[derive(Clone, Debug, PartialEq)]
pub struct Disaggregated {
    /// The prefill pool's platform.
    pub prefill: PlatformCurve,
    /// The decode pool's platform (its curve is the co-located reference).
    pub decode: PlatformCurve,
    /// Configurations evaluated.
    pub evaluated: usize,
    /// The cheapest split meeting the targets.
    pub best: Option<Split>,
    /// Why there is none, when there is none.
    pub error: Option<String>,
}

impl Disaggregated {
    /// $ per million tokens of the cheapest co-located configuration on the decode platform.
    #[must_use]
    pub fn colocated_usd_per_mtok(&self) -> Option<f64> {
        self.decode.cheapest.map(|p| self.decode.usd_per_mtok(&p))
    }
}

/// The job served disaggregated ([`Job::prefill_system`] and [`Job::decode_system`], the
/// job's own platform where empty).
#[must_use]
pub fn disaggregated(job: &Job) -> Disaggregated {
    let pick = |s: &str| {
        if s.is_empty() {
            job.system.clone()
        } else {
            s.to_string()
        }
    };
    let (p_id, d_id) = (pick(&job.prefill_system), pick(&job.decode_system));
    let (prefill, decode) = (platform_curve(job, &p_id), platform_curve(job, &d_id));
    let none = |prefill, decode, why: String| Disaggregated {
        prefill,
        decode,
        evaluated: 0,
        best: None,
        error: Some(why),
    };
    let setup = |id: &str| -> Result<(Cluster, crate::chip::Chip, Job), String> {
        let sys = crate::job::system_of(job, id).map_err(|e| e.to_string())?;
        let chip = crate::catalog::find(sys.chip).map_err(|e| e.to_string())?;
        let on = if id == job.system {
            job.clone()
        } else {
            job.moved_to(id, 1)
        };
        Ok((
            Cluster {
                system: sys,
                nodes: 1,
            },
            chip,
            on,
        ))
    };
    let (pc, pchip, pjob) = match setup(&p_id) {
        Ok(x) => x,
        Err(e) => return none(prefill, decode, e),
    };
    let (dc, dchip, djob) = match setup(&d_id) {
        Ok(x) => x,
        Err(e) => return none(prefill, decode, e),
    };
    let model = match find_model(&job.model) {
        Ok(m) => m,
        Err(e) => return none(prefill, decode, e.to_string()),
    };
    // Each pool at its own chip's matmul efficiency; the decode pool's options.
    let base = job::infer_config(&djob, &dchip, model, 1);
    let pbase = InferConfig {
        matmul_efficiency: Some(job::efficiency(&pjob, &pchip).value),
        ..base.clone()
    };
    let pp = Pool {
        cluster: &pc,
        chip: &pchip,
        usd_per_chip_hour: prefill.usd_per_chip_hour.value,
    };
    let dp = Pool {
        cluster: &dc,
        chip: &dchip,
        usd_per_chip_hour: decode.usd_per_chip_hour.value,
    };
    let all = disagg::splits_with(&pp, &pbase, &dp, &base);
    let best = disagg::cheapest(&all, job.ttft_s, job.tpot_s);
    let error = match (&best, all.is_empty()) {
        (Some(_), _) => None,
        (None, true) => Some(disagg::explain_empty(&pp, &dp, &base)),
        (None, false) => Some(format!(
            "none of the {} splits meets the targets",
            all.len()
        )),
    };
    Disaggregated {
        evaluated: all.len(),
        prefill,
        decode,
        best,
        error,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dtype::Dtype;

    #[test]
    fn the_default_job_draws_four_platforms_priced_at_their_own_rates() {
        let s = serving(&Job::default());
        assert_eq!(s.platforms.len(), 4);
        assert_eq!(s.platforms[0].system, "trn2-ultra-64");
        for c in &s.platforms {
            assert!(c.error.is_none(), "{}: {:?}", c.system, c.error);
            assert!(c.points.len() >= 20, "{}: {}", c.system, c.points.len());
            assert!(c.usd_per_chip_hour.value > 0.0);
            // Per dollar is per chip divided by the platform's own price.
            let p = c.frontier[0];
            let per_usd = c.tokens_per_usd(&p);
            assert!(
                (per_usd * c.usd_per_mtok(&p) / 1e6 - 1.0).abs() < 1e-12,
                "{}",
                c.system
            );
        }
        // A whole scale-up domain of curves: well over 200 points in all.
        assert!(s.len() > 200, "{}", s.len());
    }

    #[test]
    fn the_cheapest_configuration_meets_the_targets_and_tighter_ones_cost_more() {
        let loose = Job {
            dtype: Dtype::Fp8,
            ttft_s: 2.0,
            tpot_s: 0.1,
            ..Job::default()
        };
        let tight = Job {
            tpot_s: 0.015,
            ..loose.clone()
        };
        let (a, b) = (serving(&loose), serving(&tight));
        let (ia, pa) = a.cheapest().expect("the loose targets are met");
        let (ib, pb) = b.cheapest().expect("the tight targets are met");
        assert!(pa.meets(2.0, 0.1) && pa.tpot_s <= pa.tpot_p99_s);
        assert!(pb.meets(2.0, 0.015));
        let cost = |s: &Serving, i: usize, p: &ServePoint| s.platforms[i].usd_per_mtok(p);
        assert!(cost(&b, ib, &pb) > cost(&a, ia, &pa));
        // No point on any platform meeting the targets is cheaper than the one named.
        for c in &b.platforms {
            for p in c
                .points
                .iter()
                .filter(|p| p.ttft_s <= 2.0 && p.tpot_s <= 0.015)
            {
                assert!(c.usd_per_mtok(p) >= cost(&b, ib, &pb) * (1.0 - 1e-12));
            }
        }
    }

    #[test]
    fn each_serving_option_shows_what_it_saves() {
        assert!(effects(&Job::default()).is_empty());
        let job = Job {
            system: "hgx-h100-8".into(),
            dtype: Dtype::Fp8,
            weight_dtype: Some(Dtype::Fp4),
            kv_dtype: Some(Dtype::Fp4),
            draft_tokens: 3,
            acceptance: 0.8,
            prefix_hit: 0.5,
            tpot_s: 0.03,
            ..Job::default()
        };
        let e = effects(&job);
        let labels: Vec<&str> = e.iter().map(|x| x.label.as_str()).collect();
        assert_eq!(
            labels,
            [
                "none of them",
                "weights in FP4",
                "KV cache in FP4",
                "3 drafted tokens, 80% accepted",
                "50% prefix-cache hits",
                "all of them"
            ]
        );
        let none = e[0].usd_per_mtok.unwrap();
        // Each option alone makes serving at the targets no dearer, and all of them cheaper
        // than any one.
        for x in &e[1..] {
            assert!(
                x.usd_per_mtok.unwrap() <= none * (1.0 + 1e-12),
                "{}",
                x.label
            );
        }
        let all = e[5].usd_per_mtok.unwrap();
        assert!(e[1..5].iter().all(|x| all < x.usd_per_mtok.unwrap()));
        // "All of them" is the job's own curve.
        assert_eq!(e[5].cheapest, platform_curve(&job, "hgx-h100-8").cheapest);
    }

    #[test]
    fn a_job_served_disaggregated_names_its_split_and_what_co_location_costs() {
        let job = Job {
            system: "gb200-nvl72".into(),
            dtype: Dtype::Fp8,
            prompt: 8192,
            output: 256,
            tpot_s: 0.025,
            ..Job::default()
        };
        let d = disaggregated(&job);
        let best = d.best.expect("a split meets the targets");
        assert!(best.meets(2.0, 0.025));
        assert!(best.transfer.scale_up, "both pools inside one NVL72");
        assert!(best.usd_per_mtok < d.colocated_usd_per_mtok().unwrap());
        // Prefill on B200 nodes, decode on a Trn2 UltraServer: the caches cross the network,
        // and each pool is priced at its own rate.
        let mixed = disaggregated(&Job {
            prefill_system: "hgx-b200-8".into(),
            decode_system: "trn2-ultra-64".into(),
            ..job
        });
        let m = mixed.best.expect("a mixed split meets the targets");
        assert!(!m.transfer.scale_up);
        assert_ne!(
            mixed.prefill.usd_per_chip_hour.value,
            mixed.decode.usd_per_chip_hour.value
        );
        assert_eq!(mixed.decode.system, "trn2-ultra-64");
    }

    #[test]
    fn a_platform_that_cannot_hold_the_model_says_why() {
        let job = Job {
            model: "llama3-405b".into(),
            system: "hgx-h100-8".into(),
            curve_systems: alloc::vec!["mi300x-8".into()],
            ..Job::default()
        };
        let s = serving(&job);
        let h100 = &s.platforms[0];
        assert!(h100.points.is_empty());
        let why = h100.error.as_deref().unwrap();
        assert!(why.contains("8 chips"), "{why}");
        // 8 × 192 GB holds 405B in BF16 at one sequence.
        assert!(!s.platforms[1].points.is_empty());
    }
}
