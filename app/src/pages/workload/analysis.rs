//! What the job's figures answer to: the step's breakdown, the tornado, the platforms side by side, the break-even and the cost by format.

use super::*;
use view::platforms::PLATFORMS;

/// What one chip-hour is made of (owned), as a stacked bar.
#[component]
pub(super) fn Breakdown(
    /// The job's report.
    report: engine::job::JobReport,
) -> impl IntoView {
    let parts: Vec<(&str, f64, &str)> = match report.owned_breakdown {
        Some((c, p, o)) => vec![
            ("capital", c, "#0072b2"),
            ("power", p, "#e69f00"),
            ("facility & maintenance", o, "#009e73"),
        ],
        None => vec![("rental", report.usd_per_chip_hour.value, "#0072b2")],
    };
    let total: f64 = parts.iter().map(|p| p.1).sum();
    let mut x = 0.0;
    let bars = parts
        .iter()
        .map(|(name, v, color)| {
            let w = v / total * 100.0;
            let here = x;
            x += w;
            view! {
                <rect x=format!("{here:.2}%") y="0" width=format!("{w:.2}%") height="28" fill=*color>
                    <title>{format!("{name}: ${}/chip-hour", sig(*v, 3))}</title>
                </rect>
            }
        })
        .collect_view();
    let legend = parts
        .iter()
        .map(|(name, v, color)| view! { <li><span class="swatch" style=format!("background:{color}")></span>{format!("{name}: ${} ({}%)", sig(*v, 3), sig(v / total * 100.0, 3))}</li> })
        .collect_view();
    view! {
        <div class="card">
            <h2>"One chip-hour"</h2>
            <svg class="stack" id="cost-breakdown" width="100%" height="28" role="img" aria-label="Cost of one chip-hour by component">{bars}</svg>
            <ul class="legend-list">{legend}</ul>
            <p class="small-note">{format!("${} per chip-hour × {} chips", sig(total, 4), report.chips)}</p>
            <div inner_html=chart_data("cost-breakdown", "cost-breakdown-data", &["component", "$ per chip-hour", "share"], &parts.iter().map(|(n, v, _)| vec![(*n).to_string(), sig(*v, 4), format!("{}%", sig(v / total * 100.0, 3))]).collect::<Vec<_>>())></div>
        </div>
    }
}

/// Horizontal bars: the training cost per million tokens with each input moved ±20%.
#[component]
pub(super) fn Tornado(
    /// Base value and swings, largest first (worked out after the input's paint).
    swings: crate::defer::Deferred<Option<(f64, Vec<engine::job::Swing>)>>,
) -> impl IntoView {
    let body = move || {
        if swings.value.with(Option::is_none) {
            return view! { <div class="card"><p class="na">"Working out the sensitivity…"</p></div> }.into_any();
        }
        let Some((base, bars)) = swings.value.get().flatten() else {
            return view! { <div class="card"><p class="na">"No sensitivity: the job does not evaluate."</p></div> }.into_any();
        };
        let span = bars
            .iter()
            .flat_map(|b| [b.low, b.high])
            .filter(|x| x.is_finite())
            .map(|x| (x - base).abs())
            .fold(1e-12, f64::max);
        // Each input's name sits above its bar, so the bars keep the full width on a phone.
        let row_h = 38.0;
        let rows = bars
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let y = i as f64 * row_h + 4.0;
                let pos = |v: f64| 50.0 + (v - base) / span * 48.0;
                let (l, h) = (pos(b.low), pos(b.high));
                view! {
                    <g class="swing">
                        <text x="0" y=y + 11.0 class="swing-label">{b.input.clone()}</text>
                        <rect x=format!("{:.2}%", l.min(50.0)) y=y + 16.0 width=format!("{:.2}%", (50.0 - l).abs()) height="16" class="low"/>
                        <rect x=format!("{:.2}%", h.min(50.0)) y=y + 16.0 width=format!("{:.2}%", (h - 50.0).abs()) height="16" class="high"/>
                        <title>{format!("{}: −20% → ${}, +20% → ${}", b.input, sig(b.low, 4), sig(b.high, 4))}</title>
                    </g>
                }
            })
            .collect_view();
        // A numeric axis under the bars: the cost at the base and a half and a whole span
        // either side, in $ per million tokens.
        let axis_y = bars.len() as f64 * row_h + 8.0;
        let h = axis_y + 34.0;
        let ticks = [-1.0, -0.5, 0.0, 0.5, 1.0]
            .into_iter()
            .map(|k: f64| {
                let x = 50.0 + k * 48.0;
                let anchor = if k < -0.9 { "start" } else if k > 0.9 { "end" } else { "middle" };
                view! {
                    <line x1=format!("{x:.2}%") x2=format!("{x:.2}%") y1=axis_y y2=axis_y + 5.0 class="axis"/>
                    <text x=format!("{x:.2}%") y=axis_y + 17.0 text-anchor=anchor class="tick">
                        {format!("${}", sig(base + k * span, 3))}
                    </text>
                }
            })
            .collect_view();
        let data = chart_data(
            "tornado",
            "tornado-data",
            &[
                "input",
                "$/Mtok with it 20% lower",
                "$/Mtok with it 20% higher",
            ],
            &bars
                .iter()
                .map(|b| vec![b.input.to_string(), sig(b.low, 4), sig(b.high, 4)])
                .collect::<Vec<_>>(),
        );
        view! {
            <div class="card">
                <h2>"What decides the cost per token"</h2>
                <p class="small-note">{format!("Training $ per million tokens, base ${}; each input moved 20% down (light) and up (dark).", sig(base, 4))}</p>
                <svg class="tornado" id="tornado" data-base=base width="100%" height=h role="img" aria-label="Tornado chart of the training cost per million tokens">
                    <line x1="50%" x2="50%" y1="16" y2=axis_y class="axis"/>
                    {rows}
                    <line x1="2%" x2="98%" y1=axis_y y2=axis_y class="axis"/>
                    {ticks}
                    <text x="50%" y=axis_y + 31.0 text-anchor="middle" class="tick">"training $ per million tokens"</text>
                </svg>
                <div inner_html=data></div>
            </div>
        }
        .into_any()
    };
    view! { <div class="deferred" class:updating=move || swings.updating.get()>{body}</div> }
}

/// The same job on several platforms: cost per token, where the run's money goes, and the
/// price at which each matches the job's own platform; worked out and drawn in the worker
/// (`view::platforms`), a whole evaluation a platform.
#[component]
pub(super) fn Platforms() -> impl IntoView {
    let sc = use_scenario();
    let table = crate::background::derived(
        move || sc.with(engine::Scenario::to_query),
        view::protocol::Request::Platforms,
        |r| match r {
            view::protocol::Reply::Platforms { query, html } => {
                Some((query.as_str(), html.clone()))
            }
            _ => None,
        },
    );
    let body = move || {
        let table = table.value.get().unwrap_or_default();
        view! {
            <section class="platforms">
            <h2>"The same job on other platforms"</h2>
            <p class="small-note">"Each platform runs the job on at least as many chips, at its first published (or assumed) rental rate, or at its own default chip price under your ownership inputs when you own the chips. The bar splits the cost of the run by where the step time goes: "
                <span class="swatch" style="background:#0072b2"></span>"compute "<span class="swatch" style="background:#56b4e9"></span>"pipeline bubble "
                <span class="swatch" style="background:#e69f00"></span>"tensor-parallel "<span class="swatch" style="background:#cc79a7"></span>"expert all-to-all "<span class="swatch" style="background:#d55e00"></span>"data-parallel communication. "
                "Break-even: the $/chip-hour at which that platform matches the job's own cost per token."</p>
            <div inner_html=table></div>
            </section>
        }
    };
    view! { <div class="deferred" class:updating=move || table.updating.get()>{body}</div> }
}

/// Training cost per token as one lever moves, against another platform's cost for the same
/// job, with the break-even point marked.
#[component]
pub(super) fn BreakEven(
    /// The job as set above.
    job: Memo<Job>,
) -> impl IntoView {
    use engine::job::Lever;
    let sc = use_scenario();
    // The curve is worked out in the worker; the cost by format after the cards paint (see
    // `crate::defer`).
    let data = crate::background::derived(
        move || sc.with(engine::Scenario::to_query),
        view::protocol::Request::BreakEven,
        |r| match r {
            view::protocol::Reply::BreakEven {
                query,
                points,
                target,
                at,
                name,
            } => Some((
                query.as_str(),
                (!points.is_empty()).then(|| {
                    (
                        points.clone(),
                        *target,
                        Some(*at).filter(|x| x.is_finite()),
                        name.clone(),
                    )
                }),
            )),
            _ => None,
        },
    );
    let formats = crate::defer::deferred(
        move || job.get(),
        |j| {
            let other = Job {
                owned: false,
                ..j.moved_to(&j.compare_with, j.nodes)
            };
            let name = system::find(&j.compare_with).map(|s| s.name).unwrap_or("?");
            engine::job::by_format(j, &other)
                .ok()
                .map(|rows| (rows, name))
        },
    );
    let levers = Lever::ALL
        .into_iter()
        .map(|l| view! { <option value=l.id() selected=move || sc.with(|s| s.job.lever == l)>{l.label()}</option> })
        .collect_view();
    let refs = PLATFORMS
        .iter()
        .map(|id| {
            let name = system::find(id).map(|s| s.name).unwrap_or("?");
            view! { <option value=*id selected=move || sc.with(|s| s.job.compare_with == *id)>{name}</option> }
        })
        .collect_view();
    let chart = move || {
        let Some((pts, target, be, name)) = data.value.get().flatten() else {
            return view! { <p class="na">"The comparison cannot be evaluated for this job."</p> }
                .into_any();
        };
        let lever = sc.with(|s| s.job.lever);
        let ys: Vec<f64> = pts
            .iter()
            .map(|p| p.1)
            .filter(|y| y.is_finite())
            .chain([target])
            .collect();
        let (ymin, ymax) = (0.0, ys.iter().copied().fold(0.0, f64::max) * 1.1);
        let (x0, x1) = lever.range();
        let (w, h, l, b) = (640.0, 260.0, 56.0, 34.0);
        let px = |x: f64| l + (x - x0) / (x1 - x0) * (w - l - 12.0);
        let py = |y: f64| 10.0 + (1.0 - (y - ymin) / (ymax - ymin).max(1e-12)) * (h - b - 10.0);
        let path: String = pts
            .iter()
            .filter(|p| p.1.is_finite())
            .enumerate()
            .map(|(i, (x, y))| {
                format!(
                    "{}{:.1},{:.1}",
                    if i == 0 { "M" } else { " L" },
                    px(*x),
                    py(*y)
                )
            })
            .collect();
        let fmt_x = move |x: f64| match lever {
            Lever::Price => format!("${}", sig(x, 3)),
            _ => format!("{}%", sig(x * 100.0, 3)),
        };
        let ticks = (0..=4)
            .map(|k| {
                let x = x0 + (x1 - x0) * f64::from(k) / 4.0;
                view! { <text x=px(x) y=h - 12.0 class="tick" text-anchor="middle">{fmt_x(x)}</text> }
            })
            .collect_view();
        let yticks = (0..=3)
            .map(|k| {
                let y = ymin + (ymax - ymin) * f64::from(k) / 3.0;
                view! { <text x=l - 6.0 y=py(y) + 4.0 class="tick" text-anchor="end">{format!("${}", sig(y, 2))}</text> }
            })
            .collect_view();
        let marker = be.map(|x| {
            view! {
                <line x1=px(x) x2=px(x) y1="10" y2=h - b class="be-line"/>
                <circle cx=px(x) cy=py(target) r="5" class="be-dot"/>
            }
        });
        let table = chart_data(
            "breakeven",
            "breakeven-data",
            &[lever.label(), "training $/Mtok", "reference $/Mtok"],
            &pts.iter()
                .map(|(x, y)| vec![sig(*x, 4), sig(*y, 4), sig(target, 4)])
                .collect::<Vec<_>>(),
        );
        let text = match be {
            Some(x) => format!(
                "This job matches {name} at {} = {}.",
                lever.label(),
                fmt_x(x)
            ),
            None => format!("No {} in range makes this job match {name}.", lever.label()),
        };
        view! {
            <svg class="breakeven" id="breakeven" viewBox=format!("0 0 {w} {h}") role="img" aria-label="Break-even chart" aria-describedby="breakeven-text" data-break-even=be.unwrap_or(f64::NAN)>
                <line x1=l x2=w - 12.0 y1=py(target) y2=py(target) class="ref-line"/>
                <text x=w - 14.0 y=py(target) - 6.0 text-anchor="end" class="tick">{format!("{name}: ${}/Mtok", sig(target, 3))}</text>
                <path d=path class="cost-line"/>
                <line x1=l x2=l y1="10" y2=h - b class="axis"/>
                <line x1=l x2=w - 12.0 y1=h - b y2=h - b class="axis"/>
                {ticks}{yticks}{marker}
            </svg>
            <p class="small-note" id="breakeven-text">{text}</p>
            <div inner_html=table></div>
        }
        .into_any()
    };
    view! {
        <div class="card breakeven-card">
            <h2>"Break-even"</h2>
            <div class="controls">
                <label class="inline">"Move "
                    <select name="wlever" on:change=move |ev| {
                        let v = event_target_value(&ev);
                        if let Some(l) = Lever::ALL.iter().find(|l| l.id() == v) { sc.update(|s| s.job.lever = *l); }
                    }>{levers}</select>
                </label>
                <label class="inline">" against "
                    <select name="wref" on:change=move |ev| { let v = event_target_value(&ev); sc.update(|s| s.job.compare_with = v); }>{refs}</select>
                </label>
            </div>
            <div class="deferred" class:updating=move || data.updating.get()>{chart}</div>
            <div class="deferred" class:updating=move || formats.updating.get()>
                {move || formats.value.get().flatten().map(|(rows, name)| view! { <ByFormat rows=rows other=name/> })}
            </div>
        </div>
    }
}

/// $ per marketed dense PFLOP-hour by format on the job's platform and the one compared:
/// where the job's platform stops being the cheaper one.
#[component]
pub(super) fn ByFormat(rows: Vec<engine::job::FormatCost>, other: &'static str) -> impl IntoView {
    // The floating-point tensor formats models train and serve in (16 bits and narrower).
    let rows: Vec<_> = rows
        .into_iter()
        .filter(|r| {
            matches!(
                r.dtype,
                Dtype::Bf16 | Dtype::Fp16 | Dtype::Fp8 | Dtype::Fp6 | Dtype::Fp4
            )
        })
        .collect();
    let max = rows
        .iter()
        .flat_map(|r| [r.usd_a, r.usd_b])
        .flatten()
        .fold(0.0, f64::max)
        .max(1e-12);
    let len = |v: f64| format!("{:.1}", (v / max * 360.0).max(0.5));
    let wins: Vec<&str> = rows
        .iter()
        .filter(|r| r.ratio().is_some_and(|x| x < 1.0))
        .map(|r| r.dtype.label())
        .collect();
    let loses: Vec<&str> = rows
        .iter()
        .filter(|r| r.ratio().is_some_and(|x| x >= 1.0))
        .map(|r| r.dtype.label())
        .collect();
    let text = format!(
        "Cheaper than {other} per marketed PFLOP-hour in {}; dearer in {}. Each platform at its own rate ÷ its dense peak in that format.",
        if wins.is_empty() { "no format".to_string() } else { wins.join(", ") },
        if loses.is_empty() { "no format".to_string() } else { loses.join(", ") }
    );
    let row_h = 30.0;
    let bars = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let (a, b) = (r.usd_a.unwrap_or(0.0), r.usd_b.unwrap_or(0.0));
            let ratio = r.ratio().unwrap_or(f64::NAN);
            let y = i as f64 * row_h + 4.0;
            view! {
                <g data-format=r.dtype.id() data-ratio=ratio>
                    <text x="0" y=y + 15.0 class="fmt-label">{r.dtype.label()}</text>
                    <rect x="60" y=y + 2.0 height="10" width=len(a) class="fmt-a"><title>{format!("this job's platform: ${}/PFLOP-hour", sig(a, 3))}</title></rect>
                    <rect x="60" y=y + 14.0 height="10" width=len(b) class="fmt-b"><title>{format!("{other}: ${}/PFLOP-hour", sig(b, 3))}</title></rect>
                    <text x="430" y=y + 17.0 class="fmt-text">{format!("${} vs ${} · {}×", sig(a, 3), sig(b, 3), sig(ratio, 2))}</text>
                </g>
            }
        })
        .collect_view();
    let h = rows.len() as f64 * row_h + 8.0;
    let data = chart_data(
        "by-format",
        "by-format-data",
        &[
            "format",
            "this job's platform, $/PFLOP-hour",
            &format!("{other}, $/PFLOP-hour"),
            "ratio",
        ],
        &rows
            .iter()
            .map(|r| {
                vec![
                    r.dtype.label().to_string(),
                    r.usd_a.map_or("—".into(), |v| sig(v, 4)),
                    r.usd_b.map_or("—".into(), |v| sig(v, 4)),
                    r.ratio().map_or("—".into(), |v| sig(v, 3)),
                ]
            })
            .collect::<Vec<_>>(),
    );
    view! {
        <h3>"By format: $ per marketed PFLOP-hour"</h3>
        <p class="legend-line"><span class="swatch fmt-a"></span>"this job's platform "<span class="swatch fmt-b"></span>{other}</p>
        <svg class="by-format" id="by-format" viewBox=format!("0 0 640 {h}") role="img" aria-label="Cost per marketed PFLOP-hour by format" aria-describedby="by-format-text">{bars}</svg>
        <p class="small-note" id="by-format-text">{text}</p>
        <div inner_html=data></div>
    }
}

/// The colour of what bounds an operation.
fn bound_color(b: engine::breakdown::Bound) -> &'static str {
    use engine::breakdown::Bound;
    match b {
        Bound::Compute => "#0072b2",
        Bound::Memory => "#e69f00",
        Bound::Communication => "#d55e00",
        Bound::Latency => "#56b4e9",
        Bound::Overhead => "#999999",
    }
}

/// The bar of a step by operation, `total` wide on a scale where `scale` seconds fill it.
fn step_bar(part: &engine::breakdown::Part, scale: f64) -> String {
    use crate::widgets::escape;
    let mut x = 0.0;
    let mut bars = String::new();
    for (i, o) in part.ops.iter().enumerate() {
        let w = o.time_s / scale * 100.0;
        bars += &format!(
            "<rect x=\"{x:.3}%\" y=\"0\" width=\"{w:.3}%\" height=\"28\" fill=\"{}\" stroke=\"#fff\" stroke-width=\"0.5\" data-op=\"{i}\"><title>{}: {} s, {}% of the step ({}-bound)</title></rect>",
            bound_color(o.bound),
            escape(&o.name),
            sig(o.time_s, 3),
            sig(o.time_s / part.total_s * 100.0, 3),
            o.bound.id()
        );
        x += w;
    }
    bars
}

/// The job's training step operation by operation (a bar and a table, each operation one
/// click from the Roofline page), and beside it the same step on the platform compared with.
#[component]
pub(super) fn StepBreakdown(
    /// The step, operation by operation.
    part: engine::breakdown::Part,
    /// The platform compared with (its name and chips) and its step, where it evaluates.
    other: Option<(&'static str, u32, engine::breakdown::Part)>,
) -> impl IntoView {
    use crate::widgets::escape;
    use engine::breakdown::Bound;
    let sc = use_scenario();
    let base = sc.with_untracked(Clone::clone);
    let total = part.total_s;
    let scale = other
        .as_ref()
        .map_or(total, |(_, _, o)| o.total_s.max(total));
    let bars = step_bar(&part, scale);
    let legend: String = [
        Bound::Compute,
        Bound::Memory,
        Bound::Communication,
        Bound::Latency,
        Bound::Overhead,
    ]
    .iter()
    .filter(|b| {
        part.ops
            .iter()
            .chain(other.iter().flat_map(|(_, _, o)| o.ops.iter()))
            .any(|o| o.bound == **b)
    })
    .map(|b| {
        format!(
            "<span class=\"swatch\" style=\"background:{}\"></span>{}-bound ",
            bound_color(*b),
            b.id()
        )
    })
    .collect();
    let mut rows = String::new();
    for o in &part.ops {
        let place = base.placing(o).map_or_else(
            || "—".to_string(),
            |p| {
                format!(
                    "<a class=\"place\" href=\"?{}\" title=\"One call of it on the Roofline page, beside the chip's roofs\">place ↗</a>",
                    escape(&p.to_query())
                )
            },
        );
        rows += &format!(
            "<tr data-bound=\"{}\"><th scope=\"row\"><span class=\"swatch\" style=\"background:{}\"></span>{}</th><td class=\"num\">{}</td><td class=\"num\" data-time-s=\"{}\">{}</td><td class=\"num\">{}%</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td><td class=\"num\">{}%</td><td>{}</td><td>{place}</td></tr>",
            o.bound.id(),
            bound_color(o.bound),
            escape(&o.name),
            if o.count > 0.0 { thousands(o.count) } else { "—".into() },
            o.time_s,
            sig(o.time_s, 3),
            sig(o.time_s / total * 100.0, 3),
            if o.flop > 0.0 { format!("{:.3e}", o.flop) } else { "—".into() },
            if o.bytes > 0.0 { engine::Bytes::new(o.bytes).display_si() } else { "—".into() },
            if o.bytes > 0.0 && o.flop > 0.0 { sig(o.intensity(), 3) } else { "—".into() },
            o.bound.id(),
            sig(o.of_peak * 100.0, 3),
            o.source.id()
        );
    }
    let table = format!(
        "<div class=\"table-wrap\"><table class=\"grid\" id=\"step-breakdown-table\" data-total-s=\"{total}\"><thead><tr><th scope=\"col\">operation</th><th scope=\"col\">per step</th><th scope=\"col\">time, s</th><th scope=\"col\">share</th><th scope=\"col\">FLOP per chip</th><th scope=\"col\">bytes per chip</th><th scope=\"col\">FLOP/B</th><th scope=\"col\">bound</th><th scope=\"col\">of peak</th><th scope=\"col\">source</th><th scope=\"col\">roofline</th></tr></thead><tbody>{rows}</tbody></table></div>{}",
        crate::export::table_buttons("step-breakdown-table")
    );
    let me = system::find(&base.job.system).map_or("this job", |s| s.name);
    let chips = system::find(&base.job.system).map_or(0, |s| s.chips() * base.job.nodes);
    // Beside it: the other platform's bar on the same time scale, and each operation's time on
    // both (an operation one platform lacks counts 0 there).
    let beside = other.map(|(name, other_chips, o)| {
        let bar = step_bar(&o, scale);
        let mut names: Vec<&str> = part.ops.iter().map(|x| x.name.as_str()).collect();
        for x in &o.ops {
            if !names.contains(&x.name.as_str()) {
                names.push(&x.name);
            }
        }
        let time = |p: &engine::breakdown::Part, n: &str| {
            p.ops.iter().filter(|x| x.name == n).map(|x| x.time_s).sum::<f64>()
        };
        let rows: Vec<Vec<String>> = names
            .iter()
            .map(|n| {
                let (a, b) = (time(&part, n), time(&o, n));
                vec![(*n).to_string(), sig(a, 3), sig(b, 3), format!("{:+}", sig(b - a, 3))]
            })
            .chain([vec!["step".into(), sig(total, 4), sig(o.total_s, 4), format!("{:+}", sig(o.total_s - total, 3))]])
            .collect();
        let a_col = format!("{me}, s");
        let b_col = format!("{name}, s");
        let table = chart_data("step-beside", "step-beside-table", &["operation", &a_col, &b_col, "difference, s"], &rows);
        let text = format!(
            "The same job on {other_chips} chips of {name} (the platform compared with, set under Break-even): a step of {} s against {} s here. Both bars share one time scale.",
            sig(o.total_s, 4),
            sig(total, 4)
        );
        view! {
            <p class="small-note bar-label">{format!("{me}, {chips} chips")}</p>
            <svg class="stack" id="step-breakdown-bar" width="100%" height="28" role="img" aria-label="The training step by operation" inner_html=bars.clone()></svg>
            <p class="small-note bar-label">{format!("{name}, {other_chips} chips")}</p>
            <svg class="stack" id="step-beside-bar" width="100%" height="28" role="img" aria-label="The same step on the platform compared with" data-total-s=o.total_s inner_html=bar></svg>
            <p class="small-note" id="step-beside-text">{text}</p>
            <div inner_html=table></div>
        }
    });
    let alone = beside.is_none().then(|| {
        view! { <svg class="stack" id="step-breakdown-bar" width="100%" height="28" role="img" aria-label="The training step by operation" inner_html=bars.clone()></svg> }
    });
    // A row's "place" link opens the Roofline page in place (a new tab with a modifier key).
    let place = move |ev: leptos::ev::MouseEvent| {
        use wasm_bindgen::JsCast;
        if ev.ctrl_key() || ev.meta_key() || ev.shift_key() || ev.button() != 0 {
            return;
        }
        let a = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|e| e.closest("a.place").ok().flatten());
        if let Some(href) = a.and_then(|a| a.get_attribute("href")) {
            ev.prevent_default();
            let (s, _) = engine::Scenario::from_query(href.trim_start_matches('?'));
            sc.set(s);
        }
    };
    view! {
        <div class="card" id="step-breakdown">
            <h2>"Where the training step goes"</h2>
            <p class="small-note">{format!("One step of {} s on each chip, operation by operation; the rows add up to it. Of peak: the operation's FLOP/s against the chip's dense peak in its format. Source: where its efficiency comes from (measured on this chip, fitted to published runs, or the roofline and collective model).", sig(total, 4))}</p>
            {alone}
            {beside}
            <p class="small-note" inner_html=legend></p>
            <div inner_html=table on:click=place></div>
        </div>
    }
}
