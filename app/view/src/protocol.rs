//! The messages between the Kernels page and its Web Worker, typed so both sides compile
//! against one definition. On the wire each is one line of text, a verb and its argument,
//! written and read only here; a NeuronCore timeline follows its [`Reply::NcResult`] as a
//! `Float64Array` (numbers do not need a text form).

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// What the page asks of its worker.
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    /// Run one kernel, given as its link pairs (`kk=gemm&km=…`).
    Run(String),
    /// Run the kernel across formats, block sizes and accumulators.
    Sweep(String),
    /// Measure this thread's GEMM rate and memory streams, as one of `threads` at once.
    Bench {
        /// How many workers measure at the same time.
        threads: u32,
    },
    /// Simulate a NeuronCore experiment (its link text).
    Simulate(String),
    /// Search a NeuronCore matmul's tiles (its link text).
    Tune(String),
    /// Simulate a job's serving request by request, then its load curve.
    Serve(ServeRun),
    /// The model's errors on the published runs held out for a chip (its catalog id), for the
    /// ranges on a page's headline figures.
    Errors(String),
    /// The published runs against the model, as HTML.
    Calibration,
    /// The tornado of the job of a scenario (its link query).
    Tornado(String),
    /// A view of a scenario (its link query), as HTML.
    View(View, String),
    /// Search every layout of the job of a scenario (its link query), reporting after each
    /// slice; a newer search replaces it.
    Search(String),
    /// The break-even curve of the job of a scenario (its link query) against the platform
    /// it is compared with, along its lever.
    BreakEven(String),
    /// The verdict on every price basis between the job of a scenario (its link query) and
    /// the same job on the platform it is compared with.
    Verdict(String),
}

/// A serving simulation the Workload page asks for.
#[derive(Clone, Debug, PartialEq)]
pub struct ServeRun {
    /// Requests per second.
    pub rate: f64,
    /// `poisson`, `bursty`, `chat` or `agentic`.
    pub traffic: String,
    /// Seconds of arrivals.
    pub duration_s: f64,
    /// Seed.
    pub seed: u64,
    /// Keep sessions' contexts between turns.
    pub prefix_cache: bool,
    /// The scenario's link query (the job, its targets and the platform compared with).
    pub query: String,
    /// A pasted trace (`arrival_s,prompt,output` lines) used in place of the traffic, or
    /// empty.
    pub trace: String,
}

/// What the worker answers.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// Loaded and listening.
    Ready,
    /// What it is doing now, for the status line.
    Stage(String),
    /// A kernel's result, as HTML.
    Result(String),
    /// A sweep's table, as HTML.
    Sweep(String),
    /// One thread's measured rates.
    Bench {
        /// How many workers measured at once.
        threads: u32,
        /// f32 GEMM, GFLOP/s.
        gflops: f64,
        /// STREAM triad, GB/s.
        gbps: f64,
        /// Every stream kernel's rate, `copy=…,scale=…`.
        detail: String,
    },
    /// The kernel could not run.
    Error(String),
    /// A simulated NeuronCore's arithmetic intensity and whole-chip FLOP/s.
    NcPoint {
        /// FLOP per byte of memory traffic.
        intensity: f64,
        /// FLOP/s with every core running the schedule.
        flops_per_s: f64,
    },
    /// A simulation's result: what each timeline span is, and the HTML.
    NcResult {
        /// One label per kind of span, in the timeline's order.
        whats: Vec<String>,
        /// The result, as HTML.
        html: String,
    },
    /// A tile search's table, as HTML.
    NcTuned(String),
    /// The NeuronCore experiment could not run.
    NcError(String),
    /// The published runs against the model, as HTML.
    Calibration(String),
    /// A scenario's tornado (`engine::job::tornado_from`): the base training cost per
    /// million tokens and the swings, largest first; no swings when the job does not
    /// evaluate.
    Tornado {
        /// The scenario's link query, as asked.
        query: String,
        /// The base cost.
        base: f64,
        /// The swings.
        swings: Vec<engine::job::Swing>,
    },
    /// A scenario's break-even curve (`engine::job::sensitivity`): the cost per token at
    /// each point of the lever, the compared platform's cost, where they cross (NaN for
    /// nowhere) and that platform's name; no points when it cannot be evaluated.
    BreakEven {
        /// The scenario's link query, as asked.
        query: String,
        /// Lever value and cost per token, in order.
        points: Vec<(f64, f64)>,
        /// The compared platform's cost per token.
        target: f64,
        /// The lever value where the costs meet, or NaN.
        at: f64,
        /// The compared platform's name.
        name: String,
    },
    /// A layout search's progress (`crate::search`).
    Search {
        /// The scenario's link query, as asked.
        query: String,
        /// Layouts tried.
        tried: usize,
        /// Layouts to try (0: the job cannot be searched).
        total: usize,
        /// The fastest that fit so far, as table rows.
        rows: String,
        /// Why the others do not fit, as list items, once it is done.
        reasons: String,
    },
    /// A view of a scenario, as HTML ([`View::draw`]).
    View {
        /// Which.
        view: View,
        /// The scenario's link query, as asked.
        query: String,
        /// The view.
        html: String,
    },
    /// A scenario's verdict on every price basis (`engine::job::verdict_sentence`), empty
    /// when there is none.
    Verdict {
        /// The scenario's link query, as asked.
        query: String,
        /// The sentence.
        sentence: String,
    },
    /// A chip's errors on held-out runs, training's and serving's, each as the engine encodes
    /// them (`engine::uncertainty::Errors::encode`).
    Errors {
        /// The chip's catalog id.
        chip: String,
        /// Training's.
        training: String,
        /// Serving's.
        serving: String,
    },
}

/// A view of a scenario that the worker evaluates and draws as HTML for the Workload page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// The job on every platform ([`crate::platforms::html`]).
    Platforms,
    /// The training step operation by operation, beside the platform compared with
    /// ([`crate::step::html`]).
    Step,
    /// $ per marketed PFLOP-hour by format against the platform compared with
    /// ([`crate::formats::html`]).
    Formats,
    /// Serving against targets on several platforms ([`crate::serving::curves_html`]).
    Serving,
    /// Disaggregated prefill and decode ([`crate::serving::disagg_html`]).
    Disagg,
    /// What reading a Trainium job's link figures the other way changes
    /// ([`crate::reading::effect_html`]).
    Reading,
    /// What one chip-hour is made of ([`crate::chip_hour::html`]).
    ChipHour,
    /// Serving it yourself beside API prices ([`crate::api::html`]).
    Api,
}

impl View {
    /// Every view.
    pub const ALL: [Self; 8] = [
        Self::Platforms,
        Self::Step,
        Self::Formats,
        Self::Serving,
        Self::Disagg,
        Self::Reading,
        Self::ChipHour,
        Self::Api,
    ];

    /// Its name in a message.
    #[must_use]
    pub fn id(self) -> &'static str {
        match self {
            Self::Platforms => "platforms",
            Self::Step => "step",
            Self::Formats => "formats",
            Self::Serving => "serving",
            Self::Disagg => "disagg",
            Self::Reading => "reading",
            Self::ChipHour => "chiphour",
            Self::Api => "api",
        }
    }

    /// The view of that name.
    #[must_use]
    pub fn parse(id: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.id() == id)
    }

    /// The view of the scenario of the link query `query`, as HTML (empty when there is
    /// nothing to show); `clock` reads milliseconds, for a view that says how long it took,
    /// and `evaluate` gives the scenario's job evaluated (the worker keeps the last, so the
    /// views of one input share one evaluation).
    #[must_use]
    pub fn draw(self, query: &str, clock: fn() -> f64, evaluate: Evaluate<'_>) -> String {
        let s = engine::Scenario::from_query(query).0;
        match self {
            Self::Platforms => crate::platforms::html(&s.job, &evaluate(&s.job)),
            Self::Step => crate::step::html(&s, &evaluate(&s.job)),
            Self::Formats => crate::formats::html(&s.job),
            Self::Serving => crate::serving::curves_html(&s.job, clock),
            Self::Disagg => crate::serving::disagg_html(&s.job),
            Self::Reading => crate::reading::effect_html(&s.job, evaluate),
            Self::ChipHour => crate::chip_hour::html(&evaluate(&s.job)),
            Self::Api => crate::api::html(&s.job, &evaluate(&s.job)),
        }
    }
}

pub use crate::Evaluate;

/// Separates the parts of a reply with several (no query, number or encoded errors hold it).
const PART: char = '\u{1d}';
/// Separates the items of a list in a reply.
const ITEM: char = '\u{1e}';
/// Separates the fields of an item.
const FIELD: char = '\u{1f}';

/// The `N` parts of a reply's argument `arg` (after its verb), or what the reply needs.
fn parts<'a, const N: usize>(
    arg: &'a str,
    verb: &str,
    needs: &str,
) -> Result<[&'a str; N], String> {
    <[&str; N]>::try_from(arg.split(PART).collect::<Vec<_>>())
        .map_err(|_| format!("'{verb}' needs {needs}, got '{arg}'"))
}

/// The `N` fields of each item of a list in a reply, or the item that does not read.
fn items<'a, const N: usize>(
    list: &'a str,
    verb: &str,
    what: &str,
) -> Result<Vec<[&'a str; N]>, String> {
    list.split(ITEM)
        .filter(|i| !i.is_empty())
        .map(|i| {
            <[&str; N]>::try_from(i.split(FIELD).collect::<Vec<_>>())
                .map_err(|_| format!("'{verb}' sent {what} that does not read: '{i}'"))
        })
        .collect()
}

fn split(line: &str) -> (&str, &str) {
    line.split_once(' ').unwrap_or((line, ""))
}

impl Request {
    /// The message as sent.
    #[must_use]
    pub fn encode(&self) -> String {
        match self {
            Self::Run(q) => format!("run {q}"),
            Self::Sweep(q) => format!("sweep {q}"),
            Self::Bench { threads } => format!("bench {threads}"),
            Self::Simulate(t) => format!("nc {t}"),
            Self::Tune(t) => format!("nctune {t}"),
            Self::Errors(chip) => format!("errors {chip}"),
            Self::Calibration => "calibration".into(),
            Self::Tornado(q) => format!("tornado {q}"),
            Self::View(v, q) => format!("view {} {q}", v.id()),
            Self::Search(q) => format!("search {q}"),
            Self::BreakEven(q) => format!("breakeven {q}"),
            Self::Verdict(q) => format!("verdict {q}"),
            Self::Serve(r) => format!(
                "serve {} {} {} {} {} {}\n{}",
                r.rate,
                r.traffic,
                r.duration_s,
                r.seed,
                u8::from(r.prefix_cache),
                r.query,
                r.trace
            ),
        }
    }

    /// The message received, or what was wrong with it.
    ///
    /// # Errors
    /// An unknown verb or a bench without a thread count.
    pub fn decode(line: &str) -> Result<Self, String> {
        let (verb, arg) = split(line);
        Ok(match verb {
            "run" => Self::Run(arg.into()),
            "sweep" => Self::Sweep(arg.into()),
            "bench" => Self::Bench {
                threads: arg
                    .parse()
                    .map_err(|_| format!("bench needs a thread count, got '{arg}'"))?,
            },
            "nc" => Self::Simulate(arg.into()),
            "nctune" => Self::Tune(arg.into()),
            "errors" => Self::Errors(arg.into()),
            "calibration" => Self::Calibration,
            "tornado" => Self::Tornado(arg.into()),
            "search" => Self::Search(arg.into()),
            "view" => {
                let (id, q) = split(arg);
                Self::View(
                    View::parse(id).ok_or_else(|| format!("unknown view '{id}'"))?,
                    q.into(),
                )
            }
            "breakeven" => Self::BreakEven(arg.into()),
            "verdict" => Self::Verdict(arg.into()),
            "serve" => {
                // The trace, if any, follows the first line.
                let (arg, trace) = arg.split_once('\n').unwrap_or((arg, ""));
                let mut p = arg.splitn(6, ' ');
                let bad =
                    || format!("serve needs rate traffic duration seed prefix query, got '{arg}'");
                let num = |p: &mut core::str::SplitN<'_, char>| -> Result<f64, String> {
                    p.next().and_then(|x| x.parse().ok()).ok_or_else(bad)
                };
                let rate = num(&mut p)?;
                let traffic = p.next().ok_or_else(bad)?.to_string();
                let duration_s = num(&mut p)?;
                let seed = p.next().and_then(|x| x.parse().ok()).ok_or_else(bad)?;
                let prefix_cache = p.next().ok_or_else(bad)? == "1";
                Self::Serve(ServeRun {
                    rate,
                    traffic,
                    duration_s,
                    seed,
                    prefix_cache,
                    query: p.next().unwrap_or("").to_string(),
                    trace: trace.to_string(),
                })
            }
            _ => return Err(format!("unknown request '{verb}'")),
        })
    }
}

impl Reply {
    /// The message as sent.
    #[must_use]
    pub fn encode(&self) -> String {
        match self {
            Self::Ready => "ready".into(),
            Self::Stage(s) => format!("stage {s}"),
            Self::Result(h) => format!("result {h}"),
            Self::Sweep(h) => format!("sweep {h}"),
            Self::Bench {
                threads,
                gflops,
                gbps,
                detail,
            } => format!("bench {threads} {gflops} {gbps} {detail}"),
            Self::Error(e) => format!("error {e}"),
            Self::NcPoint {
                intensity,
                flops_per_s,
            } => format!("ncpoint {intensity},{flops_per_s}"),
            Self::NcResult { whats, html } => format!("ncresult {}\n{html}", whats.join("|")),
            Self::NcTuned(h) => format!("nctune {h}"),
            Self::NcError(e) => format!("ncerror {e}"),
            Self::Calibration(h) => format!("calibration {h}"),
            Self::Tornado {
                query,
                base,
                swings,
            } => {
                let items: Vec<String> = swings
                    .iter()
                    .map(|s| format!("{}{FIELD}{}{FIELD}{}", s.input, s.low, s.high))
                    .collect();
                format!(
                    "tornado {query}{PART}{base}{PART}{}",
                    items.join(ITEM.encode_utf8(&mut [0; 4]))
                )
            }
            Self::Verdict { query, sentence } => format!("verdict {query}{PART}{sentence}"),
            Self::View { view, query, html } => format!("view {} {query}{PART}{html}", view.id()),
            Self::Search {
                query,
                tried,
                total,
                rows,
                reasons,
            } => format!("search {query}{PART}{tried}{PART}{total}{PART}{rows}{PART}{reasons}"),
            Self::BreakEven {
                query,
                points,
                target,
                at,
                name,
            } => {
                let items: Vec<String> = points
                    .iter()
                    .map(|(x, y)| format!("{x}{FIELD}{y}"))
                    .collect();
                format!(
                    "breakeven {query}{PART}{target}{PART}{at}{PART}{name}{PART}{}",
                    items.join(ITEM.encode_utf8(&mut [0; 4]))
                )
            }
            Self::Errors {
                chip,
                training,
                serving,
            } => format!("errors {chip}{PART}{training}{PART}{serving}"),
        }
    }

    /// The message received, or what was wrong with it.
    ///
    /// # Errors
    /// An unknown verb, or numbers that do not read.
    pub fn decode(line: &str) -> Result<Self, String> {
        let (verb, arg) = split(line);
        let number = |x: Option<&str>| -> Result<f64, String> {
            x.and_then(|x| x.parse().ok())
                .ok_or_else(|| format!("'{verb}' sent numbers that do not read: '{arg}'"))
        };
        Ok(match verb {
            "ready" => Self::Ready,
            "stage" => Self::Stage(arg.into()),
            "result" => Self::Result(arg.into()),
            "sweep" => Self::Sweep(arg.into()),
            "bench" => {
                let mut p = arg.splitn(4, ' ');
                let threads = p
                    .next()
                    .and_then(|x| x.parse().ok())
                    .ok_or_else(|| format!("'bench' sent no thread count: '{arg}'"))?;
                let (gflops, gbps) = (number(p.next())?, number(p.next())?);
                Self::Bench {
                    threads,
                    gflops,
                    gbps,
                    detail: p.next().unwrap_or("").to_string(),
                }
            }
            "error" => Self::Error(arg.into()),
            "ncpoint" => {
                let mut p = arg.split(',');
                Self::NcPoint {
                    intensity: number(p.next())?,
                    flops_per_s: number(p.next())?,
                }
            }
            "ncresult" => {
                let (whats, html) = arg.split_once('\n').unwrap_or(("", arg));
                Self::NcResult {
                    whats: whats
                        .split('|')
                        .filter(|w| !w.is_empty())
                        .map(String::from)
                        .collect(),
                    html: html.into(),
                }
            }
            "nctune" => Self::NcTuned(arg.into()),
            "ncerror" => Self::NcError(arg.into()),
            "calibration" => Self::Calibration(arg.into()),
            "tornado" => {
                let [query, base, list] = parts(arg, verb, "a query, a base and swings")?;
                let swings = items(list, verb, "a swing")?
                    .into_iter()
                    .map(|[input, low, high]| {
                        Ok(engine::job::Swing {
                            input: input.into(),
                            low: number(Some(low))?,
                            high: number(Some(high))?,
                        })
                    })
                    .collect::<Result<Vec<_>, String>>()?;
                Self::Tornado {
                    query: query.into(),
                    base: number(Some(base))?,
                    swings,
                }
            }
            "search" => {
                let [query, tried, total, rows, reasons] =
                    parts(arg, verb, "a query, two counts, rows and reasons")?;
                let count = |x: &str| {
                    x.parse()
                        .map_err(|_| format!("'search' sent a count that does not read: '{x}'"))
                };
                Self::Search {
                    query: query.into(),
                    tried: count(tried)?,
                    total: count(total)?,
                    rows: rows.into(),
                    reasons: reasons.into(),
                }
            }
            "view" => {
                let (id, rest) = split(arg);
                let (Some(view), Some((query, html))) = (View::parse(id), rest.split_once(PART))
                else {
                    return Err(format!(
                        "'view' needs a known view, a query and its HTML, got '{arg}'"
                    ));
                };
                Self::View {
                    view,
                    query: query.into(),
                    html: html.into(),
                }
            }
            "breakeven" => {
                let [query, target, at, name, list] = parts(
                    arg,
                    verb,
                    "a query, a target, a crossing, a name and points",
                )?;
                let points = items(list, verb, "a point")?
                    .into_iter()
                    .map(|[x, y]| Ok((number(Some(x))?, number(Some(y))?)))
                    .collect::<Result<Vec<_>, String>>()?;
                Self::BreakEven {
                    query: query.into(),
                    points,
                    target: number(Some(target))?,
                    at: number(Some(at))?,
                    name: name.into(),
                }
            }
            "verdict" => {
                let Some((query, sentence)) = arg.split_once(PART) else {
                    return Err(format!(
                        "'verdict' needs a query and a sentence, got '{arg}'"
                    ));
                };
                Self::Verdict {
                    query: query.into(),
                    sentence: sentence.into(),
                }
            }
            "errors" => {
                let mut p = arg.split(PART);
                let (Some(chip), Some(training), Some(serving), None) =
                    (p.next(), p.next(), p.next(), p.next())
                else {
                    return Err(format!("'errors' needs a chip and two parts, got '{arg}'"));
                };
                Self::Errors {
                    chip: chip.into(),
                    training: training.into(),
                    serving: serving.into(),
                }
            }
            _ => return Err(format!("unknown reply '{verb}'")),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    #[test]
    fn every_message_reads_back_as_sent() {
        for r in [
            Request::Run("kk=gemm&km=64".into()),
            Request::Sweep(String::new()),
            Request::Bench { threads: 12 },
            Request::Simulate("mm trn2 bf16 128x128x128".into()),
            Request::Tune("x y".into()),
            Request::Errors("trn2".into()),
            Request::Calibration,
            Request::Tornado("v=9&page=workload".into()),
            Request::Verdict("v=9&page=workload&wsys=hgx-h100-8".into()),
            Request::View(View::Platforms, "v=9&page=workload&wnodes=2".into()),
            Request::View(View::Step, "v=9&page=workload".into()),
            Request::View(View::Formats, String::new()),
            Request::Search("v=9&page=workload&wnodes=4".into()),
            Request::BreakEven("v=9&page=workload&wlever=price".into()),
            Request::Serve(ServeRun {
                rate: 2.5,
                traffic: "chat".into(),
                duration_s: 600.0,
                seed: 7,
                prefix_cache: true,
                query: "v=4&page=workload&wsys=hgx-h200-8".into(),
                trace: String::new(),
            }),
            Request::Serve(ServeRun {
                rate: 1.0,
                traffic: "poisson".into(),
                duration_s: 60.0,
                seed: 1,
                prefix_cache: false,
                query: "v=4".into(),
                trace: "arrival_s,prompt,output\n0.5,100,10\n1,2000,300\n".into(),
            }),
        ] {
            assert_eq!(Request::decode(&r.encode()), Ok(r.clone()), "{r:?}");
        }
        for r in [
            Reply::Ready,
            Reply::Stage("3 of 22: MXFP4".into()),
            Reply::Result("<p>a b</p>".into()),
            Reply::Sweep("<table></table>".into()),
            Reply::Bench {
                threads: 4,
                gflops: 12.5,
                gbps: 3.25,
                detail: "copy=1.5,triad=3.25 sink=1".into(),
            },
            Reply::Error("no such kernel".into()),
            Reply::NcPoint {
                intensity: 341.25,
                flops_per_s: 6.67e14,
            },
            Reply::NcResult {
                whats: vec!["PE matmul".into(), "DMA in".into()],
                html: "<p>line one\nline two</p>".into(),
            },
            Reply::NcResult {
                whats: vec![],
                html: "<p></p>".into(),
            },
            Reply::NcTuned("<table></table>".into()),
            Reply::NcError("tile too big".into()),
            Reply::Calibration("<h3>Fitted</h3>\n<table></table>".into()),
            Reply::Tornado {
                query: "v=9&page=workload&wnodes=8".into(),
                base: 0.6723,
                swings: vec![
                    engine::job::Swing {
                        input: "price per chip-hour".into(),
                        low: 0.538,
                        high: 0.807,
                    },
                    engine::job::Swing {
                        input: "PUE".into(),
                        low: 0.1 + 0.2,
                        high: 1e-300,
                    },
                ],
            },
            Reply::Tornado {
                query: String::new(),
                base: 1.5,
                swings: vec![],
            },
            Reply::BreakEven {
                query: "v=9&wlever=price".into(),
                points: vec![(0.5, 0.61), (1.25, 1.5e-3)],
                target: 1.054,
                at: 2.27,
                name: "HGX H100 (p5.48xlarge, 8 GPUs)".into(),
            },
            Reply::View {
                view: View::Platforms,
                query: "v=9&wnodes=2".into(),
                html: "<table id=\"platforms-table\">\n</table>".into(),
            },
            Reply::Search {
                query: "v=9".into(),
                tried: 12,
                total: 480,
                rows: "<tr><th>tp 8</th></tr>".into(),
                reasons: String::new(),
            },
            Reply::View {
                view: View::Step,
                query: "v=9".into(),
                html: String::new(),
            },
            Reply::Verdict {
                query: "v=9".into(),
                sentence: "Trn2 trains this job 36% cheaper than H100.".into(),
            },
            Reply::Errors {
                chip: "h100".into(),
                training: "-0.1\u{1f}0\u{1f}3".into(),
                serving: "a b\nc".into(),
            },
        ] {
            assert_eq!(Reply::decode(&r.encode()), Ok(r.clone()), "{r:?}");
        }
    }

    const EVAL: Evaluate<'static> = &|j| engine::job::evaluate(j).map_err(|e| e.to_string());

    #[test]
    fn every_view_draws_the_default_job() {
        for (v, id) in [
            (View::Platforms, "id=\"platforms-table\""),
            (View::Step, "id=\"step-breakdown-table\""),
            (View::Formats, "id=\"by-format\""),
            (View::Serving, "id=\"serving-chart\""),
            (View::Disagg, "id=\"disagg-answer\""),
            (View::ChipHour, "id=\"cost-breakdown\""),
            (View::Api, "id=\"api-prices\""),
        ] {
            assert_eq!(View::parse(v.id()), Some(v));
            assert!(
                v.draw("v=9&page=workload", || 0.0, EVAL).contains(id),
                "{v:?}"
            );
        }
        // Trn2's links read two ways; an H100's one.
        assert!(View::Reading
            .draw("v=9&page=workload&wsys=trn2-ultra-64", || 0.0, EVAL)
            .starts_with("Read the other way"));
        assert_eq!(
            View::Reading.draw("v=9&page=workload&wsys=hgx-h100-8", || 0.0, EVAL),
            ""
        );
    }

    #[test]
    fn every_view_draws_a_hostile_link_without_panicking() {
        for q in [
            "",
            "v=9&page=workload&wsys=nope&wmodel=zzz",
            "v=9&page=workload&wnodes=0&wtok=-1&wdtype=fp4&wgbs=0",
            "v=9&page=workload&wmodel=m:l1,d1,h1,kv1,f1,v1&wnodes=100000",
            "v=9&page=workload&wsys=trn2-ultra-64&wpsys=hgx-b200-8&wdsys=nope&wcurve=a,b,c",
        ] {
            for v in View::ALL {
                let _ = v.draw(q, || 0.0, EVAL);
            }
        }
    }

    #[test]
    fn nonsense_is_named() {
        assert!(Request::decode("teleport now").is_err());
        assert!(Request::decode("bench many").is_err());
        assert!(Request::decode("serve fast chat").is_err());
        assert!(Reply::decode("ncpoint 1,x").is_err());
        assert!(Reply::decode("bench 1 fast").is_err());
        assert!(Reply::decode("hello").is_err());
        assert!(Reply::decode("errors trn2").is_err());
        assert!(Reply::decode("tornado v=9").is_err());
        assert!(Reply::decode("tornado v=9\u{1d}1\u{1d}PUE\u{1f}1").is_err());
        assert!(Reply::decode("tornado v=9\u{1d}1\u{1d}PUE\u{1f}x\u{1f}2").is_err());
        assert!(Reply::decode("verdict v=9").is_err());
        assert!(Reply::decode("view platforms v=9").is_err());
        assert!(Reply::decode("search v=9\u{1d}1\u{1d}x\u{1d}\u{1d}").is_err());
        assert!(Reply::decode("search v=9\u{1d}1\u{1d}2").is_err());
        assert!(Reply::decode("view nonsense v=9\u{1d}<p></p>").is_err());
        assert!(Request::decode("view nonsense v=9").is_err());
        assert!(Reply::decode("breakeven v=9\u{1d}1\u{1d}2\u{1d}H100").is_err());
        assert!(Reply::decode("breakeven v=9\u{1d}1\u{1d}2\u{1d}H100\u{1d}1\u{1f}x").is_err());
        assert!(Reply::decode("errors trn2\u{1d}a\u{1d}b\u{1d}c").is_err());
    }
}
