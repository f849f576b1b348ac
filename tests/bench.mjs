// Benchmarks of the built app against the budgets in DESIGN.md. Not a test: it reports figures.
// Transfer size is deterministic and over budget fails; timings are reported only.
import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { serve } from './server.mjs';
import { launch } from './browser.mjs';

const DIST = process.env.DIST ?? '../dist';
const SIZE_BUDGET = 400 * 1024;
const TTI_BUDGET_MS = 300;
const FRAME_MS = 16;

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const ms = (x) => `${x.toFixed(1)} ms`;

// 1. Transfer size: wasm + JS + CSS, gzipped.
let total = 0;
const parts = [];
for (const f of readdirSync(DIST)) {
  if (!/\.(wasm|js|css)$/.test(f)) continue;
  const raw = readFileSync(join(DIST, f));
  const gz = gzipSync(raw, { level: 9 }).length;
  total += gz;
  parts.push(`${f.replace(/-[0-9a-f]{16}/, '')} ${(raw.length / 1024).toFixed(0)} KiB raw, ${(gz / 1024).toFixed(1)} KiB gz`);
}
console.log(`transfer size: ${(total / 1024).toFixed(1)} KiB gzipped (budget ${SIZE_BUDGET / 1024} KiB) — ${parts.join('; ')}`);

// 2. Navigation to interactive, cold (fresh context each run), on a local static server.
const srv = await serve(DIST);
const browser = await launch();
const tti = [];
const dcl = [];
const RUNS = 15;
for (let i = 0; i < RUNS; i++) {
  const ctx = await browser.newContext();
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
}
console.log(`navigation to interactive (${RUNS} cold loads): p50 ${ms(pct(tti, 50))}, p95 ${ms(pct(tti, 95))} (budget ${TTI_BUDGET_MS} ms); DOMContentLoaded p50 ${ms(pct(dcl, 50))}`);

// 3. One input change: recompute and redraw (including the canvas effect), p95 against a frame.
async function inputLatency(query, selector, values) {
  const ctx = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const page = await ctx.newPage();
  await page.goto(srv.url + query);
  await page.waitForSelector(selector);
  const [times, draws] = await page.evaluate(async ([sel, vals]) => {
    const settle = () => new Promise((r) => { const c = new MessageChannel(); c.port1.onmessage = r; c.port2.postMessage(0); });
    const out = [];
    for (let i = 0; i < 60; i++) {
      const el = document.querySelector(sel);
      const t0 = performance.now();
      if (el.type === 'checkbox') el.checked = !el.checked; else el.value = vals[i % vals.length];
      el.dispatchEvent(new Event('change', { bubbles: true }));
      await settle();
      out.push(performance.now() - t0);
      const c = document.querySelector('#roofline-canvas');
      if (c) (window.drawMs ??= []).push(Number(c.dataset.drawMs));
    }
    return [out, window.drawMs ?? []];
  }, [selector, values]);
  await ctx.close();
  return [times, draws];
}
const [table] = await inputLatency('?page=chips', 'select[name=format]', ['fp8', 'bf16', 'fp16', 'fp32']);
const [chart, draws] = await inputLatency('?page=roofline', 'input[name=rfmt][value=fp8]', []);
// The Workload & TCO page: one input change re-runs the job, its tornado, break-even curve,
// the platforms table and the by-format comparison (the layout-search panel runs in slices).
const [job] = await inputLatency('?page=workload', 'input[name=wgbs]', ['512', '1024', '2048', '768']);
console.log(`workload input change → job, tornado, break-even, platforms recomputed: p50 ${ms(pct(job, 50))}, p95 ${ms(pct(job, 95))}`);
console.log(`input change → table recomputed: p50 ${ms(pct(table, 50))}, p95 ${ms(pct(table, 95))}; → roofline recomputed and redrawn: p50 ${ms(pct(chart, 50))}, p95 ${ms(pct(chart, 95))}, of which drawing the canvas p50 ${ms(pct(draws, 50))}, p95 ${ms(pct(draws, 95))} (budget ${FRAME_MS} ms)`);
// 4. The link-level simulation in the browser: all-reduce of 1 GiB on the 4×4×16 torus.
const simMs = [];
for (let i = 0; i < 5; i++) {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.goto(srv.url + '?page=collectives&csys=trn2-ultra-256&cop=all-reduce&calgo=torus,bi-ring&nodes=1&size=1GiB');
  await page.waitForSelector('#collective-table td[data-sim-ms]');
  simMs.push(...(await page.$$eval('#collective-table td[data-sim-ms]', (tds) => tds.map((t) => Number(t.dataset.simMs)))));
  await ctx.close();
}
console.log(`simulated all-reduce on trn2-ultra-256 in the browser (torus and bi-ring schedules): median ${ms(pct(simMs, 50))}, max ${ms(Math.max(...simMs))} (budget 100 ms)`);
await browser.close();
await srv.close();

const over = [];
if (total > SIZE_BUDGET) over.push('transfer size');
if (pct(tti, 95) > TTI_BUDGET_MS) console.log('note: interactive time over budget on this machine');
if (pct(chart, 95) > FRAME_MS || pct(table, 95) > FRAME_MS) console.log('note: input latency over one frame on this machine');
if (over.length) {
  console.log(`over budget: ${over.join(', ')}`);
  process.exit(1);
}
