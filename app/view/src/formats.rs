//! $ per marketed dense PFLOP-hour by format, on the job's platform and on the one it is
//! compared with, as HTML: where the job's platform stops being the cheaper one. Worked out
//! and drawn in the worker; the Workload page shows it under the break-even chart.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use engine::job::{by_format, Job};
use engine::units::sig;
use engine::{system, Dtype};

use crate::escape;
use crate::tables::chart_data;

/// The job's cost by format against the same job rented on the platform it is compared with
/// (as many systems); empty when either cannot be priced.
#[must_use]
pub fn html(j: &Job) -> String {
    let other_job = Job {
        owned: false,
        ..j.moved_to(&j.compare_with, j.nodes)
    };
    let other = system::find(&j.compare_with).map_or("?", |s| s.name);
    let Ok(rows) = by_format(j, &other_job) else {
        return String::new();
    };
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
    let list = |cheaper: bool| {
        let l: Vec<&str> = rows
            .iter()
            .filter(|r| {
                r.ratio()
                    .is_some_and(|x| if cheaper { x < 1.0 } else { x >= 1.0 })
            })
            .map(|r| r.dtype.label())
            .collect();
        if l.is_empty() {
            "no format".to_string()
        } else {
            l.join(", ")
        }
    };
    let text = format!(
        "Cheaper than {other} per marketed PFLOP-hour in {}; dearer in {}. Each platform at its own rate ÷ its dense peak in that format.",
        list(true),
        list(false)
    );
    let row_h = 30.0;
    let mut bars = String::new();
    for (i, r) in rows.iter().enumerate() {
        let (a, b) = (r.usd_a.unwrap_or(0.0), r.usd_b.unwrap_or(0.0));
        let ratio = r.ratio().unwrap_or(f64::NAN);
        let y = i as f64 * row_h + 4.0;
        bars += &format!(
            "<g data-format=\"{}\" data-ratio=\"{ratio}\"><text x=\"0\" y=\"{}\" class=\"fmt-label\">{}</text><rect x=\"60\" y=\"{}\" height=\"10\" width=\"{}\" class=\"fmt-a\"><title>this job's platform: ${}/PFLOP-hour</title></rect><rect x=\"60\" y=\"{}\" height=\"10\" width=\"{}\" class=\"fmt-b\"><title>{}: ${}/PFLOP-hour</title></rect><text x=\"430\" y=\"{}\" class=\"fmt-text\">${} vs ${} · {}×</text></g>",
            r.dtype.id(),
            y + 15.0,
            r.dtype.label(),
            y + 2.0,
            len(a),
            sig(a, 3),
            y + 14.0,
            len(b),
            escape(other),
            sig(b, 3),
            y + 17.0,
            sig(a, 3),
            sig(b, 3),
            sig(ratio, 2)
        );
    }
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
                alloc::vec![
                    r.dtype.label().to_string(),
                    r.usd_a.map_or("—".into(), |v| sig(v, 4)),
                    r.usd_b.map_or("—".into(), |v| sig(v, 4)),
                    r.ratio().map_or("—".into(), |v| sig(v, 3)),
                ]
            })
            .collect::<Vec<_>>(),
    );
    format!(
        "<h3>By format: $ per marketed PFLOP-hour</h3><p class=\"legend-line\"><span class=\"swatch fmt-a\"></span>this job's platform <span class=\"swatch fmt-b\"></span>{}</p><svg class=\"by-format\" id=\"by-format\" viewBox=\"0 0 640 {h}\" role=\"img\" aria-label=\"Cost per marketed PFLOP-hour by format\" aria-describedby=\"by-format-text\">{bars}</svg><p class=\"small-note\" id=\"by-format-text\">{}</p><div>{data}</div>",
        escape(other),
        escape(&text)
    )
}
