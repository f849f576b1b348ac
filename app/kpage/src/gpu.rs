//! This device's GPU through WebGPU: an f32 GEMM and a copy in WGSL, timed from the page, and
//! the GEMM's result checked against the engine's CPU kernel on the same seeded inputs.

use engine::kernels::{gemm, Distribution, Rng};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{
    gpu_buffer_usage as usage, gpu_map_mode, GpuAdapter, GpuBindGroupDescriptor, GpuBindGroupEntry,
    GpuBuffer, GpuBufferDescriptor, GpuComputePipeline, GpuComputePipelineDescriptor, GpuDevice,
    GpuProgrammableStage, GpuShaderModuleDescriptor,
};

/// What the GPU measured.
pub struct GpuMeasure {
    /// f32 GEMM GFLOP/s.
    pub gflops: f64,
    /// Copy bandwidth, GB/s (read plus write).
    pub gbps: f64,
    /// Largest |GPU - CPU| of the check GEMM, over the rms of the CPU result.
    pub check: f64,
    /// The adapter as the browser names it.
    pub adapter: String,
}

/// 16 x 16 threads, each one output, K in tiles of 16 through workgroup memory.
const GEMM_WGSL: &str = r"
struct Dims { n: u32 }
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> bt: array<f32>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;
@group(0) @binding(3) var<uniform> dims: Dims;
var<workgroup> ta: array<array<f32, 16>, 16>;
var<workgroup> tb: array<array<f32, 16>, 16>;
@compute @workgroup_size(16, 16)
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(local_invocation_id) l: vec3<u32>) {
  let n = dims.n;
  let row = g.y;
  let col = g.x;
  var acc = 0.0;
  for (var k0 = 0u; k0 < n; k0 = k0 + 16u) {
    ta[l.y][l.x] = a[row * n + k0 + l.x];
    tb[l.y][l.x] = bt[(col - l.x + l.y) * n + k0 + l.x];
    workgroupBarrier();
    for (var k = 0u; k < 16u; k = k + 1u) {
      acc = acc + ta[l.y][k] * tb[l.x][k];
    }
    workgroupBarrier();
  }
  c[row * n + col] = acc;
}
";

const COPY_WGSL: &str = r"
@group(0) @binding(0) var<storage, read> src: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read_write> dst: array<vec4<f32>>;
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
  let i = g.y * 65535u * 256u + g.x;
  if (i < arrayLength(&src)) { dst[i] = src[i]; }
}
";

fn err(e: JsValue) -> String {
    e.as_string()
        .or_else(|| {
            js_sys::Reflect::get(&e, &JsValue::from_str("message"))
                .ok()
                .and_then(|m| m.as_string())
        })
        .unwrap_or_else(|| format!("{e:?}"))
}

fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// Whether the browser exposes WebGPU at all.
#[must_use]
pub fn offered() -> bool {
    web_sys::window()
        .map(|w| js_sys::Reflect::has(&w.navigator(), &JsValue::from_str("gpu")).unwrap_or(false))
        .unwrap_or(false)
}

fn buffer(device: &GpuDevice, bytes: u32, use_: u32) -> Result<GpuBuffer, String> {
    device
        .create_buffer(&GpuBufferDescriptor::new(bytes, use_))
        .map_err(err)
}

fn bytes_of(x: &[f32]) -> Vec<u8> {
    x.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn pipeline(device: &GpuDevice, code: &str) -> Result<GpuComputePipeline, String> {
    let module = device.create_shader_module(&GpuShaderModuleDescriptor::new(code));
    let stage = GpuProgrammableStage::new(&module);
    stage.set_entry_point("main");
    let desc = GpuComputePipelineDescriptor::new_with_gpu_auto_layout_mode(
        web_sys::GpuAutoLayoutMode::Auto,
        &stage,
    );
    Ok(device.create_compute_pipeline(&desc))
}

async fn done(device: &GpuDevice) -> Result<(), String> {
    JsFuture::from(device.queue().on_submitted_work_done())
        .await
        .map(|_| ())
        .map_err(err)
}

/// Runs `dispatch` `reps` times in one submission and returns the seconds it took.
async fn timed(
    device: &GpuDevice,
    pipe: &GpuComputePipeline,
    bind: &web_sys::GpuBindGroup,
    groups: (u32, u32),
    reps: u32,
) -> Result<f64, String> {
    let enc = device.create_command_encoder();
    let pass = enc.begin_compute_pass();
    pass.set_pipeline(pipe);
    pass.set_bind_group(0, Some(bind));
    for _ in 0..reps {
        pass.dispatch_workgroups_with_workgroup_count_y(groups.0, groups.1);
    }
    pass.end();
    let t = now();
    device.queue().submit(&[enc.finish()]);
    done(device).await?;
    Ok((now() - t) * 1e-3)
}

/// Best of a few submissions, growing the repeat count until one takes a tenth of a second.
async fn rate(
    device: &GpuDevice,
    pipe: &GpuComputePipeline,
    bind: &web_sys::GpuBindGroup,
    groups: (u32, u32),
) -> Result<(f64, u32), String> {
    timed(device, pipe, bind, groups, 1).await?;
    let mut reps = 1;
    let mut best = f64::INFINITY;
    for _ in 0..4 {
        let t = timed(device, pipe, bind, groups, reps).await?;
        best = best.min(t / f64::from(reps));
        if t < 0.1 && reps < 64 {
            reps *= 2;
        }
    }
    Ok((best, reps))
}

async fn gemm_run(
    device: &GpuDevice,
    pipe: &GpuComputePipeline,
    n: u32,
    time_it: bool,
) -> Result<(Vec<f32>, Vec<f32>, Vec<f32>, f64), String> {
    let nn = (n * n) as usize;
    let mut rng = Rng::new(11);
    let a = Distribution::Normal.sample(&mut rng, n as usize, n as usize);
    let bt = Distribution::Normal.sample(&mut rng, n as usize, n as usize);
    let size = (nn * 4) as u32;
    let st = usage::STORAGE | usage::COPY_DST;
    let (ba, bb) = (buffer(device, size, st)?, buffer(device, size, st)?);
    let bc = buffer(device, size, usage::STORAGE | usage::COPY_SRC)?;
    let bd = buffer(device, 16, usage::UNIFORM | usage::COPY_DST)?;
    let q = device.queue();
    q.write_buffer_with_u32_and_u8_slice(&ba, 0, &bytes_of(&a))
        .map_err(err)?;
    q.write_buffer_with_u32_and_u8_slice(&bb, 0, &bytes_of(&bt))
        .map_err(err)?;
    q.write_buffer_with_u32_and_u8_slice(
        &bd,
        0,
        &[n.to_le_bytes(), [0; 4], [0; 4], [0; 4]].concat(),
    )
    .map_err(err)?;
    let entries = [
        GpuBindGroupEntry::new_with_gpu_buffer(0, &ba),
        GpuBindGroupEntry::new_with_gpu_buffer(1, &bb),
        GpuBindGroupEntry::new_with_gpu_buffer(2, &bc),
        GpuBindGroupEntry::new_with_gpu_buffer(3, &bd),
    ];
    let bind = device.create_bind_group(&GpuBindGroupDescriptor::new(
        &entries,
        &pipe.get_bind_group_layout(0),
    ));
    let groups = (n / 16, n / 16);
    let secs = if time_it {
        rate(device, pipe, &bind, groups).await?.0
    } else {
        timed(device, pipe, &bind, groups, 1).await?
    };
    let read = buffer(device, size, usage::MAP_READ | usage::COPY_DST)?;
    let enc = device.create_command_encoder();
    enc.copy_buffer_to_buffer_with_u32_and_u32_and_u32(&bc, 0, &read, 0, size)
        .map_err(err)?;
    q.submit(&[enc.finish()]);
    JsFuture::from(read.map_async(gpu_map_mode::READ))
        .await
        .map_err(err)?;
    let out = js_sys::Float32Array::new(&read.get_mapped_range().map_err(err)?.into()).to_vec();
    read.unmap();
    for b in [&ba, &bb, &bc, &bd, &read] {
        b.destroy();
    }
    Ok((a, bt, out, secs))
}

/// Measures the GPU: a 256³ f32 GEMM checked element by element against the CPU kernel, a
/// GEMM of up to 1024³ for the rate, and a 64 MiB copy for the bandwidth.
pub async fn measure() -> Result<GpuMeasure, String> {
    let Some(w) = web_sys::window() else {
        return Err("no window".into());
    };
    let gpu = w.navigator().gpu();
    let adapter = JsFuture::from(gpu.request_adapter()).await.map_err(err)?;
    if adapter.is_null() || adapter.is_undefined() {
        return Err("the browser offers WebGPU but found no GPU adapter".into());
    }
    let adapter: GpuAdapter = adapter.unchecked_into();
    let info = adapter.info();
    let name = [info.vendor(), info.architecture(), info.description()]
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    let device: GpuDevice = JsFuture::from(adapter.request_device())
        .await
        .map_err(err)?
        .unchecked_into();
    let gemm_pipe = pipeline(&device, GEMM_WGSL)?;
    // The check: every element of a 256³ GEMM against the engine's f32 kernel.
    let n = 256;
    let (a, bt, gpu_c, first) = gemm_run(&device, &gemm_pipe, n, false).await?;
    let cpu_c = gemm::gemm_f32(&a, &bt, n as usize, n as usize, n as usize);
    let rms =
        (cpu_c.iter().map(|v| f64::from(*v).powi(2)).sum::<f64>() / cpu_c.len() as f64).sqrt();
    let worst = gpu_c
        .iter()
        .zip(&cpu_c)
        .map(|(g, c)| f64::from((g - c).abs()))
        .fold(0.0, f64::max);
    let check = worst / rms.max(f64::MIN_POSITIVE);
    if check.is_nan() || check >= 1e-3 {
        return Err(format!(
            "the GPU's GEMM disagrees with the CPU's by {check:.2e} of the rms; not reported"
        ));
    }
    // Size the timed GEMM so one dispatch takes tens of milliseconds, even on a software GPU.
    let big = if first > 0.05 {
        256
    } else if first > 0.005 {
        512
    } else {
        1024
    };
    let (_, _, _, secs) = gemm_run(&device, &gemm_pipe, big, true).await?;
    let gflops = 2.0 * f64::from(big).powi(3) / secs / 1e9;
    // Copy bandwidth: 64 MiB in, 64 MiB out.
    let bytes: u32 = 64 << 20;
    let src = buffer(&device, bytes, usage::STORAGE)?;
    let dst = buffer(&device, bytes, usage::STORAGE)?;
    let copy_pipe = pipeline(&device, COPY_WGSL)?;
    let entries = [
        GpuBindGroupEntry::new_with_gpu_buffer(0, &src),
        GpuBindGroupEntry::new_with_gpu_buffer(1, &dst),
    ];
    let bind = device.create_bind_group(&GpuBindGroupDescriptor::new(
        &entries,
        &copy_pipe.get_bind_group_layout(0),
    ));
    let vec4s = bytes / 16;
    let groups = vec4s.div_ceil(256);
    let (secs, _) = rate(
        &device,
        &copy_pipe,
        &bind,
        (groups.min(65535), groups.div_ceil(65535)),
    )
    .await?;
    let gbps = 2.0 * f64::from(bytes) / secs / 1e9;
    src.destroy();
    dst.destroy();
    device.destroy();
    Ok(GpuMeasure {
        gflops,
        gbps,
        check,
        adapter: if name.is_empty() {
            "unnamed adapter".into()
        } else {
            name
        },
    })
}
