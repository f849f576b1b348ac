//! The calibration set: every published measurement the model is held to, beside what the
//! model says for it, family by family (collectives, training, serving), and the one table
//! of bounds. A point is fitted (a parameter was set from it), held out (dated when it
//! entered, before any change it judges), tuned against (in view while its mechanism was
//! built), or departing (outside its bound, for a named reason). The headline ranges are
//! drawn from held-out points only.

pub mod collectives;
pub mod runs;

use alloc::string::String;
use alloc::vec::Vec;

use crate::catalog;
use crate::source::Citation;
use crate::system;
use crate::workload::WorkloadError;
use collectives::Measured;

pub use runs::{citations, fit_neuron_layer_fixed, fit_serving_factor, fit_trainium_efficiency};

/// The day the second set entered (many-node collectives, MaxText's FSDP runs, MI300X under
/// MLPerf), each after or before the change it judges as its entry says.
const SECOND_SET: &str = "2026-11-25";
/// The day the third set entered: Trn1's Llama 2 7B and 13B training rows, then mixtures of
/// experts trained on NVIDIA and AMD, FSDP on TPU and GPU, and collectives across many nodes.
const THIRD_SET: &str = "2026-11-26";

/// The calibration set, every family, each point evaluated with today's model and defaults.
#[must_use]
pub fn calibration() -> Vec<RunPoint> {
    let mut out = collective_points();
    out.extend(runs::points());
    out
}

/// What a point measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Metric {
    /// Tokens per second over the whole cluster (training) or all replicas (serving).
    TokensPerS(f64),
    /// Model FLOPs utilisation as the source counts it.
    Mfu(f64),
    /// Collective bus bandwidth as nccl-tests defines it, B/s.
    Busbw(f64),
    /// Collective time, s.
    Time(f64),
}

impl Metric {
    /// The value.
    #[must_use]
    pub fn value(self) -> f64 {
        match self {
            Metric::TokensPerS(x) | Metric::Mfu(x) | Metric::Busbw(x) | Metric::Time(x) => x,
        }
    }
    /// Key for JSON: `tokens_per_s`, `mfu`, `busbw_bytes_per_s`, `time_s`.
    #[must_use]
    pub fn key(self) -> &'static str {
        match self {
            Metric::TokensPerS(_) => "tokens_per_s",
            Metric::Mfu(_) => "mfu",
            Metric::Busbw(_) => "busbw_bytes_per_s",
            Metric::Time(_) => "time_s",
        }
    }
}

/// Which part of the model a point checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Collective time and bus bandwidth.
    Collectives,
    /// Training throughput or MFU.
    Training,
    /// Serving throughput.
    Serving,
    /// Serving latencies under load, simulated request by request ([`crate::servesim::measured`]):
    /// the queue, the batch and the engine's own time add to the step, so the bound is wider.
    ServingLoad,
}

impl Family {
    /// Every family, in the order tables list them.
    pub const ALL: [Family; 4] = [
        Family::Collectives,
        Family::Training,
        Family::Serving,
        Family::ServingLoad,
    ];
    /// Lower-case id.
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            Family::Collectives => "collectives",
            Family::Training => "training",
            Family::Serving => "serving",
            Family::ServingLoad => "serving-load",
        }
    }
}

/// How a calibration point is used. A point's role is set when it enters and moves only
/// towards less credit: a held-out point that the model is later changed to meet becomes
/// tuned-against, never the other way. A point is held out only if no change to the model
/// was made with it in view: not named in a commit message or note of a change to the
/// model, not entered in the same change as the mechanism it checks, never a fitting input.
/// From now on a held-out point enters in a change that touches only the evidence.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Role {
    /// A parameter of the model was fitted to it.
    Fitted,
    /// Nothing was fitted to it and no change of the model was made while looking at it.
    HeldOut {
        /// The day it entered (ISO 8601), before any change that it judges.
        since: &'static str,
        /// The model's figure for it on that day, in its metric: whether the model has moved
        /// on held-out evidence since is there to see beside today's figure.
        at_entry: f64,
    },
    /// Nothing was fitted to it, but it was in view while the mechanism it checks was
    /// built or changed: it must stay within its bound, but it is no evidence of accuracy.
    TunedAgainst,
    /// The model departs from it beyond its bound, for a reason its note names.
    Departs,
}

impl Role {
    /// Every role's id, in the order tables list them.
    pub const IDS: [&'static str; 4] = ["fitted", "held-out", "tuned-against", "departs"];
    /// Lower-case id.
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            Role::Fitted => Self::IDS[0],
            Role::HeldOut { .. } => Self::IDS[1],
            Role::TunedAgainst => Self::IDS[2],
            Role::Departs => Self::IDS[3],
        }
    }
    /// The day a held-out point entered.
    #[must_use]
    pub const fn held_out_since(self) -> Option<&'static str> {
        match self {
            Role::HeldOut { since, .. } => Some(since),
            _ => None,
        }
    }
    /// The model's figure for a held-out point on the day it entered.
    #[must_use]
    pub const fn predicted_at_entry(self) -> Option<f64> {
        match self {
            Role::HeldOut { at_entry, .. } => Some(at_entry),
            _ => None,
        }
    }
    /// Whether the point is held out.
    #[must_use]
    pub const fn is_held_out(self) -> bool {
        matches!(self, Role::HeldOut { .. })
    }
    /// What a role means, for table headings.
    #[must_use]
    pub const fn meaning(id: &str) -> &'static str {
        match id.as_bytes() {
            b"fitted" => "a parameter was fitted to these",
            b"held-out" => "nothing fitted, nothing changed while looking at them: the evidence",
            b"tuned-against" => "in view while the mechanism they check was built: kept within their bound, but no evidence",
            _ => "the model is outside the bound for a reason the note names",
        }
    }
}

/// The largest error (|model ÷ measured − 1|) a point may show, by family: (family, fitted,
/// every other role). The one table the engine, the CLI, the app and the tests read.
pub const TOLERANCE: [(Family, f64, f64); 4] = [
    (Family::Collectives, 0.15, 0.25),
    (Family::Training, 0.15, 0.25),
    (Family::Serving, 0.15, 0.30),
    (Family::ServingLoad, 0.15, 0.50),
];

/// Points that entered before their family's bound in [`TOLERANCE`] was widened, with the
/// bound they entered with: a bound never moves after a point enters, so these keep theirs.
pub const BOUND_AT_ENTRY: [(&str, f64); 8] = [
    (
        "8 × H100 all-reduce, without NVLink SHARP (GTC24 S62129)",
        0.15,
    ),
    (
        "8 × H100 all-reduce, with NVLink SHARP (GTC24 S62129)",
        0.15,
    ),
    (
        "GB200 NVL72 all-reduce, without NVLink SHARP (vendor slide)",
        0.15,
    ),
    (
        "GB200 NVL72 all-reduce, with NVLink SHARP (vendor slide)",
        0.15,
    ),
    (
        "Trn1, Llama 3.1 70B pretraining, 512 chips, BF16, 8K sequences",
        0.20,
    ),
    ("H100, Llama 3 405B pretraining, 8,192 GPUs, BF16", 0.20),
    ("H100, Llama 3 405B pretraining, 16,384 GPUs, BF16", 0.20),
    (
        "8 × H100, Llama 2 70B serving, MLPerf Inference v4.1 Offline",
        0.20,
    ),
];

/// The bound a point of `family` in `role` is held to ([`TOLERANCE`]).
#[must_use]
pub fn tolerance(role: Role, family: Family) -> f64 {
    let (_, fitted, other) = TOLERANCE
        .iter()
        .copied()
        .find(|t| t.0 == family)
        .unwrap_or((family, 0.15, 0.25));
    if role == Role::Fitted {
        fitted
    } else {
        other
    }
}

/// What part of a run a point's figure covers: serving's throughput covers prefill and
/// decode alike, a time to first token the prefill, a time per output token the decode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The whole run (a throughput, an MFU, a collective).
    Whole,
    /// A serving run's prefill (time to first token).
    Prefill,
    /// A serving run's decode (time per output token).
    Decode,
}

impl Phase {
    /// Lower-case id.
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            Phase::Whole => "whole",
            Phase::Prefill => "prefill",
            Phase::Decode => "decode",
        }
    }
}

/// One published measurement and the model's figure for it.
#[derive(Clone, Debug, PartialEq)]
pub struct RunPoint {
    /// Which part of the model it checks.
    pub family: Family,
    /// What part of the run its figure covers.
    pub phase: Phase,
    /// The preset system it ran on.
    pub system: &'static str,
    /// What ran, where.
    pub label: &'static str,
    /// Where it is published.
    pub source: &'static Citation,
    /// The published figure.
    pub measured: Metric,
    /// The model's figure in the same metric.
    pub model: Result<f64, WorkloadError>,
    /// The layout or configuration the model was given.
    pub setup: String,
    /// Assumptions, and what (if anything) was fitted to the point.
    pub note: &'static str,
    /// How the point is used.
    pub role: Role,
}

impl RunPoint {
    /// Model ÷ measured − 1.
    #[must_use]
    pub fn error(&self) -> Option<f64> {
        self.model
            .as_ref()
            .ok()
            .map(|m| m / self.measured.value() - 1.0)
    }
    /// How much faster the model runs than the measurement (−0.1: 10% slower): its error on
    /// rates, the inverse on times (a model time 10% short is a model 11% fast).
    #[must_use]
    pub fn speed_error(&self) -> Option<f64> {
        match self.measured {
            Metric::Time(t) => self.model.as_ref().ok().map(|m| t / m - 1.0),
            _ => self.error(),
        }
    }
    /// The largest error the point allows: the bound it entered with ([`BOUND_AT_ENTRY`]),
    /// else its family's and role's ([`TOLERANCE`]).
    #[must_use]
    pub fn tolerance(&self) -> f64 {
        BOUND_AT_ENTRY
            .iter()
            .find(|(label, _)| *label == self.label)
            .map_or_else(|| tolerance(self.role, self.family), |b| b.1)
    }
    /// Whether the model comes within the tolerance.
    #[must_use]
    pub fn within(&self) -> bool {
        self.error().is_some_and(|e| e.abs() <= self.tolerance())
    }
}

/// The collective points ([`collectives::points`]) in the common form.
fn collective_points() -> Vec<RunPoint> {
    collectives::points()
        .into_iter()
        .map(|c| RunPoint {
            family: Family::Collectives,
            phase: Phase::Whole,
            system: c.system,
            label: c.label,
            source: c.source,
            measured: match c.measured {
                Measured::Busbw(x) => Metric::Busbw(x),
                Measured::Time(x) => Metric::Time(x),
            },
            model: c
                .predicted()
                .map_err(|e| WorkloadError::BadInput(alloc::format!("{e}"))),
            setup: alloc::format!(
                "{} node{}, {} of {}, {}",
                c.nodes,
                if c.nodes == 1 { "" } else { "s" },
                c.op.id(),
                c.bytes.display_memory(),
                c.algorithm.id()
            ),
            note: c.note,
            role: c.role,
        })
        .collect()
}

/// The smallest and largest error (model ÷ measured − 1) of the held-out training points on
/// `vendor`'s chips, and how many there are; `None` when the vendor has none.
#[must_use]
pub fn training_errors(points: &[RunPoint], vendor: &str) -> Option<(f64, f64, usize)> {
    let errs: Vec<f64> = points
        .iter()
        .filter(|p| p.family == Family::Training && p.role.is_held_out())
        .filter(|p| {
            system::find(p.system)
                .ok()
                .and_then(|s| catalog::find(s.chip).ok())
                .is_some_and(|c| c.vendor == vendor)
        })
        .filter_map(RunPoint::error)
        .collect();
    let lo = errs.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = errs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (!errs.is_empty()).then_some((lo, hi, errs.len()))
}

/// The model's speed error on held-out serving points on systems of `chip` (by catalog id),
/// its lowest and highest and how many.
#[must_use]
pub fn serving_errors(points: &[RunPoint], chip: &str) -> Option<(f64, f64, usize)> {
    let errs: Vec<f64> = points
        .iter()
        .filter(|p| p.family == Family::Serving && p.role.is_held_out())
        .filter(|p| system::find(p.system).is_ok_and(|s| s.chip == chip))
        .filter_map(RunPoint::speed_error)
        .collect();
    let lo = errs.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = errs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (!errs.is_empty()).then_some((lo, hi, errs.len()))
}

impl core::fmt::Display for Role {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Role::Fitted => "fitted (±15%)",
            Role::HeldOut { .. } => "held out",
            Role::TunedAgainst => "tuned against",
            Role::Departs => "the model departs",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_point_within_its_tolerance() {
        // Each point's source and assumptions are in its entry above.
        let pts = calibration();
        for p in &pts {
            let e = p
                .error()
                .unwrap_or_else(|| panic!("{}: {:?}", p.label, p.model));
            // A departure must really depart (if the model improves, the table changes).
            assert!(
                p.within() != (p.role == Role::Departs),
                "{} ({}): {:+.1}% against ±{:.0}%",
                p.label,
                p.role.id(),
                e * 100.0,
                p.tolerance() * 100.0
            );
            assert!(!p.setup.is_empty() && !p.note.is_empty());
        }
    }

    #[test]
    fn held_out_points_are_dated_and_every_family_has_a_bound() {
        for p in calibration() {
            if let Some(d) = p.role.held_out_since() {
                let b = d.as_bytes();
                let digits = |r: core::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
                assert!(
                    b.len() == 10
                        && b[4] == b'-'
                        && b[7] == b'-'
                        && digits(0..4)
                        && digits(5..7)
                        && digits(8..10),
                    "{}: held out since '{d}'",
                    p.label
                );
            }
        }
        for f in Family::ALL {
            assert!(
                TOLERANCE.iter().any(|t| t.0 == f),
                "{} has no bound",
                f.id()
            );
            assert!(tolerance(Role::Fitted, f) < tolerance(Role::TunedAgainst, f));
        }
    }

    #[test]
    fn bounds_at_entry_name_points_and_never_widen() {
        let pts = calibration();
        for (label, bound) in BOUND_AT_ENTRY {
            let p = pts
                .iter()
                .find(|p| p.label == label)
                .unwrap_or_else(|| panic!("no point '{label}'"));
            assert!(bound < tolerance(p.role, p.family), "{label}");
            assert!((p.tolerance() - bound).abs() < 1e-12);
        }
    }

    #[test]
    fn every_held_out_point_keeps_its_figure_at_entry() {
        // Each held-out point carries the model's figure on the day it entered, in its own
        // metric, near enough today's to be the same quantity (the model may have moved on
        // held-out evidence since, but not by orders of magnitude without a relabel).
        let pts = calibration();
        let held: Vec<&RunPoint> = pts.iter().filter(|p| p.role.is_held_out()).collect();
        assert!(held.len() >= 10, "{} held out", held.len());
        for p in held {
            let at = p.role.predicted_at_entry().unwrap();
            let now = p.model.as_ref().unwrap();
            assert!(at.is_finite() && at > 0.0, "{}", p.label);
            assert!(
                (at / now - 1.0).abs() < 0.5,
                "{}: {at} at entry, {now} now",
                p.label
            );
        }
    }

    #[test]
    fn the_points_an_audit_found_in_view_are_not_held_out() {
        // Inputs to the NVLink efficiencies, named in the messages of changes to the model,
        // entered with the mechanism they check, or quoted as the reason for one.
        let pts = calibration();
        for label in [
            "8 × H100 all-reduce, without NVLink SHARP (GTC24 S62129)",
            "8 × H100 all-reduce, with NVLink SHARP (GTC24 S62129)",
            "GB200 NVL72 all-reduce, without NVLink SHARP (vendor slide)",
            "GB200 NVL72 all-reduce, with NVLink SHARP (vendor slide)",
            "GB200 NVL72, two racks, all-reduce 8 GiB (OCI)",
            "H100, Llama 3 405B pretraining, 8,192 GPUs, BF16",
            "H100, Llama 3 405B pretraining, 16,384 GPUs, BF16",
        ] {
            let p = pts.iter().find(|p| p.label == label).unwrap();
            assert!(!p.role.is_held_out(), "{label}");
        }
        for r in crate::servesim::measured::RUNS
            .iter()
            .filter(|r| r.label.contains("Krai"))
        {
            assert!(r.measured.iter().all(|m| !m.2.is_held_out()), "{}", r.label);
        }
    }

    #[test]
    fn each_family_has_held_out_evidence() {
        // Collectives and serving are held out on two vendors at least. Training, since the
        // audit relabelled Meta's and Trn1's runs, only on Google's TPUs: the headline ranges
        // of every other vendor's training say so (`uncertainty`).
        let pts = calibration();
        for (f, at_least) in [
            (Family::Collectives, 2),
            (Family::Training, 1),
            (Family::Serving, 2),
        ] {
            let mut vendors: Vec<&str> = pts
                .iter()
                .filter(|p| p.family == f && p.role.is_held_out())
                .filter_map(|p| system::find(p.system).ok())
                .filter_map(|s| catalog::find(s.chip).ok())
                .map(|c| c.vendor)
                .collect();
            vendors.sort_unstable();
            vendors.dedup();
            assert!(
                vendors.len() >= at_least,
                "{}: held out only on {vendors:?}",
                f.id()
            );
        }
    }

    /// Which constant of a system a fitted collective point sets.
    #[derive(Clone, Copy, Debug)]
    enum Constant {
        /// The NVLink (or Infinity Fabric) ring efficiency.
        Ring,
        /// The switch's in-network reduction efficiency.
        Sharp,
        /// The scale-out latency per network step.
        NetLatency,
        /// NCCL's NVLS pipeline fill (`collective::nccl::NVLS_FILL_S`).
        NvlsFill,
        /// Neuron's launch of a collective on its own
        /// (`collective::NEURON_STANDALONE_LAUNCH_S`).
        NeuronLaunch,
    }

    #[test]
    fn the_collective_constants_are_what_their_points_give() {
        use crate::collective::nccl;
        use crate::system::{Cluster, System};
        // Each fitted point, the constant it sets, and the constant's range to search.
        let cases = [
            (
                "8 × H200 all-reduce 8 GiB, ring (NVLS off), nccl 2.27.7",
                Constant::Ring,
            ),
            ("8 × H200 all-reduce 8 GiB, NVLS", Constant::Sharp),
            (
                "8 × B200 all-reduce 8 GiB, ring (NVLS off), nccl 2.27.7",
                Constant::Ring,
            ),
            (
                "8 × B200 all-reduce 8 GiB, NVLS, nccl 2.27.7",
                Constant::Sharp,
            ),
            (
                "2 × p6-b200 all-reduce of 8 B (NCCL floor, ~50–55 µs)",
                Constant::NetLatency,
            ),
            ("2 × p5.48xlarge all-reduce 1 MiB", Constant::NetLatency),
            ("8 × MI300X all-reduce 8 GiB (RCCL)", Constant::Ring),
            (
                "DGX H100 all-reduce 16 MiB (NCCL's choice)",
                Constant::NvlsFill,
            ),
            (
                "Trn2 (64 ranks), all-gather 1 KiB (nccom-test)",
                Constant::NeuronLaunch,
            ),
        ];
        let points = collectives::points();
        assert_eq!(
            cases.len(),
            points.iter().filter(|p| p.role == Role::Fitted).count(),
            "every fitted collective point has its re-fit here"
        );
        for (label, constant) in cases {
            let p = points
                .iter()
                .find(|p| p.label == label && p.role == Role::Fitted)
                .unwrap_or_else(|| panic!("no fitted point '{label}'"));
            let base = crate::system::find(p.system).unwrap();
            let set = |x: f64| -> System {
                let mut s = base.clone();
                match constant {
                    Constant::Ring => s.link_efficiency.value = x,
                    Constant::Sharp => {
                        if let Some(e) = s.in_network_efficiency.as_mut() {
                            e.value = x;
                        }
                    }
                    Constant::NetLatency => {
                        s.scale_out_latency.value = crate::units::Seconds::new(x);
                    }
                    Constant::NvlsFill | Constant::NeuronLaunch => {}
                }
                s
            };
            // The model's figure as a time (monotone in every constant), so one bisection fits;
            // as the benchmark timed it, a collective launched on its own.
            let time = |s: &System| {
                let cl = Cluster {
                    system: s.clone(),
                    nodes: p.nodes,
                };
                crate::collective::standalone(&cl, p.op, p.bytes, p.algorithm)
                    .unwrap()
                    .time
                    .get()
            };
            let measured_time = match p.measured {
                Measured::Time(t) => t,
                Measured::Busbw(b) => {
                    let r = base.chips() * p.nodes;
                    p.bytes.get() * p.op.bus_factor(r) / b
                }
            };
            let (now, fit) = match constant {
                // An additive time: the fit moves it by what the model is off.
                Constant::NvlsFill => {
                    let f = nccl::NVLS_FILL_S;
                    (f, f + measured_time - time(&base))
                }
                Constant::NeuronLaunch => {
                    let f = crate::collective::NEURON_STANDALONE_LAUNCH_S;
                    (f, f + measured_time - time(&base))
                }
                Constant::NetLatency => {
                    let now = base.scale_out_latency.value.get();
                    let (mut lo, mut hi) = (0.0, 1e-3);
                    for _ in 0..60 {
                        let mid = 0.5 * (lo + hi);
                        if time(&set(mid)) < measured_time {
                            lo = mid;
                        } else {
                            hi = mid;
                        }
                    }
                    (now, 0.5 * (lo + hi))
                }
                Constant::Ring | Constant::Sharp => {
                    let now = match constant {
                        Constant::Ring => base.link_efficiency.value,
                        _ => base.in_network_efficiency.map_or(0.0, |e| e.value),
                    };
                    // More efficiency, less time.
                    let (mut lo, mut hi) = (0.05, 1.0);
                    for _ in 0..60 {
                        let mid = 0.5 * (lo + hi);
                        if time(&set(mid)) > measured_time {
                            lo = mid;
                        } else {
                            hi = mid;
                        }
                    }
                    (now, 0.5 * (lo + hi))
                }
            };
            assert!(
                (fit / now - 1.0).abs() < 0.03,
                "{label}: the constant is {now:.4e}, its point gives {fit:.4e}"
            );
        }
    }

    #[test]
    fn the_fitted_constants_are_what_the_fits_give() {
        let t = fit_trainium_efficiency().unwrap();
        assert!(
            (t - crate::efficiency::TRAINIUM_BF16_FITTED).abs() < 0.01,
            "Trainium BF16 fit {t}"
        );
        let k = fit_serving_factor().unwrap();
        assert!(
            (k - crate::workload::SERVING_KERNEL_FACTOR).abs() < 0.01,
            "serving kernel factor fit {k}"
        );
        let f = fit_neuron_layer_fixed().unwrap();
        assert!(
            (f / crate::workload::NEURON_LAYER_FIXED_S - 1.0).abs() < 0.02,
            "Neuron's fixed time per layer fit {f}"
        );
    }
}
