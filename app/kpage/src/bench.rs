//! The device benchmark: one thread, then every thread at once, then the GPU; the roofs it
//! measures go to the link and the Roofline page.

use engine::kernels::device::{DeviceRoof, Engine};
use view::protocol::{Reply, Request};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{MessageEvent, Worker};

use crate::dom::{set_html, set_text};
use crate::runner::{busy, failed};
use crate::state::{notify, page, Bench};
use crate::{form, gpu};
use view::workers::{reply, retire, send, spawn};

/// Threads the device benchmark uses at most.
const MAX_BENCH_THREADS: u32 = 16;

fn threads() -> u32 {
    let n = web_sys::window().map_or(1.0, |w| w.navigator().hardware_concurrency());
    (n as u32).clamp(1, MAX_BENCH_THREADS)
}

/// Starts the benchmark: one thread first.
pub fn start() {
    let Some(p) = page() else { return };
    if p.borrow().busy {
        return;
    }
    busy(true, "measuring one thread: f32 GEMM, then memory streams");
    p.borrow_mut().bench = Some(Bench::default());
    spawn_n(1);
}

/// Starts `n` workers at once, each measuring itself; their rates add up.
fn spawn_n(n: u32) {
    let Some(p) = page() else { return };
    let mut workers = Vec::new();
    for _ in 0..n {
        match spawn(on_message, failed) {
            Ok(l) => workers.push(l),
            Err(e) => return failed(&e),
        }
    }
    let mut pm = p.borrow_mut();
    if let Some(b) = pm.bench.as_mut() {
        for l in std::mem::replace(&mut b.workers, workers) {
            retire(Some(l));
        }
        b.threads = n;
        b.results.clear();
    }
}

fn on_message(e: MessageEvent) {
    let Some(p) = page() else { return };
    match reply(&e) {
        Some(Ok(Reply::Ready)) => {
            let b = p.borrow();
            let Some(bench) = b.bench.as_ref() else {
                return;
            };
            // Start them together once all are loaded, so they run at the same time.
            let ready = js_sys::Reflect::get(&e, &JsValue::from_str("target"))
                .ok()
                .and_then(|t| t.dyn_into::<Worker>().ok());
            if let Some(w) = ready {
                let _ = js_sys::Reflect::set(&w, &JsValue::from_str("_ready"), &JsValue::TRUE);
            }
            let all = bench.workers.iter().all(|l| {
                js_sys::Reflect::get(&l.worker, &JsValue::from_str("_ready"))
                    .map(|v| v.is_truthy())
                    .unwrap_or(false)
            });
            if all {
                for l in &bench.workers {
                    send(
                        l,
                        &Request::Bench {
                            threads: bench.threads,
                        },
                    );
                }
            }
        }
        Some(Err(e)) => failed(&format!(
            "the benchmark sent a message that does not read: {e}"
        )),
        Some(Ok(Reply::Bench {
            gflops: f, gbps: g, ..
        })) => {
            let next = {
                let mut pm = p.borrow_mut();
                let Some(b) = pm.bench.as_mut() else { return };
                b.results.push((f, g));
                if b.results.len() < b.threads as usize {
                    return;
                }
                let gflops: f64 = b.results.iter().map(|r| r.0).sum();
                let gbps: f64 = b.results.iter().map(|r| r.1).sum();
                let threads = b.threads;
                if threads == 1 {
                    b.single = Some(gflops);
                }
                pm.device.retain(|r| {
                    r.engine != Engine::Cpu(threads)
                        && (threads == 1 || !matches!(r.engine, Engine::Cpu(n) if n > 1))
                });
                pm.device.push(DeviceRoof {
                    engine: Engine::Cpu(threads),
                    gflops,
                    gbps,
                });
                pm.device.sort_by_key(|r| match r.engine {
                    Engine::Cpu(n) => n,
                    Engine::Gpu => u32::MAX,
                });
                threads
            };
            let all = threads();
            render_device();
            notify();
            if next == 1 && all > 1 {
                busy(true, &format!("measuring {all} threads at once"));
                spawn_n(all);
            } else {
                let done = p.borrow_mut().bench.take();
                Bench::retire(done);
                if gpu::offered() {
                    busy(true, "measuring the GPU through WebGPU");
                    wasm_bindgen_futures::spawn_local(gpu_bench());
                } else {
                    busy(false, "Measured; the roofs are on the Roofline page too.");
                }
            }
        }
        _ => {}
    }
}

async fn gpu_bench() {
    let result = gpu::measure().await;
    let Some(p) = page() else { return };
    // Cancel (or a new page) while the GPU worked: drop what it found.
    if !p.borrow().busy {
        return;
    }
    match result {
        Ok(m) => {
            {
                let mut pm = p.borrow_mut();
                pm.device.retain(|r| r.engine != Engine::Gpu);
                pm.device.push(DeviceRoof {
                    engine: Engine::Gpu,
                    gflops: m.gflops,
                    gbps: m.gbps,
                });
            }
            render_device();
            notify();
            set_text(
                "#kgpu",
                &format!(
                    "GPU: {}. Its 256³ GEMM {} the CPU kernel's on the same inputs; the rate is a simple tiled WGSL kernel's, not the GPU's peak.",
                    m.adapter,
                    if m.check == 0.0 {
                        "matches, element for element,".to_string()
                    } else {
                        format!("agrees to {:.1e} of the result's rms with", m.check)
                    }
                ),
            );
            busy(false, "Measured; the roofs are on the Roofline page too.");
        }
        Err(e) => {
            set_text("#kgpu", &format!("GPU not measured: {e}."));
            busy(
                false,
                "Measured the CPU; the roofs are on the Roofline page too.",
            );
        }
    }
}

/// Redraws the table of measured roofs.
fn render_device() {
    let Some(p) = page() else { return };
    let html = form::device_html(&p.borrow().device);
    set_html("#kdevice", &html);
}
