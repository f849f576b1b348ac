//! Result panels as escaped HTML, built here so the page's own code stays small.

use engine::kernels::stats::{ErrorStats, HIST_BINS};
use engine::kernels::{KernelRun, KernelSpec};
use engine::units::sig;
use std::fmt::Write as _;

/// Milliseconds of each phase of a run.
pub struct Timing {
    pub prepare_ms: f64,
    pub kernel_ms: f64,
    pub reps: u32,
    pub finish_ms: f64,
}

pub(crate) use view::escape as esc;

/// Download buttons the page's export handler serves: CSV of a table, SVG and PNG of a chart.
fn buttons(csv: &str, chart: Option<&str>) -> String {
    let mut s = String::from(r#"<div class="export">"#);
    if let Some(c) = chart {
        let _ = write!(
            s,
            r#"<button type="button" class="small" data-svg="{c}">SVG</button><button type="button" class="small" data-png="{c}">PNG</button>"#
        );
    }
    let _ = write!(
        s,
        r#"<button type="button" class="small" data-csv="{csv}">CSV</button></div>"#
    );
    s
}

fn sci(x: f64) -> String {
    if x == 0.0 {
        "0".into()
    } else if x.is_finite() {
        format!("{x:.3e}")
    } else {
        "—".into()
    }
}

fn db(x: f64) -> String {
    if x.is_infinite() && x > 0.0 {
        "exact".into()
    } else if x.is_finite() {
        format!("{x:.2} dB")
    } else {
        "—".into()
    }
}

/// The result panel of one run.
pub fn result(spec: &KernelSpec, r: &KernelRun, t: &Timing) -> String {
    let e = &r.error;
    let mut h = String::new();
    let _ = write!(
        h,
        r#"<div class="kresult" data-snr="{}"><p class="formula"><b>Computed:</b> {}</p>"#,
        e.snr_db,
        esc(&r.formula)
    );
    h.push_str(r#"<div class="kcols"><div><table class="grid kerr" id="kernel-error"><caption>Error against f64</caption><tbody>"#);
    let rows = [
        ("SNR", db(e.snr_db), "10 log10(Σ y_ref² / Σ (y − y_ref)²)"),
        ("max |error|", sci(e.max_abs), "largest |y − y_ref|"),
        ("mean |error|", sci(e.mean_abs), "mean |y − y_ref|"),
        (
            "max relative",
            sci(e.max_rel),
            "largest |y − y_ref| / |y_ref|, over |y_ref| ≥ 1% of rms(y_ref)",
        ),
        ("mean relative", sci(e.mean_rel), "mean of the same"),
        (
            "rms(y_ref)",
            sci(e.rms_ref),
            "the scale errors are read against",
        ),
        (
            "exact",
            format!("{} of {}", e.exact, e.count),
            "outputs equal to the reference",
        ),
        (
            "not finite",
            e.non_finite.to_string(),
            "NaN or infinite outputs",
        ),
    ];
    for (name, v, how) in rows {
        let _ = write!(
            h,
            r#"<tr><th scope="row" title="{}">{name}</th><td>{v}</td></tr>"#,
            esc(how)
        );
    }
    h.push_str("</tbody></table>");
    h.push_str(&buttons("kernel-error", None));
    h.push_str(r#"</div><div><table class="grid kround" id="kernel-rounding"><caption>What rounding did</caption><thead><tr><th>tensor</th><th>clipped</th><th>flushed to 0</th><th>NaN</th></tr></thead><tbody>"#);
    for (name, q) in &r.quant {
        let _ = write!(
            h,
            "<tr><td>{name}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            q.clipped, q.flushed, q.nan
        );
    }
    h.push_str("</tbody></table>");
    h.push_str(&buttons("kernel-rounding", None));
    h.push_str("</div></div>");
    h.push_str(&histogram(e));
    let gflops = r.flops / (t.kernel_ms.max(1e-3) * 1e-3) / 1e9;
    let _ = write!(
        h,
        r#"<p class="kspeed"><b>Speed here:</b> kernel {} ms (best of {}), <span class="kgflops">{}</span> GFLOP/s (this browser, one thread, wasm SIMD{}). Drawing and rounding the inputs and the f64 reference took {} ms; measuring the error {} ms. Time a native build with <code>accelscope kernel {} …</code>.</p></div>"#,
        sig(t.kernel_ms, 3),
        t.reps,
        sig(gflops, 3),
        if spec.acc == engine::kernels::Accumulator::Fp32 {
            ""
        } else {
            "; the narrow accumulator rounds every add in scalar code"
        },
        sig(t.prepare_ms, 3),
        sig(t.finish_ms, 3),
        spec.kernel.id()
    );
    h
}

/// The error histogram as an inline SVG: bins of log10(|error| / rms(y_ref)).
fn histogram(e: &ErrorStats) -> String {
    let max = e.histogram.iter().copied().max().unwrap_or(0).max(1);
    let (w, hgt, left, bottom) = (440.0, 150.0, 34.0, 26.0);
    let bw = (w - left - 6.0) / HIST_BINS as f64;
    let mut s = format!(
        r#"<figure class="khist"><svg id="kernel-histogram" viewBox="0 0 {w} {hgt}" role="img" aria-label="Histogram of the error, in decades of the reference's rms; its data table follows">"#
    );
    for (i, &c) in e.histogram.iter().enumerate() {
        let bh = (hgt - bottom - 8.0) * f64::from(c) / f64::from(max);
        let x = left + i as f64 * bw;
        let lo = ErrorStats::bin_edge(i);
        let _ = write!(
            s,
            r#"<rect x="{x:.1}" y="{:.1}" width="{:.1}" height="{bh:.1}"><title>{c} outputs with |error|/rms from 1e{lo:.1} to 1e{:.1}</title></rect>"#,
            hgt - bottom - bh,
            bw - 1.0,
            ErrorStats::bin_edge(i + 1)
        );
    }
    for i in (0..=HIST_BINS).step_by(4) {
        let x = left + i as f64 * bw;
        let _ = write!(
            s,
            r#"<text x="{x:.1}" y="{:.1}" text-anchor="middle">1e{:.0}</text>"#,
            hgt - bottom + 14.0,
            ErrorStats::bin_edge(i)
        );
    }
    let _ = write!(
        s,
        r#"<text x="{left}" y="10">count (max {max})</text><line x1="{left}" y1="{y:.1}" x2="{x2:.1}" y2="{y:.1}"/></svg><figcaption>|error| ÷ rms(y_ref), in decades; {} exact outputs not drawn.</figcaption></figure>"#,
        e.exact,
        y = hgt - bottom,
        x2 = w - 6.0
    );
    s.push_str(r#"<details class="chart-data"><summary>The histogram's data</summary><table class="grid" id="kernel-histogram-data"><thead><tr><th scope="col">log10(|error| ÷ rms) from</th><th scope="col">to</th><th scope="col">outputs</th></tr></thead><tbody>"#);
    for (i, &c) in e.histogram.iter().enumerate() {
        let _ = write!(
            s,
            "<tr><td>{:.1}</td><td>{:.1}</td><td>{c}</td></tr>",
            ErrorStats::bin_edge(i),
            ErrorStats::bin_edge(i + 1)
        );
    }
    s.push_str("</tbody></table></details>");
    s.push_str(&buttons("kernel-histogram-data", Some("kernel-histogram")));
    s
}

/// The sweep's table: one row per format, block size or accumulator.
pub fn sweep(base: &KernelSpec, rows: &[(String, ErrorStats)]) -> String {
    let best = rows
        .iter()
        .map(|(_, e)| e.snr_db)
        .filter(|x| x.is_finite())
        .fold(f64::MIN, f64::max);
    let mut h = format!(
        r#"<table class="grid ksweep" id="kernel-sweep"><caption>{} {}×{}×{}: every format on the same inputs ({}, seed {})</caption><thead><tr><th>inputs and weights</th><th>SNR</th><th>mean relative</th><th>max |error|</th><th></th></tr></thead><tbody>"#,
        base.kernel.label(),
        base.m,
        base.n,
        base.k,
        esc(base.dist.label()),
        base.seed
    );
    for (label, e) in rows {
        let bar = if e.snr_db.is_finite() && best > 0.0 {
            (e.snr_db.max(0.0) / best * 100.0).min(100.0)
        } else {
            100.0
        };
        let _ = write!(
            h,
            r#"<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class="kbar"><span style="width:{bar:.0}%"></span></td></tr>"#,
            esc(label),
            db(e.snr_db),
            sci(e.mean_rel),
            sci(e.max_abs)
        );
    }
    h.push_str("</tbody></table>");
    h.push_str(&buttons("kernel-sweep", None));
    h
}
