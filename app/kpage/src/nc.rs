//! The Kernels page's NeuronCore section: its form, and the timeline of a simulated schedule
//! (one lane per engine and DMA queue, zoomed with the wheel or the buttons, panned by
//! dragging, each instruction described on hover). The simulation runs in the worker; the
//! page draws what comes back.

use engine::neuroncore::matmul::Side;
use engine::neuroncore::spec::{Experiment, Kernel};
use engine::neuroncore::{Core, Func, Instr, Op, Unit};
use engine::units::sig;
use std::fmt::Write as _;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, Element, HtmlCanvasElement};

use crate::form::{esc, select};

/// Numbers per instruction in the worker's timeline array.
const STRIDE: usize = 12;
const LANE_H: f64 = 22.0;
const TOP: f64 = 4.0;
const AXIS: f64 = 22.0;
const LEFT: f64 = 70.0;

pub const STYLE: &str = r#"
.ncsec { margin-top: 2rem; }
.nctl { position: relative; background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 0.4rem; margin: 0.6rem 0; }
.nctl canvas { width: 100%; display: block; cursor: crosshair; touch-action: pan-y; }
.nctip { position: absolute; pointer-events: none; background: #1d2733; color: #fff; font-size: 0.8rem; padding: 0.3rem 0.5rem; border-radius: 5px; max-width: 28rem; display: none; z-index: 3; }
.nctools { display: flex; flex-wrap: wrap; gap: 0.4rem; align-items: center; font-size: 0.85rem; color: var(--muted); }
.nclegend i { display: inline-block; width: 0.8em; height: 0.8em; border-radius: 2px; margin: 0 0.25em 0 0.6em; vertical-align: -0.05em; }
.nchead { font-size: 1.02rem; }
.ncformula { color: var(--muted); font-size: 0.9rem; max-width: 95ch; }
.ncunits, .ncmem, .nctune, .ncparams table { border-collapse: collapse; font-size: 0.86rem; }
.ncunits th, .ncunits td, .ncmem th, .ncmem td, .nctune th, .nctune td, .ncparams th, .ncparams td { border-bottom: 1px solid var(--line); padding: 0.2rem 0.5rem; text-align: left; }
.ncunits td, .nctune td { font-variant-numeric: tabular-nums; }
.ncbar { display: inline-block; position: relative; width: 7rem; height: 0.7em; background: #e8edf2; border-radius: 2px; vertical-align: middle; }
.ncbar span { position: absolute; left: 0; top: 0; bottom: 0; border-radius: 2px; }
.ncbar .eng { background: #d9730d; } .ncbar .dma { background: #0b6bcb; }
.ncbar .res { background: #9ec5ec; } .ncbar .peak { background: #0b6bcb; height: 50%; top: 25%; }
#neuroncore table { display: block; overflow-x: auto; max-width: 100%; }
.ncpool td { color: var(--muted); font-size: 0.8rem; }
.ncroofline { margin: 0; max-width: 22rem; }
.ncroofline svg { width: 100%; height: auto; }
.ncroofline text { font-size: 9px; fill: #5b6776; }
.ncframe { fill: none; stroke: #c5ced8; }
.ncroof { fill: none; stroke: #1d2733; stroke-width: 1.5; }
.ncpt { fill: #d9730d; }
.ncroofline figcaption { color: var(--muted); font-size: 0.8rem; }
.est { background: #fff3cd; color: #7a5a00; border-radius: 4px; padding: 0 0.3em; font-size: 0.78rem; }
.ncstatus .err { color: var(--err); }
@media (max-width: 640px) { .ncunits th:nth-child(n+5), .ncunits td:nth-child(n+5), .ncmem th:nth-child(5), .ncmem td:nth-child(5) { display: none; } }
"#;

fn number(label: &str, name: &str, v: impl std::fmt::Display, min: u32, max: u32) -> String {
    format!(
        r#"<label>{label} <input type="number" name="{name}" min="{min}" max="{max}" value="{v}"></label>"#
    )
}

/// The section, its form filled from `e`; `note` explains a link's experiment that could not
/// be read.
pub fn section_html(e: &Experiment, note: &str) -> String {
    let mut h = format!("<style>{STYLE}</style>");
    h.push_str(r#"<section class="page ncsec" id="neuroncore"><h2>A NeuronCore, cycle by cycle</h2><p class="lead">One Trainium core running a tiled schedule, simulated event by event: the 128×128 tensor engine, the vector, scalar and GpSimd engines beside it, SBUF and PSUM, and DMA queues from HBM. Change a block size and watch the engines wait for DMA, for each other, or for a free buffer. Parameters come from the catalog and AWS's NKI guides; those AWS does not publish are marked as estimates below the results.</p>"#);
    h.push_str(&form_html(e));
    let _ = write!(
        h,
        r#"<div class="kactions"><button type="button" data-act="ncrun">Simulate</button><button type="button" data-act="nctune"{}>Autotune the blocks</button><button type="button" data-act="nccancel" disabled>Cancel</button><span class="ncstatus" role="status">{}</span></div>"#,
        if matches!(e.kernel, Kernel::Matmul(_)) {
            ""
        } else {
            " disabled"
        },
        esc(note)
    );
    h.push_str(r#"<div class="nctl"><div class="nctools"><button type="button" class="small" data-act="nczin">Zoom in</button><button type="button" class="small" data-act="nczout">Zoom out</button><button type="button" class="small" data-act="nczreset">Whole run</button><span class="ncview"></span><span class="nclegend"><i style="background:#0b6bcb"></i>load<i style="background:#14a38b"></i>store<i style="background:#d9730d"></i>matmul<i style="background:#b5651d"></i>transpose<i style="background:#7b5cd6"></i>vector/scalar/GpSimd</span></div><canvas id="nccanvas" height="200" aria-label="Timeline: one lane per engine and DMA queue"></canvas><div class="nctip" id="nctip"></div></div><div id="ncresult" class="ncresult"></div><div id="nctuned"></div></section>"#);
    h
}

/// The section's form, filled from `e`.
pub fn form_html(e: &Experiment) -> String {
    let chips = [
        ("trn1", "Trn1 (NeuronCore-v2)"),
        ("trn2", "Trn2 (NeuronCore-v3)"),
        ("trn3", "Trn3 (NeuronCore-v4)"),
    ];
    let (kind, dtype) = match &e.kernel {
        Kernel::Matmul(m) => ("mm", m.dtype),
        Kernel::Attention(a) => ("attn", a.dtype),
    };
    let mm = match &e.kernel {
        Kernel::Matmul(m) => m.clone(),
        Kernel::Attention(_) => {
            engine::neuroncore::matmul::MatmulSpec::new(4096, 4096, 4096, dtype)
        }
    };
    let at = match &e.kernel {
        Kernel::Attention(a) => a.clone(),
        Kernel::Matmul(_) => engine::neuroncore::attention::AttentionSpec::new(512, 4096, dtype),
    };
    let (hm, ha) = if kind == "mm" {
        ("", " hide")
    } else {
        (" hide", "")
    };
    let mut h = String::from(r#"<form class="ncform">"#);
    let _ = write!(
        h,
        r#"<fieldset><legend>Core and kernel</legend><label>chip {}</label><label>kernel {}</label><label>format {}</label><label>HBM × <input type="number" name="nchbm" min="0.01" max="100" step="0.05" value="{}"></label></fieldset>"#,
        select("ncchip", &chips, &e.chip),
        select(
            "nckind",
            &[("mm", "tiled matmul"), ("attn", "fused attention tile")],
            kind
        ),
        select(
            "ncdtype",
            &[
                ("bf16", "BF16"),
                ("fp8", "FP8 / MXFP8"),
                ("fp4", "MXFP4 (Trn3)"),
                ("fp32", "FP32")
            ],
            dtype.id()
        ),
        e.hbm_scale
    );
    let bufs = [("1", "single"), ("2", "double"), ("3", "triple")];
    let _ = write!(
        h,
        r#"<fieldset class="ncmm{hm}"><legend>C = A·B: shape</legend>{}{}{}<label>stationary {}</label></fieldset><fieldset class="ncmm{hm}"><legend>Blocks in SBUF</legend>{}{}{}<label>buffering {}</label></fieldset>"#,
        number("M", "ncm", mm.m, 1, 65536),
        number("N", "ncn", mm.n, 1, 65536),
        number("K", "nck", mm.k, 1, 65536),
        select(
            "ncstat",
            &[("A", "A (M on partitions)"), ("B", "B (N on partitions)")],
            if mm.stationary == Side::A { "A" } else { "B" }
        ),
        number("block M", "nctm", mm.tile_m, 1, 65536),
        number("block N", "nctn", mm.tile_n, 1, 65536),
        number("block K", "nctk", mm.tile_k, 1, 65536),
        select("ncbufs", &bufs, &mm.bufs.to_string())
    );
    let _ = write!(
        h,
        r#"<fieldset class="ncattn{ha}"><legend>Attention (one head)</legend>{}{}{}{}<label>buffering {}</label></fieldset></form>"#,
        number("queries", "ncq", at.seq_q, 1, 65536),
        number("keys", "nckv", at.seq_kv, 1, 262_144),
        number("head dim", "ncd", at.head_dim, 1, 128),
        number("key block", "nckt", at.kv_tile, 128, 512),
        select("ncabufs", &bufs, &at.bufs.to_string())
    );
    h
}

fn field(root: &Element, name: &str) -> String {
    root.query_selector(&format!("[name={name}]"))
        .ok()
        .flatten()
        .and_then(|e| {
            e.dyn_ref::<web_sys::HtmlInputElement>()
                .map(web_sys::HtmlInputElement::value)
                .or_else(|| {
                    e.dyn_ref::<web_sys::HtmlSelectElement>()
                        .map(web_sys::HtmlSelectElement::value)
                })
        })
        .unwrap_or_default()
        .trim()
        .to_string()
}

/// The experiment the form describes, or why it cannot be read.
pub fn read(root: &Element) -> Result<Experiment, String> {
    let f = |n: &str| field(root, n);
    let kind = f("nckind");
    let text = if kind == "attn" {
        format!(
            "{}_attn_{}x{}x{}_{}_kt{}_b{}",
            f("ncchip"),
            f("ncq"),
            f("nckv"),
            f("ncd"),
            f("ncdtype"),
            f("nckt"),
            f("ncabufs")
        )
    } else {
        format!(
            "{}_mm_{}x{}x{}_{}_t{}x{}x{}_b{}_s{}",
            f("ncchip"),
            f("ncm"),
            f("ncn"),
            f("nck"),
            f("ncdtype"),
            f("nctm"),
            f("nctn"),
            f("nctk"),
            f("ncbufs"),
            f("ncstat")
        )
    };
    let h = f("nchbm");
    let text = if h.is_empty() || h == "1" {
        text
    } else {
        format!("{text}_h{h}")
    };
    Experiment::parse(&text).map_err(|e| e.to_string())
}

/// Shows the kernel's own fields; autotune searches a matmul's blocks only.
pub fn relabel(root: &Element, kind: &str) {
    if let Ok(Some(b)) = root.query_selector("button[data-act=nctune]") {
        let _ = if kind == "mm" {
            b.remove_attribute("disabled")
        } else {
            b.set_attribute("disabled", "")
        };
    }
    for (sel, on) in [(".ncmm", kind == "mm"), (".ncattn", kind == "attn")] {
        let sel: &str = sel;
        if let Ok(list) = root.query_selector_all(sel) {
            for i in 0..list.length() {
                if let Some(e) = list.item(i).and_then(|n| n.dyn_into::<Element>().ok()) {
                    let base = &sel[1..];
                    let class = if on {
                        base.to_string()
                    } else {
                        format!("{base} hide")
                    };
                    let _ = e.set_attribute("class", &class);
                }
            }
        }
    }
}

/// A simulated schedule's timeline and the window shown.
pub struct Timeline {
    data: Vec<f64>,
    whats: Vec<String>,
    core: Core,
    lanes: usize,
    /// Instruction indices of each lane, in start order.
    by_lane: Vec<Vec<u32>>,
    total: f64,
    pub view: (f64, f64),
}

impl Timeline {
    pub fn new(data: Vec<f64>, whats: Vec<String>, core: Core) -> Timeline {
        let n = data.len() / STRIDE;
        let mut lanes = 4;
        let mut by_lane: Vec<Vec<u32>> = vec![Vec::new(); 4];
        let mut total = 0.0f64;
        for i in 0..n {
            let l = data[i * STRIDE] as usize;
            if l >= by_lane.len() {
                by_lane.resize(l + 1, Vec::new());
            }
            lanes = lanes.max(l + 1);
            by_lane[l].push(i as u32);
            total = total.max(data[i * STRIDE + 2]);
        }
        for v in &mut by_lane {
            v.sort_by(|&a, &b| {
                data[a as usize * STRIDE + 1].total_cmp(&data[b as usize * STRIDE + 1])
            });
        }
        Timeline {
            data,
            whats,
            core,
            lanes,
            by_lane,
            total: total.max(1e-12),
            view: (0.0, total.max(1e-12)),
        }
    }

    fn row(&self, i: usize) -> &[f64] {
        &self.data[i * STRIDE..(i + 1) * STRIDE]
    }

    fn instr(&self, i: usize) -> Instr {
        let r = self.row(i);
        let u = |x: f64| x as u32;
        let op = match r[3] as u32 {
            0 => Op::Load {
                rows: u(r[4]),
                row_bytes: u(r[5]),
            },
            1 => Op::Store {
                rows: u(r[4]),
                row_bytes: u(r[5]),
            },
            2 => Op::Matmul {
                k: u(r[4]),
                cols: u(r[5]),
                n: u(r[6]),
                fp32: r[7] > 0.0,
            },
            3 => Op::Transpose {
                rows: u(r[4]),
                cols: u(r[5]),
            },
            _ => Op::Elementwise {
                func: Func::ALL.get(r[4] as usize).copied().unwrap_or(Func::Copy),
                partitions: u(r[5]),
                free: u(r[6]),
                inputs: u(r[7]),
            },
        };
        Instr {
            unit: Unit::of_lane(r[0] as usize),
            op,
            what: "",
            at: [u(r[8]), u(r[9]), u(r[10])],
            deps: Vec::new(),
            alloc: [0; 2],
            free: [0; 2],
        }
    }

    /// Zoom by `f` (below 1 zooms in) around time `at`.
    pub fn zoom(&mut self, f: f64, at: f64) {
        let (a, b) = self.view;
        let span = ((b - a) * f).clamp(self.total * 1e-6, self.total);
        let frac = if b > a { (at - a) / (b - a) } else { 0.5 };
        let mut na = at - frac * span;
        na = na.clamp(0.0, self.total - span);
        self.view = (na, na + span);
    }

    pub fn pan(&mut self, dt: f64) {
        let span = self.view.1 - self.view.0;
        let a = (self.view.0 + dt).clamp(0.0, (self.total - span).max(0.0));
        self.view = (a, a + span);
    }

    pub fn reset(&mut self) {
        self.view = (0.0, self.total);
    }

    pub fn height(&self) -> f64 {
        TOP + LANE_H * self.lanes as f64 + AXIS
    }

    /// Time at canvas x (CSS pixels) for a canvas `w` wide.
    pub fn time_at(&self, x: f64, w: f64) -> f64 {
        let (a, b) = self.view;
        a + (x - LEFT).max(0.0) / (w - LEFT).max(1.0) * (b - a)
    }

    /// Draw into `canvas` (`w` CSS pixels wide, at `dpr` device pixels per CSS pixel).
    pub fn draw(&self, canvas: &HtmlCanvasElement, w: f64, dpr: f64) {
        let h = self.height();
        let (cw, ch) = ((w * dpr) as u32, (h * dpr) as u32);
        // Resizing clears and reallocates the canvas: only when the size changed.
        if canvas.width() != cw || canvas.height() != ch {
            canvas.set_width(cw);
            canvas.set_height(ch);
            let _ = canvas.style().set_property("height", &format!("{h}px"));
        }
        let Some(ctx) = canvas
            .get_context("2d")
            .ok()
            .flatten()
            .and_then(|c| c.dyn_into::<CanvasRenderingContext2d>().ok())
        else {
            return;
        };
        let _ = ctx.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0);
        ctx.set_fill_style_str("#ffffff");
        ctx.fill_rect(0.0, 0.0, w, h);
        let (a, b) = self.view;
        let plot = (w - LEFT).max(1.0);
        let scale = plot / (b - a).max(1e-15);
        ctx.set_font("11px system-ui, sans-serif");
        let mut bins = vec![0.0f64; plot.ceil() as usize + 2];
        for lane in 0..self.lanes {
            let y = TOP + LANE_H * lane as f64;
            ctx.set_fill_style_str(if lane % 2 == 0 { "#f6f8fa" } else { "#ffffff" });
            ctx.fill_rect(LEFT, y, plot, LANE_H);
            ctx.set_fill_style_str("#1d2733");
            let _ = ctx.fill_text(&Unit::of_lane(lane).name(), 4.0, y + 15.0);
            let Some(ids) = self.by_lane.get(lane) else {
                continue;
            };
            // First instruction that ends after the window starts (a lane's spans do not
            // overlap, so ends rise with starts).
            let first = ids.partition_point(|&i| self.row(i as usize)[2] < a);
            bins.iter_mut().for_each(|x| *x = 0.0);
            let mut binned: Option<f64> = None;
            for &i in &ids[first..] {
                let r = self.row(i as usize);
                if r[1] > b {
                    break;
                }
                let x0 = (r[1] - a) * scale;
                let x1 = (r[2] - a) * scale;
                if x1 - x0 >= 2.0 {
                    ctx.set_fill_style_str(color(r[3]));
                    ctx.fill_rect(
                        LEFT + x0.max(0.0),
                        y + 3.0,
                        (x1.min(plot) - x0.max(0.0)).max(0.5),
                        LANE_H - 6.0,
                    );
                } else {
                    // Too thin to see alone: add its share to the pixel columns it covers.
                    let (c0, c1) = (x0.max(0.0), x1.min(plot));
                    let mut c = c0.floor();
                    while c < c1 {
                        let k = c as usize;
                        if let Some(bin) = bins.get_mut(k) {
                            *bin += (c1.min(c + 1.0) - c0.max(c)).max(0.0);
                        }
                        c += 1.0;
                    }
                    binned.get_or_insert(r[3]);
                }
            }
            if let Some(kind) = binned {
                // Columns shaded by how busy they are, in five steps; a run of equal steps is
                // one rectangle, so a busy lane costs a few calls, not one per pixel.
                ctx.set_fill_style_str(color(kind));
                let level = |c: f64| {
                    if c <= 0.0 {
                        0
                    } else {
                        (c * 4.0).ceil().clamp(1.0, 4.0) as u8
                    }
                };
                let mut k = 0;
                while k < bins.len() {
                    let l = level(bins[k]);
                    let mut e = k + 1;
                    while e < bins.len() && level(bins[e]) == l {
                        e += 1;
                    }
                    if l > 0 {
                        ctx.set_global_alpha(f64::from(l) / 4.0);
                        ctx.fill_rect(LEFT + k as f64, y + 3.0, (e - k) as f64, LANE_H - 6.0);
                    }
                    k = e;
                }
                ctx.set_global_alpha(1.0);
            }
        }
        // Time axis.
        let y = TOP + LANE_H * self.lanes as f64;
        ctx.set_fill_style_str("#5b6776");
        let span = b - a;
        // About one label per 110 pixels, so they never run into each other.
        let step = nice(span / (plot / 110.0).clamp(1.0, 8.0));
        let mut t = (a / step).ceil() * step;
        while t <= b {
            let x = LEFT + (t - a) * scale;
            ctx.fill_rect(x, y, 1.0, 4.0);
            let _ = ctx.fill_text(&format!("{} µs", sig(t * 1e6, 4)), x + 2.0, y + 15.0);
            t += step;
        }
    }

    /// What is under canvas point (`x`, `y`) in CSS pixels: the instruction's description
    /// with its start and end.
    pub fn hover(&self, x: f64, y: f64, w: f64) -> Option<String> {
        if x < LEFT || y < TOP {
            return None;
        }
        let lane = ((y - TOP) / LANE_H) as usize;
        let ids = self.by_lane.get(lane)?;
        let t = self.time_at(x, w);
        let (a, b) = self.view;
        let slack = 2.0 * (b - a) / (w - LEFT).max(1.0);
        let k = ids.partition_point(|&i| self.row(i as usize)[2] < t - slack);
        let &i = ids.get(k)?;
        let r = self.row(i as usize);
        if r[1] > t + slack {
            return None;
        }
        let ins = self.instr(i as usize);
        let what = self.whats.get(r[11] as usize).map_or("", String::as_str);
        Some(format!(
            "{}: {what}{} — from {} to {} µs ({} µs)",
            ins.unit.name(),
            ins.describe(&self.core),
            sig(r[1] * 1e6, 5),
            sig(r[2] * 1e6, 5),
            sig((r[2] - r[1]) * 1e6, 3)
        ))
    }

    pub fn view_text(&self) -> String {
        format!(
            "showing {} to {} µs of {} µs",
            sig(self.view.0 * 1e6, 4),
            sig(self.view.1 * 1e6, 4),
            sig(self.total * 1e6, 4)
        )
    }
}

fn color(kind: f64) -> &'static str {
    match kind as u32 {
        0 => "#0b6bcb",
        1 => "#14a38b",
        2 => "#d9730d",
        3 => "#b5651d",
        _ => "#7b5cd6",
    }
}

fn nice(x: f64) -> f64 {
    let p = 10f64.powf(x.max(1e-15).log10().floor());
    let m = x / p;
    p * if m < 1.5 {
        1.0
    } else if m < 3.5 {
        2.0
    } else if m < 7.5 {
        5.0
    } else {
        10.0
    }
}
