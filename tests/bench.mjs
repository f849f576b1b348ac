// Benchmarks of the built app against the budgets in ARCHITECTURE.md. Not a test: it reports
// figures.
// Transfer size is deterministic and over budget fails; timings are reported only.
import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { serve } from './server.mjs';
import { launch } from './browser.mjs';

const DIST = process.env.DIST ?? '../dist';
// ARCHITECTURE.md's budget: every page but the first is its own module, so the first page
// does not grow as pages are added.
const SIZE_BUDGET = 250 * 1024;
const TTI_BUDGET_MS = 300;
const FRAME_MS = 16;
// Inputs timed apart as a page's first (see 3. below).
const WARM = 3;

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const ms = (x) => `${x.toFixed(1)} ms`;

// 1. Transfer size: the wasm, JS and CSS a page fetches, gzipped, read from the requests
// Chromium makes. The first page must not grow as pages are added: other pages' code is
// fetched when they open, and reported on its own.
const srv = await serve(DIST);
const browser = await launch();
// Every context here blocks the service worker: its one-time download of the whole build on a
// first visit would compete for this machine's two cores with what is being timed (the e2e
// tests cover it).
const indexHtml = readFileSync(join(DIST, 'index.html'), 'utf8');
const gz = (f) => gzipSync(readFileSync(join(DIST, f)), { level: 9 }).length;
async function fetched(query, ready) {
  const ctx = await browser.newContext({ serviceWorkers: 'block' });
  const page = await ctx.newPage();
  const files = new Set();
  page.on('request', (r) => {
    const f = decodeURIComponent(new URL(r.url()).pathname).replace(/^\//, '');
    if (/\.(wasm|js|css)$/.test(f)) files.add(f);
  });
  await page.goto(srv.url + query);
  await page.waitForSelector(ready, { timeout: 60000 });
  await page.waitForTimeout(300);
  await ctx.close();
  return files;
}
const kib = (b) => `${(b / 1024).toFixed(1)} KiB`;
const first = await fetched('?', 'table');
const total = [...first].reduce((t, f) => t + gz(f), 0);
const parts = [...first].map((f) => `${f.replace(/-[0-9a-f]{12,16}(?=[._/])/, '')} ${kib(gz(f))}`);
console.log(`first page transfer: ${kib(total)} gzipped (budget ${SIZE_BUDGET / 1024} KiB) — ${parts.join('; ')}`);
for (const [name, query, ready] of [
  ['Roofline', '?page=roofline', '#roofline-canvas'],
  ['Topology', '?page=topology', '#topology-svg'],
  ['Collectives', '?page=collectives', '#collective-table'],
  ['Kernels', '?page=kernels', '.kresult'],
  ['Workload & TCO', '?page=workload', '.card'],
  ['Compare', '?page=compare', '.compare-page'],
  ['Learn', '?page=learn', 'article.lesson'],
]) {
  const own = [...(await fetched(query, ready))].filter((f) => !first.has(f));
  console.log(`${name} page's own transfer (fetched when it opens): ${kib(own.reduce((t, f) => t + gz(f), 0))} — ${own.map((f) => `${f} ${kib(gz(f))}`).join('; ')}`);
}
// A page whose link starts from a module holding the app too (above, in place of the first
// page's app module): opened from the app, it fetches its own module alone.
for (const name of JSON.parse(/(\[[^\]]*\])\.includes\(p\)\) \{\s*window\.accelscopeWhole/.exec(indexHtml)?.[1] ?? '[]')) {
  const own = [`${name}.js`, `${name}_bg.wasm`];
  console.log(`  ${name} opened from the app instead: ${kib(own.reduce((t, f) => t + gz(f), 0))} — ${own.map((f) => `${f} ${kib(gz(f))}`).join('; ')}`);
}

const charts = ['charts.js', 'charts_bg.wasm'];
console.log(`downloads module (fetched on the first CSV, PNG or SVG download): ${kib(charts.reduce((t, f) => t + gz(f), 0))}`);

// 2. Navigation to interactive, cold (fresh context each run), on a local static server; and
// 2b. a link to each page with its own module, cold: from navigation until that page's module
// has mounted (it answers input from then). Budget: 1.5 times the first page's p95. The pages
// are those the built loader starts from a link; the loads take turns, so a slower spell of
// the machine falls on all of them alike.
const modulePages = JSON.parse(/(\[[^\]]*\])\.includes\(p\)\) window\.accelscopePreloaded/.exec(indexHtml)?.[1] ?? 'null');
if (!Array.isArray(modulePages) || !modulePages.includes('workload') || !modulePages.includes('compare')) {
  throw new Error("bench: the built index.html does not list the pages a link preloads");
}
const LINKS = modulePages.map((name) => [name, name === 'workload' ? '?page=workload&wsys=hgx-h100-8&wnodes=8&wdtype=fp8' : `?page=${name}`]);
const tti = [];
const dcl = [];
const linkTti = Object.fromEntries(LINKS.map(([name]) => [name, []]));
// Thirty rounds: of fifteen loads the p95 is the slowest one, so a single stall decided it.
const RUNS = 30;
for (let i = 0; i < RUNS; i++) {
  const ctx = await browser.newContext({ serviceWorkers: 'block' });
  const page = await ctx.newPage();
  await page.goto(srv.url + '?page=chips');
  await page.waitForFunction(() => performance.getEntriesByName('accelscope-interactive').length > 0);
  const [t, d] = await page.evaluate(() => [
    performance.getEntriesByName('accelscope-interactive')[0].startTime,
    performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd,
  ]);
  tti.push(t);
  dcl.push(d);
  await ctx.close();
  for (const [name, q] of LINKS) {
    const ctx = await browser.newContext({ serviceWorkers: 'block' });
    const page = await ctx.newPage();
    await page.goto(srv.url + q);
    await page.waitForFunction(() => performance.getEntriesByName('accelscope-page-interactive').length > 0, null, { timeout: 30000 });
    linkTti[name].push(await page.evaluate(() => performance.getEntriesByName('accelscope-page-interactive')[0].startTime));
    await ctx.close();
  }
}
console.log(`navigation to interactive (${RUNS} cold loads): p50 ${ms(pct(tti, 50))}, p95 ${ms(pct(tti, 95))}, slowest ${ms(pct(tti, 100))} (budget ${TTI_BUDGET_MS} ms); DOMContentLoaded p50 ${ms(pct(dcl, 50))}`);
for (const [name, xs] of Object.entries(linkTti)) {
  console.log(`link to interactive ${name}: p50 ${ms(pct(xs, 50))}, p95 ${ms(pct(xs, 95))}, slowest ${ms(pct(xs, 100))} (${(pct(xs, 95) / pct(tti, 95)).toFixed(2)} × the first page's p95; budget 1.5 × = ${ms(1.5 * pct(tti, 95))}; ${RUNS} cold loads)`);
}

// 3. Input to paint, per page: from the input event to the moment its result is in the page
// and the main thread is free to paint it (the paint itself follows at the next frame, which
// no page can move). Views worked out after that paint (in the worker, `background::drawn`:
// a tornado, other platforms, the serving curves; or in a task of their own,
// `app/src/defer.rs`) are not counted; they show as updating.
// A page's first inputs also compile the code they run (Chromium compiles wasm functions on
// their first call): the first WARM inputs are timed and reported apart, as first inputs, and
// the budget holds the 60 after them.
async function inputLatency(query, selector, values, prepare) {
  const ctx = await browser.newContext({ viewport: { width: 1366, height: 900 }, serviceWorkers: 'block' });
  const page = await ctx.newPage();
  await page.goto(srv.url + query);
  await page.waitForSelector('.lazy-loading', { state: 'detached', timeout: 30000 });
  if (prepare) await prepare(page);
  await page.waitForSelector(selector);
  const [times, draws] = await page.evaluate(async ([sel, vals, warm]) => {
    const settle = () => new Promise((r) => { const c = new MessageChannel(); c.port1.onmessage = r; c.port2.postMessage(0); });
    const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    const out = [];
    for (let i = 0; i < warm + 60; i++) {
      // Start each input from a quiet page: the previous input's deferred views are done
      // (those of a page's second module follow a frame later, each in a task of its own).
      await frame();
      await frame();
      while (document.querySelector('.deferred.updating')) await frame();
      const el = document.querySelector(sel);
      const t0 = performance.now();
      if (el.type === 'checkbox') el.checked = !el.checked; else el.value = vals[i % vals.length];
      el.dispatchEvent(new Event('change', { bubbles: true }));
      await settle();
      out.push(performance.now() - t0);
      if (i < warm) continue;
      const c = document.querySelector('#roofline-canvas');
      if (c) (window.drawMs ??= []).push(Number(c.dataset.drawMs));
      const s = document.querySelector('#serving-timing');
      if (s && sel.includes('wtpot')) (window.drawMs ??= []).push(Number(s.dataset.ms), Number(s.dataset.points));
    }
    return [out, window.drawMs ?? []];
  }, [selector, values, WARM]);
  await ctx.close();
  return [times.slice(WARM), draws, times.slice(0, WARM)];
}
const paint = (name, [xs, , warm]) => console.log(`input-to-paint ${name}: p50 ${ms(pct(xs, 50))}, p95 ${ms(pct(xs, 95))} (budget ${FRAME_MS} ms); its first ${WARM} inputs ${warm.map(ms).join(', ')}`);
const chipsRun = await inputLatency('?page=chips', 'select[name=format]', ['fp8', 'bf16', 'fp16', 'fp32']);
const [table] = chipsRun;
paint('chips', chipsRun);
const roofRun = await inputLatency('?page=roofline', 'input[name=rfmt][value=fp8]', []);
const [chart, draws] = roofRun;
paint('roofline', roofRun);
console.log(`  roofline canvas drawing alone: p50 ${ms(pct(draws, 50))}, p95 ${ms(pct(draws, 95))}`);
const collRun = await inputLatency('?page=collectives', 'input[name=size]', ['1MiB', '64MiB', '1GiB', '256KiB']);
const [coll] = collRun;
paint('collectives', collRun);
// The Workload & TCO page: a batch-size change re-runs the job and repaints its cards; the
// tornado, break-even curve, by-format and other platforms follow after the paint.
const jobRun = await inputLatency('?page=workload', 'input[name=wgbs]', ['512', '1024', '2048', '768']);
const [job] = jobRun;
paint('workload', jobRun);
// The serving curves: a new TPOT target; the worker evaluates every platform's
// configurations and draws them after the page's paint (the figure it reports is read from
// the page once they are in).
const [serving, served] = await inputLatency('?page=workload', 'input[name=wtpot]', ['50', '40', '30', '60']);
const evalMs = served.filter((_, i) => i % 2 === 0);
const points = served[1];
console.log(`  workload serving target: input to paint p50 ${ms(pct(serving, 50))}, p95 ${ms(pct(serving, 95))}; ${points} configurations on 4 platforms evaluated in the worker: p50 ${ms(pct(evalMs, 50))}, p95 ${ms(pct(evalMs, 95))}`);
// Compare: three kept scenarios, the first put beside the others and taken away again.
const cmpRun = await inputLatency('?page=compare', 'input[name=cpin]', [], async (page) => {
  for (const sys of ['trn2-ultra-64', 'hgx-h100-8', 'gb200-nvl72']) {
    await page.fill('input[name=clink]', `?v=7&page=workload&wsys=${sys}`);
    await page.click('button:has-text("Add")');
  }
  const pins = page.locator('input[name=cpin]');
  await pins.nth(1).check();
  await pins.nth(2).check();
});
const [cmp] = cmpRun;
paint('compare', cmpRun);
const latencies = { chips: table, roofline: chart, collectives: coll, workload: job, compare: cmp };
// 4. The link-level simulation in the browser: all-reduce of 1 GiB on the 4×4×16 torus.
const simMs = [];
for (let i = 0; i < 5; i++) {
  const ctx = await browser.newContext({ serviceWorkers: 'block' });
  const page = await ctx.newPage();
  await page.goto(srv.url + '?page=collectives&csys=trn2-ultra-256&cop=all-reduce&calgo=torus,bi-ring&nodes=1&size=1GiB');
  await page.waitForSelector('#collective-table td[data-sim-ms]');
  simMs.push(...(await page.$$eval('#collective-table td[data-sim-ms]', (tds) => tds.map((t) => Number(t.dataset.simMs)))));
  await ctx.close();
}
console.log(`simulated all-reduce on trn2-ultra-256 in the browser (torus and bi-ring schedules): median ${ms(pct(simMs, 50))}, max ${ms(Math.max(...simMs))} (budget 100 ms)`);
// 4b. The NeuronCore model: a 4096³ BF16 matmul simulated in the worker (the page prints how
// long the simulation took), then the timeline redrawn as the wheel zooms in and out.
{
  const ctx = await browser.newContext({ viewport: { width: 1366, height: 900 }, serviceWorkers: 'block' });
  const page = await ctx.newPage();
  const sims = [];
  for (let i = 0; i < 5; i++) {
    await page.goto(srv.url + `?page=kernels&knc=trn2_mm_4096x4096x4096_bf16_t1024x1024x1024_b${1 + (i % 2) + 1}_sA`);
    await page.waitForSelector('#ncresult .nchead', { timeout: 30000 });
    const m = /simulated in ([0-9.]+) ms/.exec(await page.textContent('#ncresult .nchead'));
    sims.push(Number(m[1]));
  }
  await page.locator('#nccanvas').scrollIntoViewIfNeeded();
  const box = await page.locator('#nccanvas').boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + 40);
  const draws = [];
  for (let i = 0; i < 40; i++) {
    await page.mouse.wheel(0, i % 20 < 10 ? -200 : 200);
    await page.waitForTimeout(20);
    draws.push(Number(await page.getAttribute('#nccanvas', 'data-draw-ms')));
  }
  console.log(`NeuronCore 4096³ BF16 matmul simulated in the worker: p50 ${ms(pct(sims, 50))}, max ${ms(Math.max(...sims))} (budget 100 ms); timeline redraw on zoom: p50 ${ms(pct(draws, 50))}, p95 ${ms(pct(draws, 95))} (budget ${FRAME_MS} ms)`);
  await ctx.close();
}
// 5. The same f32 GEMM (384³, best of 4) and triad, natively (the CLI, one thread, SSE2 or
// NEON) and in this browser (the Kernels page's worker, one thread, wasm SIMD).
const native = JSON.parse(execFileSync(process.env.ACCELSCOPE ?? '../target/release/accelscope', ['kernel', 'bench', '--size', '384', '--json']).toString());
{
  const ctx = await browser.newContext({ serviceWorkers: 'block' });
  const page = await ctx.newPage();
  await page.goto(srv.url + '?');
  const reply = await page.evaluate(() => new Promise((resolve, reject) => {
    const w = new Worker('worker_loader.js');
    w.onerror = (e) => reject(e.message);
    w.onmessage = (e) => (e.data === 'ready' ? w.postMessage('bench 1') : e.data.startsWith('bench') && resolve(e.data));
  }));
  const [, , gflops, triad] = reply.split(' ');
  const ratio = Number(gflops) / native.gemm_f32_gflop_per_s;
  console.log(`f32 GEMM 384³, one thread: browser ${Number(gflops).toFixed(1)} GFLOP/s, native ${native.gemm_f32_gflop_per_s.toFixed(1)} GFLOP/s, ratio ${ratio.toFixed(2)} (budget ≥ 0.70); triad browser ${Number(triad).toFixed(1)} GB/s, native ${native.stream.triad_gb_per_s.toFixed(1)} GB/s`);
  if (ratio < 0.7) console.log('note: browser kernel speed under 70% of native on this machine');
  await ctx.close();
}
await browser.close();
await srv.close();

const over = [];
if (total > SIZE_BUDGET) over.push('transfer size');
if (pct(tti, 95) > TTI_BUDGET_MS) console.log('note: interactive time over budget on this machine');
for (const [name, xs] of Object.entries(linkTti)) {
  if (pct(xs, 95) > 1.5 * pct(tti, 95)) console.log(`note: link to interactive ${name} over 1.5 × the first page's on this machine`);
}
const slow = Object.entries(latencies).filter(([, xs]) => pct(xs, 95) > FRAME_MS).map(([n]) => n);
if (slow.length) console.log(`note: input-to-paint over one frame on this machine: ${slow.join(', ')}`);
if (over.length) {
  console.log(`over budget: ${over.join(', ')}`);
  process.exit(1);
}
