//! The NeuronCore section's work: simulate an experiment, or tune one, and render what it
//! found as HTML; the timeline's spans go back as numbers for the page to draw.

use crate::render::esc;
use engine::neuroncore::spec::{Experiment, Kernel};
use engine::neuroncore::{tune, Core, Func, Op, Run, Schedule, Stall};
use engine::units::sig;
use std::fmt::Write as _;

/// Numbers per instruction in the timeline array.
pub const STRIDE: usize = 12;

/// The timeline: per instruction `lane, start, end, kind, p1..p4, at0..at2, what`, seconds;
/// and the table of `what` labels.
pub fn spans(s: &Schedule, r: &Run) -> (Vec<f64>, Vec<&'static str>) {
    let mut whats: Vec<&'static str> = Vec::new();
    let mut v = Vec::with_capacity(s.instrs.len() * STRIDE);
    for (i, ins) in s.instrs.iter().enumerate() {
        let w = whats
            .iter()
            .position(|x| *x == ins.what)
            .unwrap_or_else(|| {
                whats.push(ins.what);
                whats.len() - 1
            });
        let (kind, p) = match ins.op {
            Op::Load { rows, row_bytes } => (0.0, [rows, row_bytes, 0, 0]),
            Op::Store { rows, row_bytes } => (1.0, [rows, row_bytes, 0, 0]),
            Op::Matmul { k, cols, n, fp32 } => (2.0, [k, cols, n, u32::from(fp32)]),
            Op::Transpose { rows, cols } => (3.0, [rows, cols, 0, 0]),
            Op::Elementwise {
                func,
                partitions,
                free,
                inputs,
            } => (
                4.0,
                [
                    Func::ALL.iter().position(|f| *f == func).unwrap_or(0) as u32,
                    partitions,
                    free,
                    inputs,
                ],
            ),
        };
        let (a, b) = r.spans[i];
        v.extend_from_slice(&[ins.unit.lane() as f64, a, b, kind]);
        v.extend(p.iter().map(|x| f64::from(*x)));
        v.extend(ins.at.iter().map(|x| f64::from(*x)));
        v.push(w as f64);
    }
    (v, whats)
}

fn bar(frac: f64, class: &str) -> String {
    format!(
        r#"<span class="ncbar"><span class="{class}" style="width:{:.1}%"></span></span>"#,
        (frac * 100.0).clamp(0.0, 100.0)
    )
}

fn roofline_svg(core: &Core, r: &Run, dtype: engine::Dtype) -> String {
    let peak = core.array_peak(dtype);
    let bw = core.dma_ceiling();
    let (x0, x1) = (1.0f64, 1e4f64);
    let (y0, y1) = (peak / 1e3, peak * 2.0);
    let (w, h, l, b) = (300.0, 180.0, 44.0, 26.0);
    let px =
        |x: f64| l + (x.max(x0).log10() - x0.log10()) / (x1.log10() - x0.log10()) * (w - l - 8.0);
    let py = |y: f64| {
        h - b - (y.max(y0).log10() - y0.log10()) / (y1.log10() - y0.log10()) * (h - b - 8.0)
    };
    let ridge = peak / bw;
    let mut s = format!(
        r#"<svg viewBox="0 0 {w} {h}" role="img" aria-label="The core's roofline and the schedule's point"><rect x="{l}" y="8" width="{}" height="{}" class="ncframe"/>"#,
        w - l - 8.0,
        h - b - 8.0
    );
    let _ = write!(
        s,
        r#"<polyline class="ncroof" points="{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}"/>"#,
        px(x0),
        py(x0 * bw),
        px(ridge),
        py(peak),
        px(x1),
        py(peak)
    );
    for (x, label) in [
        (1.0, "1"),
        (10.0, "10"),
        (100.0, "100"),
        (1000.0, "1k"),
        (1e4, "10k"),
    ] {
        let _ = write!(
            s,
            r#"<text x="{:.1}" y="{}" text-anchor="middle">{label}</text>"#,
            px(x),
            h - b + 12.0
        );
    }
    let _ = write!(
        s,
        r#"<text x="{:.1}" y="{}" text-anchor="middle">FLOP per HBM byte</text><text x="{}" y="{:.1}" text-anchor="end">{}</text><text x="{}" y="{:.1}" text-anchor="end">{}</text><text transform="translate(9 {:.1}) rotate(-90)" text-anchor="middle">TFLOP/s</text>"#,
        l + (w - l) / 2.0,
        h - 2.0,
        l - 3.0,
        py(peak) + 3.0,
        sig(peak / 1e12, 3),
        l - 3.0,
        py(peak / 100.0) + 3.0,
        sig(peak / 1e14, 3),
        (h - b) / 2.0 + 4.0
    );
    let ai = r.intensity();
    let _ = write!(
        s,
        r#"<circle class="ncpt" cx="{:.1}" cy="{:.1}" r="4"><title>this schedule: {} FLOP/B, {} TFLOP/s</title></circle></svg>"#,
        px(ai),
        py(r.flops_per_s()),
        sig(ai, 3),
        sig(r.flops_per_s() / 1e12, 3)
    );
    s
}

/// The result panel of one simulated experiment.
pub fn result_html(e: &Experiment, s: &Schedule, r: &Run, build_ms: f64, sim_ms: f64) -> String {
    let core = &s.core;
    let d = s.dtype;
    let peak = core.array_peak(d);
    let got = r.flops_per_s();
    let mut h = String::new();
    let cat = core
        .catalog_peak(d)
        .map(|c| {
            format!(
                ", {:.1}% of the catalog's per-core {} TFLOP/s",
                100.0 * got / c,
                sig(c / 1e12, 3)
            )
        })
        .unwrap_or_default();
    let _ = write!(
        h,
        r#"<p class="nchead" data-us="{:.3}" data-util="{:.4}"><strong>{} µs</strong> on {}: {} TFLOP/s, <strong>{:.1}%</strong> of the array's {} TFLOP/s{cat}. {} instructions simulated in {} ms (schedule built in {} ms).</p>"#,
        r.seconds * 1e6,
        got / peak,
        sig(r.seconds * 1e6, 4),
        esc(&core.name()),
        sig(got / 1e12, 4),
        100.0 * got / peak,
        sig(peak / 1e12, 3),
        s.instrs.len(),
        sig(sim_ms, 3),
        sig(build_ms, 3)
    );
    let rows = core.rows(d).unwrap_or(core.array);
    let lower = tune::lower_bound(s);
    let _ = write!(
        h,
        r#"<p class="ncformula">time ≥ max(each engine's own work, HBM bytes ÷ DMA ceiling) = max(Tensor {} µs, {} MB ÷ {} GB/s = {} µs) = {} µs; the simulation adds what waiting costs. Rows of the array doing useful multiply-adds while it is busy: {:.1}% ({} per matmul; a K below that, or a transpose, leaves rows idle). HBM: {} MB at {} GB/s, {} FLOP/B.</p>"#,
        sig(r.units[0].busy * 1e6, 4),
        sig(r.hbm_bytes / 1e6, 4),
        sig(core.dma_ceiling() / 1e9, 4),
        sig(r.hbm_bytes / core.dma_ceiling() * 1e6, 4),
        sig(lower * 1e6, 4),
        100.0 * r.array_use(core, rows),
        rows,
        sig(r.hbm_bytes / 1e6, 4),
        sig(r.dma_bw() / 1e9, 4),
        sig(r.intensity(), 4)
    );
    h.push_str(r#"<div class="kcols"><table class="ncunits"><caption>Engines and DMA queues</caption><thead><tr><th>lane</th><th>busy</th><th></th><th>instr.</th>"#);
    for st in Stall::ALL {
        let _ = write!(h, "<th>{} (µs)</th>", st.label());
    }
    h.push_str("</tr></thead><tbody>");
    for (i, u) in r.units.iter().enumerate() {
        let _ = write!(
            h,
            "<tr><td>{}</td><td>{:.1}%</td><td>{}</td><td>{}</td>",
            u.unit.name(),
            100.0 * r.busy(i),
            bar(r.busy(i), if i < 4 { "eng" } else { "dma" }),
            u.count
        );
        for x in u.stalls {
            let _ = write!(
                h,
                "<td>{}</td>",
                if x > 0.0 {
                    sig(x * 1e6, 3)
                } else {
                    "·".into()
                }
            );
        }
        h.push_str("</tr>");
    }
    h.push_str("</tbody></table>");
    h.push_str(r#"<table class="ncmem"><caption>Buffers (bytes per partition)</caption><thead><tr><th></th><th>high water</th><th>reserved</th><th>capacity</th><th></th></tr></thead><tbody>"#);
    for (m, name) in [(0, "SBUF"), (1, "PSUM")] {
        let cap = f64::from(r.capacity[m]);
        let _ = write!(
            h,
            r#"<tr><td>{name}</td><td>{} KiB</td><td>{} KiB</td><td>{} KiB</td><td><span class="ncbar"><span class="res" style="width:{:.1}%"></span><span class="peak" style="width:{:.1}%"></span></span></td></tr>"#,
            sig(f64::from(r.peak[m]) / 1024.0, 3),
            sig(f64::from(r.reserved[m]) / 1024.0, 3),
            sig(cap / 1024.0, 3),
            100.0 * f64::from(r.reserved[m]) / cap,
            100.0 * f64::from(r.peak[m]) / cap
        );
    }
    for p in &s.pools {
        let _ = write!(
            h,
            r#"<tr class="ncpool"><td colspan="5">{}: {} × {} KiB in {}</td></tr>"#,
            esc(p.name),
            p.bufs,
            sig(f64::from(p.bytes) / 1024.0, 3),
            match p.mem {
                engine::neuroncore::Mem::Sbuf => "SBUF",
                engine::neuroncore::Mem::Psum => "PSUM",
            }
        );
    }
    h.push_str("</tbody></table>");
    let _ = write!(
        h,
        r#"<figure class="ncroofline">{}<figcaption>The core's roofline in {} (array peak, DMA ceiling {} GB/s) and this schedule.</figcaption></figure></div>"#,
        roofline_svg(core, r, d),
        d.id(),
        sig(core.dma_ceiling() / 1e9, 3)
    );
    if let Kernel::Matmul(m) = &e.kernel {
        let _ = write!(
            h,
            r#"<p class="ncformula">Matmul {}×{}×{}: blocks {}×{}×{} in SBUF, {} buffering, {} stationary in 128-column tiles against 512-column moving tiles; partial sums in two PSUM banks, evacuated by the vector and scalar engines.</p>"#,
            m.m,
            m.n,
            m.k,
            m.tile_m,
            m.tile_n,
            m.tile_k,
            ["single", "double", "triple"][(m.bufs.clamp(1, 3) - 1) as usize],
            match m.stationary {
                engine::neuroncore::matmul::Side::A => "A",
                engine::neuroncore::matmul::Side::B => "B",
            }
        );
    }
    h.push_str(r#"<details class="ncparams"><summary>The core's parameters and their sources</summary><table><thead><tr><th>parameter</th><th>value</th><th>source</th><th>why</th></tr></thead><tbody>"#);
    for p in core.params() {
        let _ = write!(
            h,
            "<tr><td>{}</td><td>{}</td><td>{}{}</td><td>{}</td></tr>",
            esc(p.name),
            esc(&p.value),
            esc(p.source),
            if p.estimate {
                r#" <span class="est">estimate</span>"#
            } else {
                ""
            },
            esc(p.why)
        );
    }
    h.push_str("</tbody></table></details>");
    h
}

/// The autotune table: the best candidates, each a button that opens it.
pub fn tune_html(e: &Experiment, found: &tune::Search) -> String {
    let mut h = format!(
        r#"<table class="nctune"><caption>Autotune: {} block/buffer/stationary choices fit, {} overflow SBUF or PSUM; {} simulated (in order of their lower bound, until none left could gain more than {}%)</caption><thead><tr><th>blocks M×N×K</th><th>buffers</th><th>stationary</th><th>µs</th><th>of peak</th><th>FLOP/B</th><th></th></tr></thead><tbody>"#,
        found.fitting,
        found.overflowing,
        found.simulated,
        tune::TOLERANCE * 100.0
    );
    for t in &found.best {
        let x = Experiment {
            kernel: Kernel::Matmul(t.spec.clone()),
            ..e.clone()
        };
        let core = x.core().ok();
        let peak = core.map_or(1.0, |c| c.array_peak(t.spec.dtype));
        let _ = write!(
            h,
            r#"<tr><td>{}×{}×{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.1}%</td><td>{}</td><td><button type="button" class="small" data-act="ncpick" data-v="{}">Open</button></td></tr>"#,
            t.spec.tile_m,
            t.spec.tile_n,
            t.spec.tile_k,
            t.spec.bufs,
            match t.spec.stationary {
                engine::neuroncore::matmul::Side::A => "A",
                engine::neuroncore::matmul::Side::B => "B",
            },
            sig(t.run.seconds * 1e6, 4),
            100.0 * t.run.flops_per_s() / peak,
            sig(t.run.intensity(), 4),
            esc(&x.to_text())
        );
    }
    h.push_str("</tbody></table>");
    h
}
