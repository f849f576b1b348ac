//! Lessons: short texts built around the app's own views, each with exercises whose answers
//! the model works out (never written in), checked with a tolerance, a hint and the worked
//! answer.
//!
//! The figures in a lesson's text and its answers come from the same catalog and model as the
//! rest of the app: when a preset figure changes, the lesson changes with it.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use crate::breakdown::{self, Part};
use crate::collective::{self, Algorithm, Op};
use crate::dtype::Dtype;
use crate::job::{evaluate, Job};
use crate::keys::LESSONS;
use crate::roofline::{OpSpec, Roofline};
use crate::scenario::{Page, Scenario};
use crate::system::{self, Cluster};
use crate::units::{sig, Bytes};
use crate::workload::bubble_share;

/// One lesson.
#[derive(Clone, Debug, PartialEq)]
pub struct Lesson {
    /// Id in links (`lesson=ID`).
    pub id: &'static str,
    /// Title.
    pub title: &'static str,
    /// One line: what it teaches.
    pub summary: &'static str,
    /// The text, paragraph by paragraph.
    pub body: Vec<String>,
    /// The app's view the lesson is built around, with what it shows set (open it with
    /// `embed` for the view alone).
    pub view: Scenario,
    /// Other views worth opening, each with its label.
    pub links: Vec<(String, Scenario)>,
    /// Exercises, in order.
    pub exercises: Vec<Exercise>,
}

/// How close an answer must be.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Tolerance {
    /// Within this share of the answer (0.02 is 2%).
    Relative(f64),
    /// Within this much of it, in the answer's unit.
    Absolute(f64),
}

/// A question with a numeric answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Exercise {
    /// Id, unique across lessons (`roofline-1`): progress is kept by it.
    pub id: String,
    /// The question.
    pub question: String,
    /// Unit the answer is given in (shown beside the field).
    pub unit: &'static str,
    /// The answer, as the model works it out.
    pub answer: f64,
    /// How close an answer must be.
    pub tolerance: Tolerance,
    /// A nudge, shown after a wrong answer.
    pub hint: String,
    /// The worked answer, shown on request.
    pub worked: String,
}

/// What an answer earns.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// Within the tolerance.
    Right,
    /// A number, but not close enough; says whether it is high or low.
    Wrong(String),
    /// Not a number; says what is expected.
    Unreadable(String),
}

impl Exercise {
    /// Checks `text`: a number, with thousands separators, `e` notation, a trailing `%` or
    /// unit allowed.
    #[must_use]
    pub fn check(&self, text: &str) -> Verdict {
        let Some(x) = read_number(text) else {
            return Verdict::Unreadable(format!(
                "'{}' is not a number; give one in {}",
                text.chars().take(24).collect::<String>(),
                self.unit
            ));
        };
        let off = (x - self.answer).abs();
        let ok = match self.tolerance {
            Tolerance::Relative(r) => off <= r * self.answer.abs(),
            Tolerance::Absolute(a) => off <= a,
        };
        if ok {
            Verdict::Right
        } else if x > self.answer {
            Verdict::Wrong("Too high.".into())
        } else {
            Verdict::Wrong("Too low.".into())
        }
    }

    /// The tolerance as a reader sees it: "within 2%" or "within 0.5 %".
    #[must_use]
    pub fn tolerance_text(&self) -> String {
        match self.tolerance {
            Tolerance::Relative(r) => format!("within {}%", sig(r * 100.0, 2)),
            Tolerance::Absolute(a) if a < 1.0 && self.unit == "micro-batches" => "exactly".into(),
            Tolerance::Absolute(a) => format!("within {} {}", sig(a, 2), self.unit),
        }
    }
}

/// The number at the start of `text` (after spaces), thousands separators dropped.
fn read_number(text: &str) -> Option<f64> {
    let t: String = text
        .trim()
        .chars()
        .filter(|c| !matches!(c, ',' | '_' | ' ' | '\u{a0}' | '\u{2009}'))
        .collect();
    let t = t.strip_prefix('$').unwrap_or(&t);
    let end = t
        .char_indices()
        .take_while(|(i, c)| {
            c.is_ascii_digit()
                || *c == '.'
                || ((*c == '-' || *c == '+') && *i == 0)
                || {
                    // An exponent: `e` followed by a digit or a sign.
                    (*c == 'e' || *c == 'E')
                        && t[i + 1..]
                            .chars()
                            .next()
                            .is_some_and(|n| n.is_ascii_digit() || n == '-' || n == '+')
                }
                || ((*c == '-' || *c == '+') && t[..*i].ends_with(['e', 'E']))
        })
        .last()
        .map_or(0, |(i, c)| i + c.len_utf8());
    let x: f64 = t[..end].parse().ok()?;
    x.is_finite().then_some(x)
}

/// A lesson in the table: its id, title, and how it is worked out.
struct Entry {
    id: &'static str,
    title: &'static str,
    make: fn() -> Option<Lesson>,
}

/// The lessons, in teaching order.
const TABLE: [Entry; 6] = [
    Entry {
        id: LESSONS[0],
        title: "The roofline and arithmetic intensity",
        make: roofline,
    },
    Entry {
        id: LESSONS[1],
        title: "Why FP8 is not twice as fast",
        make: fp8,
    },
    Entry {
        id: LESSONS[2],
        title: "A torus and a switch run the same all-reduce",
        make: torus,
    },
    Entry {
        id: LESSONS[3],
        title: "Pipeline bubbles, and how layouts hide communication",
        make: pipeline,
    },
    Entry {
        id: LESSONS[4],
        title: "What decides the cost per token",
        make: cost,
    },
    Entry {
        id: LESSONS[5],
        title: "A systolic array, cycle by cycle",
        make: systolic,
    },
];

/// Every lesson's id, in order (the `lesson` key's values).
pub const IDS: [&str; TABLE.len()] = LESSONS;

/// Every lesson's id and title, in order, without working any out.
pub fn titles() -> impl Iterator<Item = (&'static str, &'static str)> {
    TABLE.iter().map(|e| (e.id, e.title))
}

/// The lesson with id `id`, worked out from the catalog and the model; `None` for an unknown
/// id, or a lesson that cannot be worked out (a preset it needs is gone), never one shown wrong.
#[must_use]
pub fn find(id: &str) -> Option<Lesson> {
    let e = TABLE.iter().find(|e| e.id == id)?;
    let mut l = (e.make)()?;
    l.id = e.id;
    l.title = e.title;
    Some(l)
}

/// Every lesson, in order.
#[must_use]
pub fn lessons() -> Vec<Lesson> {
    IDS.iter().filter_map(|id| find(id)).collect()
}

/// A scenario on `page` and nothing else changed.
fn on(page: Page) -> Scenario {
    Scenario {
        page,
        ..Scenario::default()
    }
}

fn tflops(x: f64) -> String {
    format!("{} TFLOP/s", sig(x / 1e12, 4))
}

fn roofline() -> Option<Lesson> {
    let trn2 = crate::catalog::find("trn2").ok()?;
    let h100 = crate::catalog::find("h100-sxm").ok()?;
    let r = Roofline::dense(&trn2, Dtype::Bf16)?;
    let rh = Roofline::dense(&h100, Dtype::Bf16)?;
    let ridge = r.ridge().get();
    let skinny = OpSpec::Gemm {
        m: 16.0,
        n: 8192.0,
        k: 8192.0,
    };
    let square = OpSpec::Gemm {
        m: 8192.0,
        n: 8192.0,
        k: 8192.0,
    };
    let c = skinny.cost(Dtype::Bf16);
    let i = c.intensity().get();
    let share = r.place(c).fraction_of_peak;
    let mut view = on(Page::Roofline);
    view.chips = alloc::vec!["trn2".into(), "h100-sxm".into()];
    view.roofline_formats = alloc::vec![Dtype::Bf16];
    view.ops = alloc::vec![skinny.clone(), square];
    let mut chips = on(Page::Chips);
    chips.chips = alloc::vec!["trn2".into(), "h100-sxm".into(), "gb300".into()];
    Some(Lesson {
        id: "",
        title: "",
        summary: "Why the same chip runs one operation at its peak and another at a tenth of it.",
        body: alloc::vec![
            format!(
                "A chip does at most P floating-point operations a second and moves at most B bytes a second to and from its HBM. Trn2 does P = {} in BF16 with B = {}/s; an H100 SXM {} with {}/s.",
                tflops(r.peak.get()),
                Bytes::new(r.bandwidth.get()).display_si(),
                tflops(rh.peak.get()),
                Bytes::new(rh.bandwidth.get()).display_si()
            ),
            "An operation doing F FLOPs on M bytes has an arithmetic intensity I = F/M. It can go no faster than min(P, I·B): the slope on the left of the chart is the memory roof, the flat line the compute roof, and they meet at the ridge point P/B.".into(),
            "Left of the ridge an operation waits for memory however fast the tensor engines are; right of it, the engines are the limit. Moving an operation right (bigger batches, fused kernels, narrower formats) is most of what performance work is.".into(),
            "The chart below is the Roofline page with two GEMMs placed on it: a square 8192³ one, and the skinny 16-token one a decode step runs. Hover a point for its figures.".into(),
        ],
        view,
        links: alloc::vec![("The chips side by side".into(), chips)],
        exercises: alloc::vec![
            Exercise {
                id: "roofline-1".into(),
                question: "What is Trn2's ridge point in BF16, in FLOP per byte?".into(),
                unit: "FLOP/B",
                answer: ridge,
                tolerance: Tolerance::Relative(0.02),
                hint: "Divide the dense BF16 peak by the HBM bandwidth, both per second.".into(),
                worked: format!(
                    "P/B = {:.4e} FLOP/s ÷ {:.4e} B/s = {} FLOP/B. An operation needs that many FLOPs for every byte it moves to keep Trn2's tensor engines busy.",
                    r.peak.get(),
                    r.bandwidth.get(),
                    sig(ridge, 4)
                ),
            },
            Exercise {
                id: "roofline-2".into(),
                question: "A decode step multiplies 16 tokens by an 8192 × 8192 weight in BF16 (2 bytes a value): a GEMM with M = 16, N = K = 8192. What is its arithmetic intensity, in FLOP per byte?".into(),
                unit: "FLOP/B",
                answer: i,
                tolerance: Tolerance::Relative(0.02),
                hint: "FLOP = 2·M·N·K; bytes = (M·K + K·N + M·N) × 2: both inputs read, the output written.".into(),
                worked: format!(
                    "FLOP = 2·16·8192·8192 = {:.4e}; bytes = (16·8192 + 8192·8192 + 16·8192)·2 = {:.4e}; I = {} FLOP/B. That is far left of the ridge ({}): memory-bound, at best {}% of Trn2's peak. The weight is read whole for 16 tokens; batching more tokens is what moves it right.",
                    c.flop.get(),
                    c.bytes.get(),
                    sig(i, 4),
                    sig(ridge, 3),
                    sig(share * 100.0, 3)
                ),
            },
        ],
    })
}

/// The job of the FP8 lesson in `d`: Llama 3 70B on 8 HGX H100.
fn h100_job(d: Dtype) -> Job {
    Job {
        system: "hgx-h100-8".into(),
        nodes: 8,
        model: "llama3-70b".into(),
        dtype: d,
        ..Job::default()
    }
}

/// The time a step spends in its weight GEMMs.
fn weight_gemms(p: &Part) -> f64 {
    p.ops
        .iter()
        .filter(|o| breakdown::WEIGHT_GEMMS.contains(&o.name.as_str()))
        .map(|o| o.time_s)
        .sum()
}

/// The share of peak of the step's first weight GEMM.
fn gemm_of_peak(p: &Part) -> Option<f64> {
    p.ops
        .iter()
        .find(|o| breakdown::WEIGHT_GEMMS.contains(&o.name.as_str()))
        .map(|o| o.of_peak)
}

fn fp8() -> Option<Lesson> {
    let (jb, j8) = (h100_job(Dtype::Bf16), h100_job(Dtype::Fp8));
    let (b, e) = (
        breakdown::train_step(&jb).ok()?,
        breakdown::train_step(&j8).ok()?,
    );
    let g = weight_gemms(&b) / b.total_s;
    let amdahl = 1.0 / ((1.0 - g) + g / 2.0);
    let chip = crate::catalog::find("h100-sxm").ok()?;
    let peaks = chip.dense(Dtype::Fp8)?.get() / chip.dense(Dtype::Bf16)?.get();
    let (eb, e8) = (gemm_of_peak(&b)?, gemm_of_peak(&e)?);
    let gemm_speedup = peaks * e8 / eb;
    let casts: f64 = e
        .ops
        .iter()
        .filter(|o| !b.ops.iter().any(|x| x.name == o.name))
        .map(|o| o.time_s)
        .sum();
    let mut view = on(Page::Workload);
    view.job = j8.clone();
    let mut bf16 = on(Page::Workload);
    bf16.job = jb;
    Some(Lesson {
        id: "",
        title: "",
        summary: "Amdahl's law inside one training step, and what a narrower format costs.",
        body: alloc::vec![
            format!(
                "An H100's dense FP8 peak is {}× its BF16 peak. Training Llama 3 70B on 64 of them in FP8 should then take half the time: it takes {} s a step against {} s in BF16, {}× faster.",
                sig(peaks, 3),
                sig(e.total_s, 4),
                sig(b.total_s, 4),
                sig(b.total_s / e.total_s, 3)
            ),
            "Two things take the rest. Only the GEMMs that multiply by the weights run in FP8; attention, norms, the optimizer, communication and the bubble do not get faster. And an FP8 GEMM reaches a smaller share of its (larger) peak than a BF16 one, while casting activations to FP8 costs memory traffic of its own.".into(),
            "The view below is the Workload page on the FP8 job: scroll to \"Where the training step goes\" for each operation's time, bound and share of peak.".into(),
        ],
        view,
        links: alloc::vec![("The same job in BF16".into(), bf16)],
        exercises: alloc::vec![
            Exercise {
                id: "fp8-1".into(),
                question: format!(
                    "In BF16 the weight GEMMs (QKV, output projection, MLP) take {}% of the step. If FP8 made exactly those twice as fast and nothing else changed, how many times faster would the step be?",
                    sig(g * 100.0, 3)
                ),
                unit: "×",
                answer: amdahl,
                tolerance: Tolerance::Relative(0.02),
                hint: "Amdahl's law: the new step is (1 − g) + g/2 of the old one.".into(),
                worked: format!(
                    "1 ÷ ((1 − {g:.3}) + {g:.3}/2) = {}×: even a perfect 2× on the GEMMs leaves the rest of the step as it was.",
                    sig(amdahl, 3),
                    g = g
                ),
            },
            Exercise {
                id: "fp8-2".into(),
                question: format!(
                    "The weight GEMMs reach {}% of the H100's peak in BF16 and {}% in FP8, measured; the FP8 peak is {}× the BF16 one. How many times faster is such a GEMM in FP8?",
                    sig(eb * 100.0, 3),
                    sig(e8 * 100.0, 3),
                    sig(peaks, 3)
                ),
                unit: "×",
                answer: gemm_speedup,
                tolerance: Tolerance::Relative(0.02),
                hint: "A GEMM's speed is its share of peak times the peak.".into(),
                worked: format!(
                    "{} × {}% ÷ {}% = {}×. With the rest of the step unchanged and {} s of casts added, the model's step is {}× faster, not 2×.",
                    sig(peaks, 3),
                    sig(e8 * 100.0, 3),
                    sig(eb * 100.0, 3),
                    sig(gemm_speedup, 3),
                    sig(casts, 3),
                    sig(b.total_s / e.total_s, 3)
                ),
            },
        ],
    })
}

/// Bytes of the torus lesson's all-reduce: 1 GiB.
const GIB: f64 = 1_073_741_824.0;

fn torus() -> Option<Lesson> {
    let time = |id: &str| {
        let sys = system::find(id).ok()?;
        let chips = sys.chips();
        let cl = Cluster {
            system: sys,
            nodes: 1,
        };
        let e =
            collective::standalone(&cl, Op::AllReduce, Bytes::new(GIB), Algorithm::Auto).ok()?;
        Some((e, chips))
    };
    let (t, n) = time("trn2-16")?;
    let (h, nh) = time("hgx-h100-8")?;
    let per_chip = Op::AllReduce.bus_factor(n) * GIB;
    let busbw = per_chip / t.time.get();
    let mut view = on(Page::Collectives);
    view.collectives.systems = alloc::vec!["trn2-16".into(), "hgx-h100-8".into()];
    view.collectives.ops = alloc::vec![Op::AllReduce];
    view.collectives.algorithms = alloc::vec![Algorithm::Auto];
    view.collectives.nodes = 1;
    view.collectives.bytes = GIB;
    let mut topo = on(Page::Topology);
    topo.topology.system = "trn2-16".into();
    let mut nvl = on(Page::Topology);
    nvl.topology.system = "hgx-h100-8".into();
    Some(Lesson {
        id: "",
        title: "",
        summary: "Trn2's 4×4 torus against NVLink's switch: steps, links and bus bandwidth.",
        body: alloc::vec![
            format!(
                "Data-parallel training ends every step with an all-reduce of the gradients. Trn2 wires its {n} chips into a 4×4 torus: each chip has links to four neighbours, and a ring or a 2D algorithm passes data along them. An HGX H100 joins its {nh} GPUs through NVSwitch: every GPU reaches every other in one hop, and the switch can reduce in the network."
            ),
            "Any ring all-reduce of S bytes over n ranks sends 2(n − 1)/n · S bytes out of each rank, whatever the wiring: half to reduce, half to share the result. What differs is how fast each rank can send (its links' bandwidth), how many steps pay a latency, and whether the fabric does part of the sum. nccl-tests reports the first as bus bandwidth: busbw = 2(n − 1)/n · S / t.".into(),
            format!(
                "The view below is the Collectives page with both systems on a 1 GiB all-reduce. The model times it at {} on Trn2 and {} on the H100 system.",
                crate::units::Seconds::new(t.time.get()),
                crate::units::Seconds::new(h.time.get())
            ),
        ],
        view,
        links: alloc::vec![
            ("Trn2's torus, chip by chip".into(), topo),
            ("The HGX H100's switch".into(), nvl),
        ],
        exercises: alloc::vec![
            Exercise {
                id: "torus-1".into(),
                question: format!("A ring all-reduce of 1 GiB (2³⁰ bytes) over Trn2's {n} chips: how many gigabytes (10⁹ bytes) does each chip send?"),
                unit: "GB",
                answer: per_chip / 1e9,
                tolerance: Tolerance::Relative(0.02),
                hint: "2(n − 1)/n · S, with S in bytes; then divide by 10⁹.".into(),
                worked: format!(
                    "2·{}/{} × 1,073,741,824 B = {:.4e} B = {} GB: almost twice the buffer, for any n.",
                    n - 1,
                    n,
                    per_chip,
                    sig(per_chip / 1e9, 4)
                ),
            },
            Exercise {
                id: "torus-2".into(),
                question: format!(
                    "The model times that all-reduce at {} s on Trn2. What bus bandwidth is that, in GB/s?",
                    sig(t.time.get(), 4)
                ),
                unit: "GB/s",
                answer: busbw / 1e9,
                tolerance: Tolerance::Relative(0.03),
                hint: "busbw = 2(n − 1)/n · S / t: the bytes each chip sends, over the time.".into(),
                worked: format!(
                    "{:.4e} B ÷ {} s = {} GB/s. The Collectives page shows the same figure as busbw; the H100 system's is {} GB/s.",
                    per_chip,
                    sig(t.time.get(), 4),
                    sig(busbw / 1e9, 4),
                    sig(h.busbw.get() / 1e9, 4)
                ),
            },
        ],
    })
}

fn pipeline() -> Option<Lesson> {
    let (p, m) = (8, 32);
    let share = bubble_share(p, m, 1);
    // The fewest micro-batches that keep the bubble at or under 5%.
    let fewest = (1..=100_000).find(|m| bubble_share(p, *m, 1) <= 0.05 + 1e-12)?;
    let inter = bubble_share(p, m, 2);
    let mut view = on(Page::Workload);
    view.job = h100_job(Dtype::Bf16);
    let mut big = on(Page::Workload);
    big.job = Job {
        model: "llama3-405b".into(),
        nodes: 32,
        ..h100_job(Dtype::Bf16)
    };
    Some(Lesson {
        id: "",
        title: "",
        summary: "Why pipelines need many micro-batches, and where the layout search hides the rest.",
        body: alloc::vec![
            "A model too big for one chip's memory is cut into p stages, one after another, each on its own chips. A batch is split into m micro-batches that flow through them: while stage 2 works on the first, stage 1 starts the second.".into(),
            "At the start and the end of every step some stages have nothing to do: with the 1F1B schedule, p − 1 micro-batch slots sit idle. That is the bubble, a share (p − 1)/(m + p − 1) of the step. More micro-batches shrink it; so does interleaving, giving each chip v chunks of layers, which cuts each idle slot to a chunk: (p − 1)/v over m + (p − 1)/v.".into(),
            "Communication is hidden the same way: a data-parallel all-reduce overlaps the backward pass of later layers, and a tensor-parallel exchange the next GEMM. The Workload page's layout search tries every split of tensor, pipeline, data, expert and context parallelism and keeps the fastest that fits; its step lists what is left exposed.".into(),
            "The view below is the Workload page for Llama 3 70B on 64 H100: the layout it picked, and in \"Where the training step goes\" the bubble and the exposed communication.".into(),
        ],
        view,
        links: alloc::vec![("Llama 3 405B on 256 H100".into(), big)],
        exercises: alloc::vec![
            Exercise {
                id: "pipeline-1".into(),
                question: format!("A pipeline of {p} stages runs {m} micro-batches a step with 1F1B, no interleaving. What share of the step is the bubble, in percent?"),
                unit: "%",
                answer: share * 100.0,
                tolerance: Tolerance::Relative(0.02),
                hint: "(p − 1)/(m + p − 1).".into(),
                worked: format!(
                    "{}/({m} + {}) = {}%. Interleaving two chunks a chip halves the idle slots: {}%.",
                    p - 1,
                    p - 1,
                    sig(share * 100.0, 3),
                    sig(inter * 100.0, 3)
                ),
            },
            Exercise {
                id: "pipeline-2".into(),
                question: format!("With the same {p} stages, what is the fewest micro-batches a step needs for the bubble to be at most 5%?"),
                unit: "micro-batches",
                answer: f64::from(fewest),
                tolerance: Tolerance::Absolute(0.5),
                hint: "Solve (p − 1)/(m + p − 1) ≤ 0.05 for m.".into(),
                worked: format!(
                    "m + {} ≥ {}/0.05 = {}, so m ≥ {fewest}. Each micro-batch is a slice of the global batch, so a deep pipeline needs a large batch, or interleaving.",
                    p - 1,
                    p - 1,
                    sig(f64::from(p - 1) / 0.05, 4)
                ),
            },
        ],
    })
}

fn cost() -> Option<Lesson> {
    let j = Job::default();
    let r = evaluate(&j).ok()?;
    let sys = system::find(&j.system).ok()?;
    let chips = sys.chips() * j.nodes;
    let other = j.on_platform("gb200-nvl72")?;
    let other_sys = system::find(&other.system).ok()?;
    let ro = evaluate(&other).ok()?;
    let rate = r.usd_per_chip_hour.value;
    let x = r.train_usd_per_mtok;
    let y = ro.train_usd_per_mtok;
    let t = r.train.tokens_per_s;
    let chip_name =
        crate::catalog::find(sys.chip).map_or_else(|_| sys.chip.to_string(), |c| c.name);
    let mut view = on(Page::Workload);
    view.job = j.clone();
    let mut cmp = on(Page::Workload);
    cmp.job = Job {
        compare_with: "gb200-nvl72".into(),
        ..j.clone()
    };
    Some(Lesson {
        id: "",
        title: "",
        summary: "The price of a chip-hour against the tokens it makes: the one division behind every comparison.",
        body: alloc::vec![
            "A million tokens costs what the chips cost for the time it takes to make them: $/Mtok = (price per chip-hour × chips) ÷ (tokens per second × 3,600) × 10⁶. Everything else (peak FLOP/s, MFU, the fabric, the format) acts through the tokens per second; everything about money (rental or ownership, discounts, power) through the price per chip-hour.".into(),
            format!(
                "So a platform twice as fast is as cheap per token at twice the price. The default job trains {} on {} {chip_name} chips at ${} per chip-hour: {} tokens a second.",
                crate::workload::find_model(&j.model).map_or_else(|_| j.model.clone(), |m| m.name),
                chips,
                sig(rate, 3),
                sig(t, 4)
            ),
            "The view below is that job on the Workload page; its cards give each figure with its formula, its break-even chart the price at which another platform matches it.".into(),
        ],
        view,
        links: alloc::vec![("Against GB200 NVL72, with the break-even".into(), cmp)],
        exercises: alloc::vec![
            Exercise {
                id: "cost-1".into(),
                question: format!(
                    "{chips} chips at ${} per chip-hour make {} tokens a second. What does a million tokens cost, in dollars?",
                    sig(rate, 4),
                    sig(t, 5)
                ),
                unit: "$/Mtok",
                answer: x,
                tolerance: Tolerance::Relative(0.02),
                hint: "Dollars an hour for all the chips, over the tokens an hour, times 10⁶.".into(),
                worked: format!(
                    "{} × {chips} ÷ ({} × 3,600) × 10⁶ = ${}/Mtok.",
                    sig(rate, 4),
                    sig(t, 5),
                    sig(x, 4)
                ),
            },
            Exercise {
                id: "cost-2".into(),
                question: format!(
                    "The same job on {} GB200 GPUs costs ${} per million tokens. At what price per chip-hour would the {chip_name} chips cost the same per token?",
                    other.nodes * other_sys.chips(),
                    sig(y, 4),
                ),
                unit: "$/chip-h",
                answer: rate * y / x,
                tolerance: Tolerance::Relative(0.02),
                hint: "$/Mtok is proportional to the price: scale today's price by the ratio of the two costs.".into(),
                worked: format!(
                    "${} × {} ÷ {} = ${} per chip-hour. The Workload page's break-even chart finds the same point.",
                    sig(rate, 4),
                    sig(y, 4),
                    sig(x, 4),
                    sig(rate * y / x, 4)
                ),
            },
        ],
    })
}

fn systolic() -> Option<Lesson> {
    let core = crate::neuroncore::Core::of("trn2").ok()?;
    let chip = crate::catalog::find("trn2").ok()?;
    let cores = chip.cores.value;
    let one = core.array_peak(Dtype::Bf16);
    let all = one * f64::from(cores);
    let listed = chip.dense(Dtype::Bf16)?.get();
    let a = core.array;
    let mut view = on(Page::Kernels);
    view.chips = alloc::vec!["trn2".into()];
    Some(Lesson {
        id: "",
        title: "",
        summary: "How a NeuronCore's tensor engine turns a clock and a grid of multipliers into a peak.",
        body: alloc::vec![
            format!(
                "Each NeuronCore's tensor engine is a {a} × {a} grid of processing elements. A tile of weights is loaded into the grid and stays (it is stationary); the moving operand streams in from one edge, one column of {a} values a cycle, and each element multiplies what passes it by its weight and adds the product to a partial sum flowing down to the accumulation buffer (PSUM)."
            ),
            format!(
                "Once the grid is full, every element does one multiply-add (2 FLOPs) every cycle: that is the peak. Filling the grid and draining it, loading the next weights and waiting for data from HBM (DMA) are cycles without it. The Kernels page simulates {} running a tiled GEMM instruction by instruction, and shows where each engine waits and why.",
                core.name()
            ),
            "The view below is the Kernels page: its NeuronCore section runs a schedule of your choosing.".into(),
        ],
        view,
        links: alloc::vec![],
        exercises: alloc::vec![
            Exercise {
                id: "systolic-1".into(),
                question: format!(
                    "The tensor engine's {a} × {a} elements each do one BF16 multiply-add a cycle at {} GHz. What is one core's BF16 peak, in TFLOP/s?",
                    sig(core.tensor_hz / 1e9, 4)
                ),
                unit: "TFLOP/s",
                answer: one / 1e12,
                tolerance: Tolerance::Relative(0.02),
                hint: "2 FLOPs per multiply-add × elements × cycles a second.".into(),
                worked: format!(
                    "2 × {a} × {a} × {:.4e} Hz = {}.",
                    core.tensor_hz,
                    tflops(one)
                ),
            },
            Exercise {
                id: "systolic-2".into(),
                question: format!("A Trn2 chip has {cores} such cores. What is the chip's BF16 peak, in TFLOP/s?"),
                unit: "TFLOP/s",
                answer: all / 1e12,
                tolerance: Tolerance::Relative(0.02),
                hint: "Every core's tensor engine runs at once.".into(),
                worked: format!(
                    "{cores} × {} = {}. AWS lists {} for the chip, {}% {} than the array and the published clock give: vendors' figures do not always reconcile, which is why every figure in the app shows its source.",
                    tflops(one),
                    tflops(all),
                    tflops(listed),
                    sig((listed / all - 1.0).abs() * 100.0, 2),
                    if listed > all { "more" } else { "less" }
                ),
            },
        ],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_lesson_is_worked_out_with_its_exercises() {
        let all = lessons();
        assert_eq!(
            all.iter().map(|l| l.id).collect::<Vec<_>>(),
            IDS.to_vec(),
            "a lesson did not evaluate"
        );
        let mut ids = Vec::new();
        for l in &all {
            assert!(!l.exercises.is_empty(), "{}", l.id);
            for e in &l.exercises {
                assert!(
                    e.answer.is_finite() && e.answer > 0.0,
                    "{}: {}",
                    e.id,
                    e.answer
                );
                assert!(e.id.starts_with(l.id), "{}", e.id);
                assert!(!ids.contains(&e.id), "{} twice", e.id);
                ids.push(e.id.clone());
                // The answer, as written in the worked text, is right; far off is wrong.
                assert_eq!(e.check(&sig(e.answer, 6)), Verdict::Right, "{}", e.id);
                assert!(matches!(
                    e.check(&format!("{}", e.answer * 1.5 + 1.0)),
                    Verdict::Wrong(_)
                ));
                assert!(matches!(e.check("fast"), Verdict::Unreadable(_)));
            }
            // Its views open as links without a notice.
            for s in core::iter::once(&l.view).chain(l.links.iter().map(|(_, s)| s)) {
                let (back, notes) = Scenario::from_query(&s.to_query());
                assert!(notes.is_empty(), "{}: {notes:?}", l.id);
                assert_eq!(back.page, s.page);
            }
        }
    }

    #[test]
    fn answers_are_read_as_people_write_them() {
        for (t, x) in [
            ("230", 230.0),
            (" 1,234.5 ", 1234.5),
            ("17.9%", 17.9),
            ("2.01 GB", 2.01),
            ("$1.25", 1.25),
            ("6.67e14", 6.67e14),
            ("1e-3", 1e-3),
            ("-4", -4.0),
        ] {
            assert_eq!(read_number(t), Some(x), "{t}");
        }
        for t in ["", "abc", "e5", "."] {
            assert_eq!(read_number(t), None, "{t}");
        }
    }

    #[test]
    fn answers_agree_with_published_figures() {
        // AWS Neuron, Trainium2 architecture: 667 TFLOP/s dense BF16 at 2.9 TB/s, ridge ≈ 230.
        let ridge = find("roofline").unwrap().exercises[0].answer;
        assert!((ridge - 230.0).abs() < 1.0, "{ridge}");
        // The same page and NKI's architecture guide: 8 NeuronCore-v3 a chip, each a
        // 128 × 128 tensor engine at 2.4 GHz: 2·128²·2.4e9 = 78.64 TFLOP/s a core, 629.1 a chip
        // (AWS lists 667, and the worked answer says so).
        let s = find("systolic").unwrap();
        assert!(
            (s.exercises[0].answer - 78.643).abs() < 0.01,
            "{}",
            s.exercises[0].answer
        );
        assert!(
            (s.exercises[1].answer - 629.146).abs() < 0.01,
            "{}",
            s.exercises[1].answer
        );
        assert!(
            s.exercises[1].worked.contains("667"),
            "{}",
            s.exercises[1].worked
        );
        // nccl-tests' bus factor for an all-reduce: 2(n − 1)/n; 16 ranks, 1 GiB → 2.013 GB.
        let t = find("torus").unwrap().exercises[0].answer;
        assert!((t - 2.0 * 15.0 / 16.0 * GIB / 1e9).abs() < 1e-9, "{t}");
        // Narayanan et al. (2021), "Efficient Large-Scale Language Model Training on GPU
        // Clusters": the 1F1B bubble is (p − 1)/m of the ideal time, so (p − 1)/(m + p − 1)
        // of the step: 7/39 for p = 8, m = 32.
        let p = find("pipeline").unwrap();
        assert!((p.exercises[0].answer - 700.0 / 39.0).abs() < 1e-9);
        assert_eq!(p.exercises[1].answer, 133.0);
    }

    #[test]
    fn the_cost_lesson_is_the_report_s_own_division() {
        let l = find("cost").unwrap();
        let r = evaluate(&Job::default()).unwrap();
        let e = &l.exercises[0];
        let by_hand =
            r.usd_per_chip_hour.value * f64::from(r.chips) / (r.train.tokens_per_s * 3600.0) * 1e6;
        assert!(
            (by_hand / e.answer - 1.0).abs() < 1e-9,
            "{by_hand} {}",
            e.answer
        );
    }

    #[test]
    fn fp8_gains_less_than_amdahl_allows() {
        let l = find("fp8").unwrap();
        let amdahl = l.exercises[0].answer;
        let (b, e) = (
            breakdown::train_step(&h100_job(Dtype::Bf16)).unwrap(),
            breakdown::train_step(&h100_job(Dtype::Fp8)).unwrap(),
        );
        let model = b.total_s / e.total_s;
        assert!(
            model > 1.0 && model < amdahl && amdahl < 2.0,
            "{model} {amdahl}"
        );
    }
}
