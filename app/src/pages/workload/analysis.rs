//! What the job's figures answer to: the tornado, the platforms side by side and the
//! break-even (each worked out in the worker).

use super::*;
use view::platforms::PLATFORMS;

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
    let table = crate::background::drawn(view::protocol::View::Platforms);
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
pub(super) fn BreakEven() -> impl IntoView {
    use engine::job::Lever;
    let sc = use_scenario();
    // The curve and the cost by format are worked out in the worker.
    let data = crate::background::derived(view::protocol::Request::BreakEven, |r| match r {
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
    });
    let formats = crate::background::drawn(view::protocol::View::Formats);
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
                <div inner_html=move || formats.value.get().unwrap_or_default()></div>
            </div>
        </div>
    }
}
