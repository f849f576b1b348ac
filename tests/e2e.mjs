// End-to-end tests: the built dist/ served by a plain static server, driven in Chromium.
// Prints `N passed, N failed` last; exits non-zero on any failure.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from './server.mjs';
import { launch } from './browser.mjs';

mkdirSync('out', { recursive: true });
const srv = await serve(process.env.DIST ?? '../dist');
const browser = await launch();
const tests = [];
const test = (name, fn) => tests.push({ name, fn });

/** A page that records every request and every console error or page error. */
async function open(query = '', viewport = { width: 1366, height: 900 }) {
  const ctx = await browser.newContext({ viewport });
  const page = await ctx.newPage();
  page.requests = [];
  page.errors = [];
  page.on('request', (r) => page.requests.push(r.url()));
  page.on('pageerror', (e) => page.errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && page.errors.push(m.text()));
  await page.goto(srv.url + query);
  await page.waitForSelector('main h1');
  // A page with its own module shows a placeholder until its code has loaded and mounted, and
  // so does a part of a page built as a module of its own (the Workload page's views below
  // its answer); their views then start, a frame later, and those worked out in the worker
  // are marked updating until their replies arrive.
  await page.waitForSelector('.lazy-loading', { state: 'detached', timeout: 30000 });
  await page.waitForSelector('.lazy-loading-part', { state: 'detached', timeout: 30000 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 0)))));
  await settled(page);
  return page;
}

/** The names of the wasm files `page` (from `open`) has requested so far. */
const wasmFetched = (page) => page.requests.map((u) => new URL(u).pathname.split('/').pop()).filter((f) => f.endsWith('.wasm'));

/** Wait until the views a page works out after an input's paint have caught up with it. */
const settled = (page) => page.waitForFunction(() => !document.querySelector('.deferred.updating'), null, { timeout: 30000 });

/** The CLI's JSON for `args`: the same engine, to hold the page's figures to. */
const CLI = process.env.ACCELSCOPE_CLI ?? ['../target/release/accelscope', '../target/debug/accelscope'].find(existsSync);
const cli = (args) => JSON.parse(execFileSync(CLI, args, { encoding: 'utf8' }));
// Today's link version, from the key table (one place).
const V = cli(['keys', '--json']).version;
/** Equal to 1e-9 of the larger. */
const near = (a, b) => Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));

const headers = (page) => page.$$eval('#chips-table thead th[data-chip]', (ths) => ths.map((t) => t.dataset.chip));
const query = (page) => new URL(page.url()).searchParams;
/** Wait until the address bar reflects the state (it is written after a short debounce). */
const urlHas = (page, key, value) =>
  page.waitForFunction(([k, v]) => new URLSearchParams(location.search).get(k) === v, [key, value]);

test('chips page opens with the default comparison and sourced figures', async () => {
  const page = await open();
  assert.deepEqual(await headers(page), ['trn2', 'trn3', 'h100-sxm', 'gb300', 'tpu-v6e']);
  const table = await page.textContent('#chips-table');
  // AWS Neuron Trainium2 architecture page: 667 TFLOP/s BF16 dense; NVIDIA H100: 989.4 dense.
  assert.match(table, /667 TFLOP\/s/);
  assert.match(table, /989\.4 TFLOP\/s/);
  // Hovering a figure shows its source.
  const fig = page.locator('th[data-chip="trn2"]').locator('xpath=ancestor::table').locator('tbody tr').first().locator('td').first().locator('.fig');
  await fig.hover();
  const tip = fig.locator('.tip');
  assert.ok(await tip.isVisible(), 'tooltip visible on hover');
  assert.match(await tip.textContent(), /Source: .*Trainium2/);
  assert.ok((await page.locator('.badge.est').count()) > 0, 'estimates are badged');
  await page.screenshot({ path: 'out/e2e-chips.png', fullPage: true });
  assert.deepEqual(page.errors, []);
});

test('changing format and chips updates the table and the link; reload restores it', async () => {
  const page = await open();
  await page.selectOption('select[name=format]', 'fp8');
  await page.uncheck('input[name=chip][value="tpu-v6e"]');
  await page.check('input[name=chip][value="h200"]');
  const table = await page.textContent('#chips-table');
  assert.match(table, /FP8 dense/);
  assert.match(table, /1\.299 PFLOP\/s/); // Trn2 FP8 dense, AWS Neuron
  assert.deepEqual(await headers(page), ['trn2', 'trn3', 'h100-sxm', 'gb300', 'h200']);
  await urlHas(page, 'chips', 'trn2,trn3,h100-sxm,gb300,h200');
  assert.equal(query(page).get('fmt'), 'fp8');
  const link = page.url();
  await page.reload();
  await page.waitForSelector('#chips-table');
  assert.deepEqual(await headers(page), ['trn2', 'trn3', 'h100-sxm', 'gb300', 'h200']);
  assert.equal(await page.$eval('select[name=format]', (s) => s.value), 'fp8');
  // The same link in a fresh browser context gives the same view.
  const other = await open(new URL(link).search);
  assert.deepEqual(await headers(other), ['trn2', 'trn3', 'h100-sxm', 'gb300', 'h200']);
  assert.equal(await other.textContent('#chips-table'), await page.textContent('#chips-table'));
});

test('roofline chart redraws when formats and chips change, and its state is a link', async () => {
  const page = await open('?page=roofline');
  const canvas = page.locator('#roofline-canvas');
  assert.equal(await canvas.getAttribute('data-roofs'), '5');
  const before = await canvas.evaluate((c) => c.toDataURL());
  await page.check('input[name=rfmt][value=fp8]');
  await page.waitForFunction(() => document.querySelector('#roofline-canvas').dataset.roofs === '10');
  const after = await canvas.evaluate((c) => c.toDataURL());
  assert.notEqual(before, after, 'the pixels changed');
  await page.uncheck('input[name=chip][value="gb300"]');
  await page.waitForFunction(() => document.querySelector('#roofline-canvas').dataset.roofs === '8');
  await settled(page);
  // Reading a point: the first GEMM is compute-bound on Trn2, batch-1 decode memory-bound.
  const rows = await page.$$eval('#roofline-table tbody tr', (trs) => trs.map((t) => t.textContent));
  assert.match(rows[0], /GEMM 8192×8192×8192.*compute-bound/);
  assert.match(rows[2], /LLM decode.*b=1.*memory-bound/);
  await urlHas(page, 'rfmt', 'bf16,fp8');
  await urlHas(page, 'chips', 'trn2,trn3,h100-sxm,tpu-v6e');
  const link = new URL(page.url()).search;
  const again = await open(link);
  assert.equal(await again.locator('#roofline-canvas').getAttribute('data-roofs'), '8');
  assert.equal(await again.locator('#roofline-canvas').evaluate((c) => c.toDataURL()), await canvas.evaluate((c) => c.toDataURL()));
  await page.screenshot({ path: 'out/e2e-roofline.png', fullPage: true });
  assert.deepEqual(page.errors, []);
});

test('pointing at the chart reads every roof at that intensity', async () => {
  const page = await open('?page=roofline');
  const box = await page.locator('#roofline-canvas').boundingBox();
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5);
  const readout = page.locator('.readout');
  await readout.waitFor();
  const text = await readout.textContent();
  assert.match(text, /FLOP\/B/);
  assert.equal(await readout.locator('li').count(), 5);
  assert.match(text, /Trainium2 BF16: .*-bound/);
  await page.mouse.move(box.x - 20, box.y - 20);
  await readout.waitFor({ state: 'detached' });
});

test('adding an operation validates it and places it on the chart', async () => {
  const page = await open('?page=roofline');
  const n = await page.locator('#roofline-table tbody tr').count();
  await page.fill('input[name=op-values]', '1,2');
  await page.click('form.add-op button[type=submit]');
  assert.match(await page.textContent('.error'), /gemm takes M,N,K/);
  await page.fill('input[name=op-values]', '64,4096,4096');
  await page.click('form.add-op button[type=submit]');
  await settled(page);
  assert.equal(await page.locator('#roofline-table tbody tr').count(), n + 1);
  assert.equal(await page.locator('.error').count(), 0);
  await page.waitForFunction(() => new URLSearchParams(location.search).getAll('op').includes('gemm:64,4096,4096'));
});

test('navigation links switch pages in place and open directly', async () => {
  const page = await open();
  await page.click('nav a:has-text("Roofline")');
  await page.waitForSelector('#roofline-canvas');
  // Links carry only what differs from the defaults: the default Chips view is `?v=` and today's version.
  const href = await page.getAttribute('nav a:has-text("Chips")', 'href');
  assert.equal(href, `?v=${V}`);
  assert.equal(await page.getAttribute('nav a:has-text("Workload")', 'href'), `?v=${V}&page=workload`);
  await page.click('nav a:has-text("Compare")');
  await page.waitForSelector('.compare-page');
  // A page with its own module loads it when opened, and leaves cleanly for another page.
  await page.click('nav a:has-text("Kernels")');
  await page.waitForSelector('.kernels-page .kform');
  await page.click('nav a:has-text("Workload")');
  await page.waitForSelector('.card');
  await page.click('nav a:has-text("Kernels")');
  await page.waitForSelector('.kernels-page .kform');
  assert.equal(await page.locator('.kernels-page').count(), 1);
  assert.deepEqual(page.errors, []);
});

test('phone: a figure\'s source opens on screen whatever its column, and a tap beneath it reaches the page', async () => {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await ctx.newPage();
  await page.goto(srv.url + '?');
  await page.waitForSelector('#chips-table');
  // The last chip's bandwidth: the table scrolls sideways, the figure far right.
  const fig = page.locator('#chips-table tbody tr:nth-child(4) td:last-child .fig').first();
  await fig.scrollIntoViewIfNeeded();
  await fig.tap();
  const tip = fig.locator('.tip');
  await tip.waitFor({ state: 'visible' });
  const box = await tip.boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 390 && box.y >= 0 && box.y + box.height <= 844, JSON.stringify(box));
  // What lies under the tip's text is the page, not the tip; its source link still takes a tap.
  const under = await page.evaluate(([x, y]) => document.elementFromPoint(x, y)?.closest('.tip') === null, [box.x + 4, box.y + box.height - 4]);
  assert.ok(under, 'the tip caught the tap');
  const link = tip.locator('a').first();
  if (await link.count()) {
    const l = await link.boundingBox();
    assert.ok(await page.evaluate(([x, y]) => document.elementFromPoint(x, y)?.closest('a') !== null, [l.x + l.width / 2, l.y + l.height / 2]));
  }
  await ctx.close();
});

test('every field and button on every page has a name a screen reader says, folded ones included', async () => {
  for (const q of ['?', '?page=roofline', '?page=topology', '?page=collectives', '?page=workload', '?page=kernels', '?page=compare', '?page=learn']) {
    const page = await open(q);
    await page.evaluate(() => document.querySelectorAll('details').forEach((d) => (d.open = true)));
    await page.waitForTimeout(300);
    const unnamed = await page.evaluate(() =>
      [...document.querySelectorAll('input, select, textarea, button')]
        .filter((e) => e.type !== 'hidden')
        .filter((e) => {
          const by = e.getAttribute('aria-labelledby');
          return !(
            e.getAttribute('aria-label') ||
            (by && document.getElementById(by)?.textContent.trim()) ||
            [...(e.labels ?? [])].some((l) => l.textContent.trim()) ||
            e.title ||
            (e.tagName === 'BUTTON' && e.textContent.trim())
          );
        })
        .map((e) => e.outerHTML.slice(0, 120)),
    );
    assert.deepEqual(unnamed, [], q);
    await page.context().close();
  }
});

test('a malformed link shows a notice and keeps what it could read', async () => {
  const page = await open('?v=1&page=nowhere&chips=trn2,bogus,h200&fmt=fp7&op=gemm:1&zz=%E0%A4%A');
  const notice = await page.textContent('.notice');
  assert.match(notice, /could not be read/);
  assert.match(notice, /bogus/);
  assert.match(notice, /fp7/);
  assert.deepEqual(await headers(page), ['trn2', 'h200']);
  assert.equal(await page.$eval('select[name=format]', (s) => s.value), 'bf16');
  assert.equal(await page.locator('#panic-panel').count(), 0);
  // The address now holds what was read; the notice keeps the link as it came.
  assert.ok(!new URL(page.url()).search.includes('bogus'));
  assert.equal(await page.textContent('#opened-link'), '?v=1&page=nowhere&chips=trn2,bogus,h200&fmt=fp7&op=gemm:1&zz=%E0%A4%A');
  await page.click('.notice button');
  assert.equal(await page.locator('.notice').count(), 0);
});

test('a custom chip travels in the link, marked as custom with its edited figure', async () => {
  const custom = encodeURIComponent('trn2|name=Trn2 at 4 TB/s|hbm_bytes_per_s=4e12');
  const page = await open(`?chips=custom-1,trn2&custom=${custom}`);
  assert.deepEqual(await headers(page), ['custom-1', 'trn2']);
  const head = await page.textContent('th[data-chip="custom-1"]');
  assert.match(head, /Trn2 at 4 TB\/s/);
  assert.match(head, /custom/);
  const table = await page.textContent('#chips-table');
  assert.match(table, /4 TB\/s/);
  assert.match(table, /edited/);
  // Ridge point follows the edit: 667 TFLOP/s / 4 TB/s = 166.8.
  assert.match(table, /166\.8/);
});

test('phone width: nothing overflows the page; tables scroll inside their frame', async () => {
  for (const q of ['?page=chips', '?page=roofline', '?page=topology', '?page=collectives', '?page=workload', '?page=kernels']) {
    const page = await open(q, { width: 390, height: 844 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `${q}: page is ${overflow}px wider than the screen`);
    await page.screenshot({ path: `out/e2e-phone-${q.split('=')[1]}.png`, fullPage: true });
  }
});

test('nothing leaves the page: every request goes to the app\'s own server', async () => {
  const page = await open('?page=roofline');
  await page.click('nav a:has-text("Chips")');
  await page.waitForSelector('#chips-table');
  const foreign = page.requests.filter((u) => !u.startsWith(srv.url) && !u.startsWith('data:') && !u.startsWith('blob:'));
  assert.deepEqual(foreign, []);
});

test('topology: a link opens the drawing; clicking shows hop distances and a failure its blast radius', async () => {
  const page = await open('?page=topology&sys=trn2-ultra-64&sel=0');
  const svg = page.locator('#topology-svg');
  assert.equal(await svg.getAttribute('data-chips'), '64');
  assert.equal(await svg.locator('g.chip').count(), 64);
  // 4×4×4 torus: chip 0 is 6 hops from the far corner (2 + 2 + 2).
  assert.equal(await svg.locator('g.chip[data-chip="42"]').getAttribute('data-hops'), '6');
  assert.equal(await page.textContent('[data-figure="diameter"]'), '6 hops');
  assert.equal(await page.textContent('[data-figure="bisection"]'), '2.048 TB/s');
  await svg.locator('g.chip[data-chip="21"]').click();
  assert.equal(await svg.locator('g.chip[data-chip="21"]').getAttribute('data-hops'), '0');
  await urlHas(page, 'sel', '21');
  await page.check('input[name=mark-failed]');
  await svg.locator('g.chip[data-chip="5"]').click();
  assert.match(await page.textContent('.blast'), /all 64 chips/);
  await urlHas(page, 'fail', '5');
  // The 16-chip torus is drawn beside its hypercube.
  await page.selectOption('select[name=system]', 'trn2-16');
  assert.equal(await page.locator('#hypercube-svg g.chip').count(), 16);
  // A switch: one failure takes out its tray only.
  const nvl = await open('?page=topology&sys=gb200-nvl72&fail=9');
  assert.match(await nvl.textContent('.blast'), /service unit of 4 chips/);
  assert.equal(await nvl.textContent('[data-figure="blast"]'), '4 chips');
  await page.screenshot({ path: 'out/e2e-topology.png', fullPage: true });
  assert.deepEqual(page.errors, []);
});

test('the added systems are on every page, and Trn3 is drawn as AWS itemises its links', async () => {
  const added = ['mi300x-8', 'mi355x-8', 'hgx-b300-8', 'vr-nvl72', 'helios-72', 'tpu-v5p-512', 'tpu7x-512'];
  const topo = await open('?page=topology&sys=trn3-ultra-144&sel=0');
  const options = await topo.$$eval('select[name=system] option', (os) => os.map((o) => o.value));
  for (const id of added) assert.ok(options.includes(id), `topology lacks ${id}`);
  // Two racks of 18 servers × 4 chips: one hop inside a rack or to the same position across.
  assert.equal(await topo.textContent('[data-figure="diameter"]'), '2 hops');
  const svg = topo.locator('#topology-svg');
  assert.equal(await svg.locator('g.chip[data-chip="72"]').getAttribute('data-hops'), '1');
  assert.equal(await svg.locator('g.chip[data-chip="73"]').getAttribute('data-hops'), '2');
  // AWS's 128 GB/s "of bidirectional bandwidth" between racks, read as labelled: 64 each way.
  assert.match(await topo.textContent('#topology-figures'), /direct to the other rack, per chip, per direction\s*64 GB\/s/);
  const coll = await open('?page=collectives&csys=mi300x-8,tpu7x-512&cop=all-reduce&calgo=auto&nodes=1&size=1GiB');
  assert.equal(await coll.locator('#collective-table tbody tr').count(), 2);
  for (const id of added) assert.equal(await coll.locator(`input[name=csys][value="${id}"]`).count(), 1, id);
  const work = await open('?page=workload&wsys=mi325x-8&wnodes=8');
  const wopts = await work.$$eval('select[name=wsys] option', (os) => os.map((o) => o.value));
  for (const id of added) assert.ok(wopts.includes(id), `workload lacks ${id}`);
  assert.ok(Number(await work.getAttribute('#tokens-per-s', 'data-value')) > 0);
  assert.deepEqual([...topo.errors, ...coll.errors, ...work.errors], []);
});

test('an edited system opens from a link on every page, and the editor makes one', async () => {
  // Trn2 reshaped to a 4×8 torus with a slower second axis, 400 Gb/s out and $3.50 per chip-hour.
  const spec = 'edit:trn2-16;torus=4x8;links=128/64;out=400;usd=3.5';
  const q = encodeURIComponent(spec);
  const topo = await open(`?page=topology&sys=${q}&sel=0`);
  assert.equal(await topo.locator('#topology-svg').getAttribute('data-chips'), '32');
  assert.match(await topo.textContent('#topology-figures'), /axis Y \(8\) link, per direction\s*64 GB\/s/);
  assert.match(await topo.textContent('#topology-figures'), /edited/);
  // The editor: back to a 64-chip switch; the link carries the new spec.
  await topo.click('#edit-system summary');
  await topo.fill('input[name=edit-shape]', '64');
  await topo.fill('input[name=edit-links]', '640');
  await topo.click('#edit-apply');
  await topo.waitForFunction(() => document.querySelector('#topology-svg')?.dataset.chips === '64');
  await topo.waitForFunction(() => (new URLSearchParams(location.search).get('sys') || '').startsWith('edit:trn2-16;switch=64;links=640;out=400;'));
  await topo.fill('input[name=edit-links]', 'fast');
  await topo.click('#edit-apply');
  assert.match(await topo.textContent('#edit-system .error'), /not a valid links/);
  const work = await open(`?page=workload&wsys=${q}&wnodes=2`);
  assert.equal(Number(await work.getAttribute('#rate', 'data-value')), 3.5);
  assert.ok(Number(await work.getAttribute('#tokens-per-s', 'data-value')) > 0);
  assert.equal(await work.locator(`select[name=wsys] option[value="${spec}"]`).count(), 1);
  const coll = await open(`?page=collectives&csys=hgx-h100-8,${q}&cop=all-reduce&calgo=auto&nodes=1&size=1GiB`);
  assert.equal(await coll.locator('#collective-table tbody tr').count(), 2);
  assert.ok(await coll.locator(`input[name=csys][value="${spec}"]`).isChecked());
  // A broken edit in a link is reported and the default shown.
  const bad = await open(`?page=topology&sys=${encodeURIComponent('edit:trn2-16;torus=4xq')}`);
  assert.match(await bad.textContent('.notice'), /torus/);
  assert.deepEqual([...topo.errors, ...work.errors, ...coll.errors, ...bad.errors], []);
});

test('collectives: a link opens the charts and the table, with measurements beside the model', async () => {
  const page = await open('?page=collectives&csys=hgx-h200-8,trn2-ultra-64&cop=all-reduce&calgo=ring,auto&nodes=1&size=8GiB');
  assert.equal(await page.locator('#collective-time').getAttribute('data-series'), '4');
  const rows = await page.$$eval('#collective-table tbody tr', (trs) => trs.map((t) => t.textContent));
  assert.equal(rows.length, 4);
  // 8 × H200 ring all-reduce of 8 GiB: measured 365.6 GB/s busbw (MLE-NET); the model is within 15%.
  const busbw = Number(await page.getAttribute('#collective-table tbody tr:first-child td[data-busbw]', 'data-busbw'));
  assert.ok(Math.abs(busbw / 365.6e9 - 1) < 0.15, `busbw ${busbw}`);
  assert.match(rows[3], /torus/);
  assert.match(await page.textContent('#calibration-table'), /365\.6 GB\/s/);
  const before = await page.locator('#collective-busbw').evaluate((c) => c.toDataURL());
  await page.check('input[name=cop][value=all-gather]');
  await page.waitForFunction(() => document.querySelector('#collective-time').dataset.series === '8');
  assert.notEqual(await page.locator('#collective-busbw').evaluate((c) => c.toDataURL()), before);
  await page.fill('input[name=size]', '-3GiB');
  await page.press('input[name=size]', 'Enter');
  assert.match(await page.textContent('.error'), /positive/);
  await page.fill('input[name=nodes]', '4');
  await page.press('input[name=nodes]', 'Enter');
  await urlHas(page, 'nodes', '4');
  assert.match(await page.textContent('#collective-table'), /hierarchical/);
  await page.screenshot({ path: 'out/e2e-collectives.png', fullPage: true });
  assert.deepEqual(page.errors, []);
});

test('workload & TCO: a link opens the job and the headline numbers agree with each other', async () => {
  const page = await open('?page=workload&wsys=hgx-h100-8&wnodes=8&wmodel=llama3-8b&wdtype=bf16&wtokens=1e11&wgbs=512&wprice=2');
  const num = async (id) => Number(await page.getAttribute(`#${id}`, 'data-value'));
  const tps = await num('tokens-per-s');
  const cost = await num('cost');
  // cost = tokens ÷ tokens/s ÷ 3600 × 64 chips × $2 per chip-hour.
  const expected = 1e11 / tps / 3600 * 64 * 2;
  assert.ok(Math.abs(cost / expected - 1) < 0.01, `cost ${cost} vs ${expected}`);
  assert.match(await page.textContent('#rate'), /\$2/);
  const mfu = await num('mfu');
  assert.ok(mfu > 0.1 && mfu < 0.8, `MFU ${mfu}`);
  assert.equal(await num('rate'), 2);
  await page.waitForSelector('#tornado .swing');
  assert.ok((await page.locator('#tornado .swing').count()) >= 4);
  // Break-even: moving the price until this job costs what the reference platform costs.
  await page.selectOption('select[name=wlever]', 'price');
  await page.selectOption('select[name=wref]', 'gb300-nvl72');
  await urlHas(page, 'wref', 'gb300-nvl72');
  // The curve comes from the worker: wait for the reply to these settings.
  await settled(page);
  await page.waitForFunction(() => /GB300 NVL72/.test(document.querySelector('#breakeven-text')?.textContent ?? ''));
  const be = Number(await page.getAttribute('#breakeven', 'data-break-even'));
  assert.ok(be > 0, `break-even price ${be}`);
  assert.match(await page.textContent('#breakeven-text'), /matches GB300 NVL72 at \$ per chip-hour/);
  assert.ok((await num('energy')) > 0, 'energy per token');
  // Failures: goodput below one, and the real time to train beyond the failure-free one.
  const goodput = await num('goodput');
  assert.ok(goodput > 0.8 && goodput < 1, `goodput ${goodput}`);
  assert.match(await page.textContent('#goodput'), /chips per failure.*spare chips; failures add \$/);
  await page.waitForSelector('#platforms-table td[data-goodput]');
  const good = await page.$$eval('#platforms-table td[data-goodput]', (tds) => tds.map((t) => Number(t.dataset.goodput)));
  assert.ok(good.length >= 5 && good.every((g) => g > 0.5 && g < 1), `${good}`);
  // The same job on other platforms, each with a cost per token.
  const priced = await page.$$eval('#platforms-table td[data-train-mtok]', (tds) => tds.map((t) => Number(t.dataset.trainMtok)));
  assert.ok(priced.length >= 5 && priced.every((x) => x > 0), `${priced}`);
  // Doubling the price doubles the cost of the run.
  await page.fill('input[name=wprice]', '4');
  await page.press('input[name=wprice]', 'Enter');
  await page.waitForFunction((c) => Math.abs(Number(document.querySelector('#cost').dataset.value) / (2 * c) - 1) < 1e-6, cost);
  await urlHas(page, 'wprice', '4');
  // Bad input is refused with a message; the rest stays.
  await page.fill('input[name=wnodes]', 'many');
  await page.press('input[name=wnodes]', 'Enter');
  assert.match(await page.textContent('.inputs .error'), /not a number/);
  // Owning shows the breakdown of a chip-hour (below the answer: it follows after the paint).
  await page.check('input[name=wown]');
  await page.waitForFunction(() => /capital/.test(document.querySelector('#cost-breakdown')?.textContent ?? ''));
  await page.screenshot({ path: 'out/e2e-workload.png', fullPage: true });
  assert.deepEqual(page.errors, []);
});

test('workload & TCO: the default job states its ranges with their evidence, its rate\'s source and the vendors\' claims', async () => {
  const page = await open('?page=workload');
  const band = async (id) => [Number(await page.getAttribute(`#${id}`, 'data-low')), Number(await page.getAttribute(`#${id}`, 'data-high'))];
  // Each range is the engine's for this job, read on the same day: the CLI gives the same.
  const today = await page.evaluate(() => new Date().toISOString().slice(0, 10));
  const want = cli(['eval', '--today', today, '--link', `?v=${V}&page=workload`]);
  for (const [id, card, figure] of [
    ['tps-band', 'tokens-per-s', 'tokens_per_s'],
    ['mfu-band', 'mfu', 'mfu'],
    ['time-band', 'time', 'time_s'],
    ['cost-band', 'cost', 'cost_usd'],
    ['mtok-band', 'train-mtok', 'train_cost_per_mtok_usd'],
    ['serve-mtok-band', 'infer-mtok', 'infer_cost_per_mtok_usd'],
    ['serve-band', null, 'infer_tokens_per_s_per_chip'],
  ]) {
    const [lo, hi] = await band(id);
    const r = want.ranges[figure];
    assert.ok(near(lo, r.low) && near(hi, r.high), `${id}: ${lo}..${hi} against ${r.low}..${r.high}`);
    assert.equal(Number(await page.getAttribute(`#${id}`, 'data-points')), r.evidence.points, id);
    assert.equal(await page.getAttribute(`#${id}`, 'data-same-chip'), String(r.evidence.same_chip), id);
    if (card) {
      const x = Number(await page.getAttribute(`#${card}`, 'data-value'));
      assert.ok(near(x, want[figure]) && lo <= x && x <= hi, `${card}: ${x} in ${lo}..${hi}`);
    }
  }
  // The errors behind the ranges were worked out in the worker, not on the page's thread.
  assert.ok(page.requests.some((u) => u.endsWith('worker_bg.wasm')), 'the ranges come from the worker');
  // No Trainium2 training run is held out, and the page says so beside the figure.
  assert.match(await page.textContent('#cost'), /no Trainium2 training run held out/);
  // The Trn2 rate is AWS's published Capacity Block price (trn2.48xlarge ÷ 16), dated.
  assert.ok(near(Number(await page.getAttribute('#rate', 'data-value')), 35.7608 / 16));
  assert.equal(await page.textContent('#price-basis'), `capacity-block price as of 2026-07, ${want.price_age_months} month${want.price_age_months === 1 ? '' : 's'} old`);
  const note = await page.textContent('#band-note');
  assert.ok(note.includes(want.ranges.cost_usd.caveat), note);
  assert.ok(note.includes(want.ranges.infer_cost_per_mtok_usd.caveat), note);
  assert.match(note, /trn2\.48xlarge \$35\.7608\/h/);
  assert.match(note, /fitted to the Trn1 GPT-3 175B run/);
  // One serving cost: the cheapest configuration meeting the page's targets, and it says so.
  assert.equal(await page.getAttribute('#serve-targets', 'data-meets'), 'true');
  assert.match(await page.textContent('#serve-targets'), /cheapest configuration meeting TTFT ≤ 2 s, TPOT ≤ 50 ms/);
  // The verdict on every basis, in the engine's words.
  await page.waitForFunction(() => document.querySelector('#basis-verdict')?.textContent.length > 0);
  assert.equal(await page.textContent('#basis-verdict'), want.basis_verdict);
  // Vendors' claims are evaluated when the panel opens, each beside the model's figure.
  await page.click('#claims summary');
  await page.waitForSelector('#claims-table tbody tr');
  const rows = await page.$$eval('#claims-table tbody tr', (rs) => rs.map((r) => [Number(r.dataset.claimed), Number(r.dataset.model)]));
  assert.ok(rows.length >= 3 && rows.every(([c, m]) => c > 1 && m > 0), `${rows}`);
  await page.screenshot({ path: 'out/e2e-workload-default.png', fullPage: true });
  assert.deepEqual(page.errors, []);
});

test('price basis: Trn2 and H100 priced alike by default; another basis is one choice away and travels in the link', async () => {
  const page = await open('?page=workload');
  const origin = async () => [await page.getAttribute('#price-basis', 'data-kind'), await page.getAttribute('#price-basis', 'data-as-of'), await page.getAttribute('#price-basis', 'data-fell-back')];
  const trn2 = await origin();
  assert.deepEqual(trn2, ['capacity-block', '2026-07', 'false']);
  // The same job on other platforms: H100 on the very same basis; GB300 has no published rate and says so.
  const row = (id) => page.locator(`#platforms-table tr[data-system="${id}"]`);
  await page.waitForSelector('#platforms-table tr[data-system="hgx-h100-8"]');
  assert.equal(await row('hgx-h100-8').getAttribute('data-price-as-of'), '2026-07');
  assert.match(await row('gb300-nvl72').textContent(), /no rate on the basis: assumed as of 2026-07/);
  // Choosing an older basis reprices H100 from $5.19 (July 2026 Capacity Block) to $6.88 and
  // Trn2, which has no on-demand rate on it, falls back with a warning.
  await page.selectOption('select[name=wsys]', 'hgx-h100-8');
  await page.waitForFunction(() => Math.abs(Number(document.querySelector('#rate')?.dataset.value) - 41.528 / 8) < 1e-6);
  await page.selectOption('select[name=wbasis]', 'on-demand@2025-11-30');
  await urlHas(page, 'wbasis', 'on-demand@2025-11-30');
  await page.waitForFunction(() => Math.abs(Number(document.querySelector('#rate')?.dataset.value) - 6.88) < 1e-6);
  assert.match(await page.textContent('#price-basis'), /on-demand price as of 2025-11-30/);
  await page.selectOption('select[name=wsys]', 'trn2-ultra-64');
  await page.waitForFunction(() => document.querySelector('#price-basis')?.dataset.fellBack === 'true');
  assert.match(await page.textContent('#price-basis'), /no rate on the basis chosen/);
  // Owning Trainium is a what-if.
  await page.check('input[name=wown]');
  assert.match(await page.textContent('#owned-what-if'), /what-if/);
  // A link from before price bases opens with the rate it was made with, and one of version 4
  // with the basis of its day.
  const old = await open('?v=3&page=workload&wsys=hgx-h100-8');
  assert.ok(Math.abs(Number(await old.getAttribute('#rate', 'data-value')) - 6.88) < 1e-6);
  const v4 = await open('?v=4&page=workload');
  assert.ok(near(Number(await v4.getAttribute('#rate', 'data-value')), 85.964 / 16));
  assert.deepEqual(page.errors, []);
  assert.deepEqual(old.errors, []);
  assert.deepEqual(v4.errors, []);
});

test('link figures: Trn2 and Trn3 read alike, and the other reading is one click away with its effect', async () => {
  const page = await open('?page=workload&wsys=trn3-ultra-144&wnodes=2');
  await page.waitForSelector('#link-reading');
  assert.equal(await page.getAttribute('#link-reading', 'data-reading'), 'labelled');
  assert.match(await page.textContent('#link-reading'), /128 \/ 160 \/ 64 GB\/s per direction/);
  // The other reading's effect comes from the worker.
  await page.waitForFunction(() => /per million tokens instead of/.test(document.querySelector('#link-reading-effect')?.textContent));
  await page.click('#link-reading button');
  await urlHas(page, 'wread', 'per-direction');
  await page.waitForFunction(() => document.querySelector('#link-reading')?.dataset.reading === 'per-direction');
  assert.match(await page.textContent('#link-reading'), /In use: read per direction/);
  // A GPU platform has no such reading to make.
  await page.selectOption('select[name=wsys]', 'hgx-h100-8');
  await page.waitForSelector('#link-reading', { state: 'detached' });
  assert.deepEqual(page.errors, []);
});

test('workload & TCO: Trn3 against GB300 by format, racks, and a layout search that finishes', async () => {
  const page = await open('?page=workload&wsys=trn3-ultra-144&wnodes=2&wmodel=deepseek-v3&wdtype=fp8&wprice=6&wref=gb300-nvl72&wov=0.2&wpr=2048&wout=512');
  const ratio = async (f) => Number(await page.getAttribute(`#by-format g[data-format=${f}]`, 'data-ratio'));
  // At $6 against GB300's rate, Trainium3 wins per marketed FP8 PFLOP-hour and loses at FP4,
  // where GB300's dense rate triples its FP8 one and Trainium3's stays the same.
  const fp8 = await ratio('fp8');
  const fp4 = await ratio('fp4');
  assert.ok(fp8 < 1, `FP8 ratio ${fp8}`);
  assert.ok(fp4 > 1, `FP4 ratio ${fp4}`);
  assert.ok(Math.abs(fp4 / fp8 - 3) < 0.01, `FP4/FP8 ${fp4 / fp8}`);
  assert.match(await page.textContent('#by-format-text'), /dearer in .*FP4/);
  // Serving with the link's prompt and output lengths; a longer output changes the result.
  const serving = Number(await page.getAttribute('#serving', 'data-value'));
  assert.ok(serving > 0, `serving ${serving}`);
  assert.match(await page.textContent('#serving'), /tok\/s per chip/);
  await page.fill('input[name=wout]', '4096');
  await page.press('input[name=wout]', 'Enter');
  await urlHas(page, 'wout', '4096');
  await page.waitForFunction((v) => Number(document.querySelector('#serving').dataset.value) !== v, serving);
  // 288 chips at 72 per rack.
  assert.equal(Number(await page.getAttribute('#racks', 'data-value')), 4);
  // A mixture of experts: the busiest expert rank sets the pace, and the link keeps it.
  const balanced = Number(await page.getAttribute('#tokens-per-s', 'data-value'));
  await page.fill('input[name=wimb]', '1.5');
  await page.press('input[name=wimb]', 'Enter');
  await urlHas(page, 'wimb', '1.5');
  await page.waitForFunction((v) => Number(document.querySelector('#tokens-per-s').dataset.value) < v, balanced);
  // The overlap from the link is used.
  assert.match(await page.textContent('.workload-page'), /20% of communication hidden/);
  // Opened, the layout search runs to the end in slices and lists the fastest layouts.
  await page.click('#layout-search summary');
  await page.waitForFunction(() => {
    const p = document.querySelector('#layout-search progress');
    return p && p.max > 1 && p.value === p.max;
  });
  assert.ok((await page.locator('#layout-search tbody tr').count()) >= 3);
  assert.match(await page.textContent('#layout-search tbody tr'), /ep \d+/);
  // The calibration tables: each point within the bound the engine's one table gives it.
  // They are evaluated and drawn in the worker when the fold first opens.
  await page.click('#run-calibration summary');
  await page.waitForSelector('#run-calibration-table tr[data-role=held-out]', { timeout: 30000 });
  const rows = (sel) => page.$$eval(sel, (rs) => rs.map((r) => [Number(r.dataset.error), Number(r.dataset.tolerance)]));
  const fitted = await rows('#run-calibration-fitted tr[data-role=fitted]');
  assert.ok(fitted.length >= 4 && fitted.every(([e, t]) => t > 0 && Math.abs(e) <= t), `${fitted}`);
  const held = await rows('#run-calibration-table tr[data-role=held-out]');
  assert.ok(held.length >= 8 && held.every(([e, t]) => t > 0 && Math.abs(e) <= t), `${held}`);
  const tuned = await rows('#run-calibration-tuned-against tr[data-role=tuned-against]');
  assert.ok(tuned.length >= 1 && tuned.every(([e, t]) => Math.abs(e) <= t), `${tuned}`);
  await page.screenshot({ path: 'out/e2e-workload-format.png', fullPage: true });
  assert.deepEqual(page.errors, []);
});

test('kernels: a link runs a kernel in a worker and shows its errors; a change updates the link', async () => {
  const page = await open('?page=kernels&kern=gemm&km=96&kn=80&kk=512&kin=fp8e4m3&kw=fp8e4m3');
  await page.waitForSelector('.kresult', { timeout: 30000 });
  // FP8 E4M3 with a per-tensor scale, two rounded operands: ~6.02*4 + 8.1 - 3 ≈ 29 dB.
  const snr = Number(await page.locator('.kresult').getAttribute('data-snr'));
  assert.ok(snr > 26 && snr < 32, `E4M3 GEMM SNR ${snr}`);
  assert.match(await page.textContent('.kresult'), /FP8 E4M3/);
  assert.ok(await page.locator('.khist rect').count() > 10, 'the error histogram is drawn');
  assert.ok(page.requests.some((u) => u.endsWith('worker_bg.wasm')), 'kernels run in the worker');
  // The first page never fetched the kernels' code.
  const first = await open('?');
  await first.waitForSelector('#chips-table');
  assert.ok(!first.requests.some((u) => /kernels|worker|workload/.test(u)), first.requests.join('\n'));
  // A recipe changes both operands and the link; Run shows NVFP4's larger error.
  await page.click('button[data-v=nvfp4]');
  await urlHas(page, 'kin', 'fp4e2m1');
  await urlHas(page, 'kins', 'nv');
  await page.click('button[data-act=run]');
  await page.waitForFunction(() => Number(document.querySelector('.kresult')?.dataset.snr) < 22, null, { timeout: 30000 });
  await page.screenshot({ path: 'out/e2e-kernels.png', fullPage: true });
  assert.deepEqual(page.errors, []);
});

test('kernels: a long run says so before it starts, and Cancel stops it', async () => {
  const page = await open('?page=kernels&km=2048&kn=2048&kk=1024&kacc=bf16');
  await page.waitForSelector('.kest');
  assert.match(await page.textContent('.kest'), /long run/);
  await page.click('button[data-act=run]');
  assert.match(await page.textContent('.kstatus'), /click again/);
  await page.click('button[data-act=run]');
  await page.waitForSelector('.kstatus.working');
  await page.waitForTimeout(500);
  await page.click('button[data-act=cancel]');
  await page.waitForFunction(() => /Cancelled/.test(document.querySelector('.kstatus').textContent));
  assert.equal(await page.locator('.kresult').count(), 0, 'no result after Cancel');
  assert.equal(await page.locator('button[data-act=run]').isDisabled(), false);
  // The page still answers: a small run after the cancel completes.
  await page.fill('input[name=km]', '32');
  await page.fill('input[name=kn]', '32');
  await page.fill('input[name=kk]', '64');
  await page.locator('input[name=kk]').dispatchEvent('change');
  await page.click('button[data-act=run]');
  await page.waitForSelector('.kresult', { timeout: 30000 });
  assert.deepEqual(page.errors, []);
});

test('kernels: the device benchmark draws this machine on the roofline, and the link keeps it', async () => {
  const page = await open('?page=kernels&km=16&kn=16&kk=16');
  await page.click('button[data-act=bench]');
  await page.waitForFunction(() => document.querySelectorAll('.kdev tbody tr').length >= 1 && !document.querySelector('.kstatus.working'), null, { timeout: 90000 });
  const rows = await page.$$eval('.kdev tbody tr', (trs) => trs.map((t) => t.textContent));
  assert.match(rows[0], /1 thread.*GFLOP\/s.*GB\/s/);
  await page.waitForFunction(() => new URLSearchParams(location.search).has('dev'));
  const dev = query(page).get('dev');
  assert.match(dev, /^cpu1:[0-9.e+]+,[0-9.e+]+/);
  await page.click('nav a:has-text("Roofline")');
  await page.waitForSelector('#roofline-canvas');
  await page.waitForFunction((n) => Number(document.querySelector('#roofline-canvas').dataset.roofs) === 5 + n, rows.length);
  await page.screenshot({ path: 'out/e2e-roofline-device.png', fullPage: true });
  // A link with the numbers draws them without measuring again.
  const linked = await open('?page=roofline&dev=cpu1:20,10;cpu4:70,25');
  await linked.waitForFunction(() => document.querySelector('#roofline-canvas')?.dataset.roofs === '7');
  assert.ok(!linked.requests.some((u) => /worker/.test(u)));
  assert.deepEqual(page.errors, []);
});

test('kernels: where WebGPU is offered, the GPU runs the GEMM in WGSL, checked against the CPU', async () => {
  // SwiftShader's software adapter stands in for a GPU; without the flag Chromium offers none.
  const gpuBrowser = await launch(['--enable-unsafe-webgpu']);
  try {
    const ctx = await gpuBrowser.newContext({ viewport: { width: 1366, height: 900 } });
    const page = await ctx.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(srv.url + '?page=kernels&km=16&kn=16&kk=16');
    await page.waitForSelector('#kgpu');
    assert.match(await page.textContent('#kgpu'), /offers WebGPU/);
    await page.click('button[data-act=bench]');
    await page.waitForFunction(() => /^GPU/.test(document.querySelector('#kgpu').textContent), null, { timeout: 170000 });
    assert.match(await page.textContent('#kgpu'), /swiftshader.*256³ GEMM (matches|agrees)/i);
    assert.match(await page.textContent('#kdevice'), /GPU \(WebGPU\)/);
    await page.waitForFunction(() => /gpu:/.test(new URLSearchParams(location.search).get('dev') ?? ''));
    assert.deepEqual(errors, []);
  } finally {
    await gpuBrowser.close();
  }
});

test('hostile links: overflowing operations, vanishing sizes and floods of bad ids are named, never fatal', async () => {
  const roof = await open('?page=roofline&op=gemm:1e103,1e103,1e103&op=gemm:1,2,3');
  await roof.waitForSelector('#roofline-canvas');
  assert.match(await roof.textContent('.notice'), /op.*1e15/s);
  assert.equal(await roof.locator('#roofline-table tbody tr').count(), 1, 'the readable operation stays');
  assert.doesNotMatch(await roof.textContent('#roofline-table'), /NaN|Infinity|inf\b/);
  const coll = await open('?page=collectives&size=1e-304');
  await coll.waitForSelector('#collective-table td[data-sim-ms]', { timeout: 20000 });
  assert.match(await coll.textContent('.notice'), /size.*1 B to 1 PB/s);
  const flood = await open(`?chips=${Array(2000).fill('nope').join(',')}&wnodes=5000`);
  await flood.waitForSelector('#chips-table');
  assert.ok((await flood.locator('.notice li').count()) <= 22);
  assert.match(await flood.textContent('.notice'), /more parts could not be read/);
  for (const p of [roof, coll, flood]) assert.deepEqual(p.errors, []);
});

test('a link to any Leptos page starts from one module holding the app and that page', async () => {
  // The pages the navigation names; the Kernels page, a module without Leptos, starts beside the app's.
  const first = await open('?');
  const pages = (await first.$$eval('nav a', (as) => as.map((a) => new URL(a.href).searchParams.get('page'))))
    .filter((p) => p && p !== 'kernels');
  assert.ok(pages.length >= 6, pages.join(' '));
  await first.context().close();
  for (const p of pages) {
    const page = await open(`?page=${p}`);
    // First that module; then only parts fetched after the answer (the Workload page's views
    // below it) and the worker: neither the app's module nor the page's own.
    const wasm = wasmFetched(page);
    assert.equal(wasm[0], `${p}_app_bg.wasm`, `${p}: ${wasm.join(' ')}`);
    assert.ok(!wasm.some((f) => /^app-[0-9a-f]+_bg\.wasm$/.test(f) || f === `${p}_bg.wasm`), `${p}: ${wasm.join(' ')}`);
    assert.deepEqual(page.errors, [], p);
    await page.context().close();
  }
});

test('compare: kept scenarios survive a reload, sit side by side, and the waterfall adds up', async () => {
  const page = await open('?page=workload&wsys=trn2-ultra-64&wnodes=4');
  const wasm = () => wasmFetched(page);
  // A link to the Workload page starts from the module holding the app and that page; the
  // Compare page, opened from there, comes as its own module.
  assert.ok(wasm().includes('workload_app_bg.wasm') && !wasm().some((f) => /^app-[0-9a-f]+_bg\.wasm$|^workload_bg\.wasm$/.test(f)), wasm().join(' '));
  await page.click('nav a:has-text("Compare")');
  await page.waitForSelector('.compare-page');
  assert.ok(wasm().includes('compare_bg.wasm') && !wasm().includes('compare_app_bg.wasm'), wasm().join(' '));
  // Nothing kept yet: a worked example, the default job against H100 and GB200, with its waterfall.
  await page.waitForSelector('#compare-example');
  assert.equal(await page.locator('#compare-table thead th').count(), 4);
  assert.ok(await page.$('#waterfall'));
  // Headed by platform names, with what each scenario is, formatted for a reader, under a
  // memo's title, date and one-line answer.
  assert.match(await page.textContent('#compare-table thead'), /H100.*GB200/s);
  const rows = await page.$$eval('#compare-table tbody th', (ths) => ths.map((t) => t.textContent));
  for (const r of ['platform', 'model', 'format', 'price basis']) assert.ok(rows.includes(r), rows.join('|'));
  assert.match(await page.textContent('#compare-table tbody'), /as of 20\d\d-\d\d/);
  // A cell's figure, before the range that follows it.
  const runCost = await page.$eval('#compare-table tbody tr:has(th:text-is("cost of the run ($)")) td', (td) => td.firstChild.textContent);
  assert.match(runCost, /^\$[\d.]+ [MB]|^\$[\d,]+$/, runCost);
  assert.match(await page.$eval('#compare-table tbody tr:has(th:text-is("MFU")) td', (td) => td.firstChild.textContent), /^\d+(\.\d+)?%$/);
  assert.match(await page.textContent('#memo-title'), /against/);
  assert.match(await page.textContent('.memo-date'), /Prepared 20\d\d-\d\d-\d\d/);
  assert.match(await page.textContent('#memo-conclusion'), /cheaper than/);
  await page.fill('input[name=cname]', 'Trn2 UltraServer');
  await page.click('button:has-text("Keep the current scenario")');
  await page.fill('input[name=clink]', srv.url + '?v=2&page=workload&wsys=gb300-nvl72&wnodes=1&wdtype=fp8');
  await page.click('button:has-text("Add")');
  await page.waitForFunction(() => !document.querySelector('#compare-example') && document.querySelectorAll('#compare-table thead th').length === 3);
  await page.waitForSelector('#waterfall');
  const cols = await page.$$eval('#compare-table thead th', (ths) => ths.map((t) => t.textContent));
  assert.deepEqual(cols, ['figure', 'Trn2 UltraServer', 'link 2']);
  // The steps add up to the difference between the two scenarios' costs.
  const deltas = await page.$$eval('#waterfall td[data-delta]', (tds) => tds.map((t) => Number(t.dataset.delta)));
  const cost = await page.$$eval('#compare-table tbody tr', (trs) => {
    const row = trs.find((t) => /training \$ per million/.test(t.textContent));
    return [...row.querySelectorAll('td')].map((td) => Number(td.dataset.value));
  });
  const sum = deltas.reduce((a, b) => a + b, 0);
  assert.ok(Math.abs(sum - (cost[1] - cost[0])) < 1e-6 * Math.abs(cost[0]), `${sum} vs ${cost[1] - cost[0]}`);
  assert.equal(deltas.length, 8, 'model, price, peak, efficiency, layout, collectives, bubble, power');
  // Serving too: its steps add up to the difference in serving cost.
  const serve = await page.$$eval('#waterfall-serve td[data-delta]', (tds) => tds.map((t) => Number(t.dataset.delta)));
  const scost = await page.$$eval('#compare-table tbody tr', (trs) => {
    const row = trs.find((t) => /serving \$ per million/.test(t.textContent));
    return [...row.querySelectorAll('td')].map((td) => Number(td.dataset.value));
  });
  const ssum = serve.reduce((a, b) => a + b, 0);
  assert.ok(Math.abs(ssum - (scost[1] - scost[0])) < 1e-6 * Math.abs(scost[0]), `${ssum} vs ${scost[1] - scost[0]}`);
  // The memo prints on one page of A4 and of Letter.
  await page.emulateMedia({ media: 'print' });
  for (const format of ['A4', 'Letter']) {
    const pdf = (await page.pdf({ format, printBackground: true })).toString('latin1');
    const pages = pdf.match(/\/Type\s*\/Page(?!s)/g).length;
    assert.equal(pages, 1, `${format}: ${pages} pages`);
  }
  await page.screenshot({ path: 'out/e2e-compare-print.png', fullPage: true });
  await page.evaluate(AXE);
  const ax = await page.evaluate(() => axe.run(document, { resultTypes: ['violations'] }));
  assert.deepEqual(ax.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id), []);
  await page.emulateMedia({ media: 'screen' });
  // Export the kept scenarios as JSON, and the tables as CSV.
  const json = await download(page, 'button:has-text("Export kept scenarios")');
  const file = JSON.parse(json.bytes.toString());
  assert.equal(file.format, 'accelscope-scenarios');
  assert.deepEqual(file.scenarios.map((s) => s.name), ['Trn2 UltraServer', 'link 2']);
  const table = await download(page, '[data-csv="compare-table"]');
  assert.match(table.bytes.toString(), /^figure,Trn2 UltraServer,link 2\n/);
  const wpng = await download(page, '[data-png="waterfall-chart"]');
  assert.equal(wpng.bytes.subarray(1, 4).toString(), 'PNG');
  // Kept in local storage: a reload shows them again; a corrupt store is reported, not fatal.
  await page.reload();
  await page.waitForSelector('#compare-table');
  assert.equal(await page.locator('.saved-list li').count(), 2);
  await page.evaluate(() => localStorage.setItem('accelscope.scenarios', 'garbage'));
  await page.reload();
  await page.waitForSelector('.compare-page');
  assert.match(await page.textContent('.compare-page .notice'), /format this version does not know/);
  // Import the exported file back; a file that is not one is named, and nothing else changes.
  await page.setInputFiles('input[name=cimport]', { name: 'kept.json', mimeType: 'application/json', buffer: json.bytes });
  await page.waitForFunction(() => document.querySelectorAll('.saved-list li').length === 2);
  assert.match(await page.textContent('.compare-page .notice'), /2 scenario\(s\) imported/);
  const bad = JSON.stringify({ format: 'accelscope-scenarios', version: 1, scenarios: [{ name: 'x', link: 'v=2&wsys=nope' }, { name: 3 }] });
  await page.setInputFiles('input[name=cimport]', { name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from(bad) });
  await page.waitForFunction(() => /0 scenario/.test(document.querySelector('.compare-page .notice')?.textContent));
  const note = await page.textContent('.compare-page .notice');
  assert.match(note, /nope/);
  assert.match(note, /scenario 2 has no "name"/);
  await page.setInputFiles('input[name=cimport]', { name: 'x.json', mimeType: 'application/json', buffer: Buffer.from('{oops') });
  await page.waitForFunction(() => /not JSON/.test(document.querySelector('.compare-page .notice')?.textContent));
  assert.equal(await page.locator('.saved-list li').count(), 2);
  await page.screenshot({ path: 'out/e2e-compare.png', fullPage: true });
  assert.deepEqual(page.errors, []);
});

test('compare: the CLI\'s link carries the comparison to a fresh phone, and Back steps through pages', async () => {
  const a = `v=${V}&wsys=trn2-ultra-64&wnodes=4`;
  const b = `v=${V}&wsys=hgx-h100-8&wnodes=32`;
  const link = execFileSync(CLI, ['compare', a, b, '--link'], { encoding: 'utf8' }).trim();
  const page = await open(link, { width: 390, height: 844 });
  await page.waitForSelector('#compare-table');
  // A link to the page starts from the one module holding the app and the page, not the
  // app's module and then the page's.
  const wasm = wasmFetched(page);
  assert.ok(wasm.includes('compare_app_bg.wasm'), wasm.join(' '));
  assert.ok(!wasm.some((f) => /^app-[0-9a-f]+_bg\.wasm$|^compare_bg\.wasm$/.test(f)), wasm.join(' '));
  // The two scenarios, not the worked example, and a way to keep them in this browser.
  assert.equal(await page.locator('#compare-example').count(), 0);
  const cols = await page.$$eval('#compare-table thead th', (ths) => ths.map((t) => t.textContent));
  assert.equal(cols.length, 3);
  assert.match(cols[1], /Trn2 UltraServer/);
  assert.match(cols[2], /H100/);
  assert.ok(await page.$('#waterfall'));
  assert.match(await page.textContent('#compare-shared'), /2 scenarios/);
  // The ranges arrive from the worker, each chip's in turn, and the memo is drawn again.
  await page.waitForFunction(() => {
    const row = [...document.querySelectorAll('#compare-table tbody tr')].find((t) => /cost of the run/.test(t.textContent));
    return row && [...row.querySelectorAll('td')].every((td) => td.querySelector('.range'));
  });
  // On the phone the answer comes first: the offer to keep, the memo, then the controls.
  const top = async (sel) => (await page.locator(sel).first().boundingBox()).y;
  assert.ok(await top('#compare-shared') < await top('#memo-title'));
  assert.ok(await top('#memo-title') < await top('input[name=cname]'));
  // The figures are the CLI's for each job.
  const cost = await page.$$eval('#compare-table tbody tr', (trs) => {
    const row = trs.find((t) => /training \$ per million/.test(t.textContent));
    return [...row.querySelectorAll('td')].map((td) => Number(td.dataset.value));
  });
  for (const [i, q] of [a, b].entries()) {
    const want = cli(['eval', '--link', q, '--json']).train_cost_per_mtok_usd;
    assert.ok(Math.abs(cost[i] / want - 1) < 1e-6, `${cost[i]} vs ${want}`);
  }
  // The Workload page's ranges come along, the CLI's, marked as estimates where their evidence
  // is thin, with the reasons under the table.
  await page.waitForSelector('#compare-ranges');
  const ranged = await page.$$eval('#compare-table tbody tr', (trs) => {
    const row = trs.find((t) => /cost of the run/.test(t.textContent));
    return [...row.querySelectorAll('td')].map((td) => td.querySelector('.range')?.textContent ?? '');
  });
  const run = cli(['eval', '--link', a, '--json']).ranges.cost_usd;
  const usd = (x) => `$${(x / 1e6).toFixed(2)}`;
  assert.ok(ranged[0].includes(`${usd(run.low)}–${usd(run.high)} M`), `${ranged[0]} against ${usd(run.low)}–${usd(run.high)}`);
  assert.equal(!run.evidence.same_chip, /est/i.test(ranged[0]));
  assert.match(await page.textContent('#compare-ranges'), /no Trainium2 training run/);
  // With its ranges it still prints on one page, the waterfall's labels at a readable size.
  await page.emulateMedia({ media: 'print' });
  for (const format of ['A4', 'Letter']) {
    const pdf = (await page.pdf({ format, printBackground: true })).toString('latin1');
    assert.equal(pdf.match(/\/Type\s*\/Page(?!s)/g).length, 1, format);
  }
  // Half an A4 page's width (about 90 mm) over the chart's viewBox: 11-unit labels at 6 pt or more.
  const [vb] = await page.$$eval('svg.wfall', (s) => s.map((x) => x.viewBox.baseVal.width));
  assert.ok(11 * (90 / 25.4 * 72) / vb >= 6, `viewBox ${vb} wide`);
  await page.emulateMedia({ media: 'screen' });
  await page.click('#compare-shared button');
  await page.waitForSelector('#compare-shared', { state: 'detached' });
  assert.equal(await page.locator('.saved-list li').count(), 2);
  // Pages switched from the navigation are steps of the history; Back and Forward stay in the app.
  await page.click('nav a:has-text("Roofline")');
  await page.waitForSelector('#roofline-canvas');
  await page.click('nav a:has-text("Chips")');
  await page.waitForSelector('#chips-table');
  await page.goBack();
  await page.waitForSelector('#roofline-canvas');
  await page.goBack();
  await page.waitForSelector('#compare-table');
  assert.equal(query(page).get('page'), 'compare');
  assert.equal(query(page).getAll('cmp').length, 2);
  await page.goForward();
  await page.waitForSelector('#roofline-canvas');
  assert.equal(query(page).get('page'), 'roofline');
  await page.screenshot({ path: 'out/e2e-compare-shared-phone.png' });
  assert.deepEqual(page.errors, []);
});

test('workload: the defaults note quotes the efficiencies the engine uses, for the link\'s model version', async () => {
  const now = await open('?page=workload');
  const today = await now.textContent('#job-defaults');
  assert.match(today, /H100 \d+\.\d%, B200 \d+\.\d%, GB200 \d+\.\d%/);
  assert.ok(!today.includes('?'), today);
  // A link of an older model version keeps the Trainium fit it was made with.
  const old = await open('?v=8&page=workload');
  const before = await old.textContent('#job-defaults');
  const fit = (t) => Number(t.match(/Trainium's (\d+\.\d)%/)[1]);
  assert.ok(fit(today) > fit(before), `${fit(today)} vs ${fit(before)}`);
  assert.deepEqual([...now.errors, ...old.errors], []);
});

test('no warnings from the app\'s own code on any page, and a skip link past the navigation', async () => {
  const warnings = [];
  for (const q of ['?', '?page=roofline', '?page=workload', '?page=compare', '?page=kernels', '?page=learn']) {
    // Listening from before the page loads: the loader's and the preloads' warnings count.
    const ctx = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    const page = await ctx.newPage();
    page.errors = [];
    page.on('pageerror', (e) => page.errors.push(String(e)));
    page.on('console', (m) => {
      if (m.type() === 'warning') warnings.push(`${q}: ${m.text()}`);
      if (m.type() === 'error') page.errors.push(m.text());
    });
    await page.goto(srv.url + q);
    await page.waitForSelector('main h1');
    await page.waitForSelector('.lazy-loading', { state: 'detached', timeout: 30000 });
    // The Kernels page starts its worker: its start must not warn either.
    if (q === '?page=kernels') await page.waitForSelector('.kresult', { timeout: 30000 });
    await page.waitForTimeout(300);
    if (q === '?') {
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement?.className), 'skip');
      assert.ok(await page.locator('a.skip').isVisible());
      assert.equal(await page.getAttribute('a.skip', 'href'), '#main');
    }
    assert.deepEqual(page.errors, []);
    await ctx.close();
  }
  assert.deepEqual(warnings, []);
});

test('the minified stylesheet says what the source says, and a page\'s own rules arrive with its module', async () => {
  const page = await open('?');
  const href = await page.getAttribute('link[rel=stylesheet]', 'href');
  const built = readFileSync(join(process.env.DIST ?? '../dist', href), 'utf8');
  const source = readFileSync('../styles/main.css', 'utf8');
  assert.ok(built.length < 0.9 * source.length, `minified ${built.length} of ${source.length} bytes`);
  // The browser's reading of each, rule by rule: the same rules, in the same order.
  const rules = (css) =>
    page.evaluate((text) => {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(text);
      return [...sheet.cssRules].map((r) => r.cssText);
    }, css);
  const [a, b] = [await rules(source), await rules(built)];
  assert.ok(a.length > 100);
  assert.deepEqual(b, a);
  // The Topology page's rules are not in the first page's stylesheet; opening it adds them once.
  assert.equal(await page.$('style#style-topology'), null);
  for (const to of ['Topology', 'Chips', 'Topology']) {
    await page.click(`nav a:has-text("${to}")`);
    await page.waitForSelector(to === 'Chips' ? '#chips-table' : '#topology-svg');
  }
  assert.equal(await page.$$eval('style#style-topology', (s) => s.length), 1);
  assert.equal(await page.$eval('.topo-grid', (e) => getComputedStyle(e).display), 'grid');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('kernels: a hostile link is read with notices and nothing runs away', async () => {
  const page = await open('?page=kernels&kern=fft&km=1e103&kin=fp7&kins=b0e8m0&kseed=-1&dev=cpu1:NaN,1');
  const notice = await page.textContent('.notice');
  for (const k of ['kern', 'km', 'kin', 'kins', 'kseed', 'dev']) assert.match(notice, new RegExp(k), notice);
  await page.waitForSelector('.kresult', { timeout: 30000 });
  assert.equal(await page.inputValue('input[name=km]'), '512');
  assert.deepEqual(page.errors, []);
});

const PAGES = ['chips', 'roofline', 'topology', 'collectives', 'workload', 'kernels', 'compare', 'learn'];
const AXE = readFileSync(new URL('./node_modules/axe-core/axe.min.js', import.meta.url), 'utf8');

/** The file a click downloads: its name and its bytes. */
async function download(page, selector) {
  const [d] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  const path = await d.path();
  return { name: d.suggestedFilename(), bytes: readFileSync(path) };
}

test('every page: a Content-Security-Policy holds, nothing leaves the page, and axe finds nothing serious', async () => {
  const report = [];
  for (const name of PAGES) {
    const page = await open(`?page=${name}`);
    if (name === 'kernels') await page.waitForSelector('.kresult', { timeout: 30000 });
    if (name === 'workload') await page.waitForSelector('#tornado');
    const csp = await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content');
    assert.match(csp, /script-src 'self' 'wasm-unsafe-eval' 'sha256-/);
    assert.match(csp, /connect-src 'self'/);
    assert.doesNotMatch(csp, /unsafe-inline'[^;]*;\s*style|script-src[^;]*unsafe-inline/);
    assert.deepEqual(page.errors, [], `${name}: the page itself breaks no rule of the policy`);
    // The policy is enforced: an injected inline script does not run, a remote fetch is refused.
    const blocked = await page.evaluate(async () => {
      const s = document.createElement('script');
      s.textContent = 'window.__injected = 1';
      document.head.appendChild(s);
      let fetched = 'sent';
      try { await fetch('https://example.com/'); } catch (e) { fetched = 'refused'; }
      return [window.__injected === undefined, fetched];
    });
    assert.deepEqual(blocked, [true, 'refused'], name);
    const foreign = page.requests.filter((u) => !u.startsWith(srv.url) && !u.startsWith('data:') && !u.startsWith('blob:') && u !== 'https://example.com/');
    assert.deepEqual(foreign, [], name);
    await page.evaluate(AXE);
    const res = await page.evaluate(() => axe.run(document, { resultTypes: ['violations'] }));
    const bad = res.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    report.push(`${name}: ${res.violations.length} violations (${bad.length} serious or critical)`);
    assert.deepEqual(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')}`), [], name);
    await page.context().close();
  }
  console.log(`     axe: ${report.join('; ')}`);
});

test('a panic shows the error panel with a way back to the last state that worked', async () => {
  const page = await open('?page=roofline');
  await page.check('input[name=chip][value="h200"]');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('chips')?.includes('h200'));
  await page.waitForTimeout(300);
  await page.evaluate(() => { try { window.wasmBindings.simulate_panic(); } catch (e) { /* the trap */ } });
  await page.waitForSelector('#panic-panel');
  assert.match(await page.textContent('#panic-panel'), /simulated panic/);
  const back = await page.getAttribute('#panic-panel a', 'href');
  assert.match(back, /chips=[^&]*h200/);
  const again = await open(back);
  assert.ok(await again.isChecked('input[name=chip][value="h200"]'));
  assert.deepEqual(again.errors, []);
  await page.context().close();
  await again.context().close();
});

test('links last: a configuration built on each page opens the same in a fresh browser', async () => {
  const steps = {
    chips: [async (p) => { await p.selectOption('select[name=format]', 'fp8'); await p.check('input[name=chip][value="h200"]'); }, '#chips-table'],
    roofline: [async (p) => { await p.check('input[name=chip][value="b200"]'); }, '#roofline-table'],
    topology: [async (p) => { await p.selectOption('select[name=system]', 'gb200-nvl72'); await p.click('#topology-svg g.chip[data-chip="5"]'); }, '#topology-figures'],
    collectives: [async (p) => { await p.fill('input[name=size]', '64MiB'); await p.press('input[name=size]', 'Enter'); }, '#collective-table'],
    // The range on the cost comes from the worker, after the card.
    workload: [async (p) => { await p.fill('input[name=wnodes]', '2'); await p.press('input[name=wnodes]', 'Enter'); await p.waitForSelector('#cost-band'); }, '#cost', '#cost-band'],
    // Kernels: seeded inputs, so the errors are the same in any browser (the speed is not).
    kernels: [async (p) => {
      await p.waitForSelector('.kresult', { timeout: 30000 });
      await p.selectOption('select[name=kin]', 'fp8e4m3');
      await p.fill('input[name=km]', '96');
      await p.locator('input[name=km]').dispatchEvent('change');
      await p.click('button[data-act=run]');
      await p.waitForFunction(() => /\(96x/.test(document.querySelector('.kresult .formula')?.textContent ?? ''), null, { timeout: 30000 });
    }, '#kernel-error'],
  };
  for (const [name, [act, sel, ready = sel]] of Object.entries(steps)) {
    const page = await open(`?page=${name}`);
    await act(page);
    await page.waitForTimeout(400);
    const text = (await page.textContent(sel)).replace(/\s+/g, ' ');
    const link = page.url();
    const fresh = await open(link.slice(srv.url.length));
    await fresh.waitForSelector(ready);
    assert.equal((await fresh.textContent(sel)).replace(/\s+/g, ' '), text, `${name}: ${link}`);
    assert.deepEqual([...page.errors, ...fresh.errors], [], name);
    await page.context().close();
    await fresh.context().close();
  }
});

test('the committed fixture links open in the browser with their recorded reports', async () => {
  const fx = JSON.parse(readFileSync(new URL('../cli/tests/fixtures/links.json', import.meta.url), 'utf8'));
  for (const { link, job } of fx.links) {
    const q = new URLSearchParams(link);
    q.set('page', 'workload');
    const page = await open(`?${q}`);
    await page.waitForSelector('#cost');
    const num = async (id) => Number(await page.getAttribute(`#${id}`, 'data-value'));
    for (const [id, key] of [['tokens-per-s', 'tokens_per_s'], ['cost', 'cost_usd'], ['mfu', 'mfu'], ['rate', 'usd_per_chip_hour']]) {
      const got = await num(id);
      assert.ok(Math.abs(got / job[key] - 1) < 1e-9, `${link.slice(0, 80)}: ${id} ${got} vs recorded ${job[key]}`);
    }
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('exports: tables as CSV, charts as SVG and PNG with their data, on every page that has them', async () => {
  const roof = await open('?page=roofline');
  const svg = await download(roof, 'button:has-text("Download SVG")');
  assert.match(svg.bytes.toString(), /<svg[\s\S]*Arithmetic intensity/);
  const csv = await download(roof, '[data-csv="roofline-table"]');
  assert.equal(csv.name, 'roofline-table.csv');
  assert.match(csv.bytes.toString(), /^Operation · intensity,/);
  const coll = await open('?page=collectives');
  const png = await download(coll, '[data-png="collective-time"]');
  assert.equal(png.bytes.subarray(1, 4).toString(), 'PNG');
  // A canvas chart's SVG is drawn again by the charts module, fetched on this first click.
  const csvg = await download(coll, 'figure:has(#collective-busbw) button:has-text("SVG")');
  assert.equal(csvg.name, 'collective-busbw.svg');
  assert.match(csvg.bytes.toString(), /<svg[\s\S]*<\/svg>/);
  // The charts' data table, built when opened: every point of every curve.
  await coll.click('.collectives-page details.chart-data summary');
  const cd = await download(coll, '[data-csv="collective-data"]');
  assert.ok(cd.bytes.toString().trim().split('\n').length > 20, 'one row per point');
  const work = await open('?page=workload');
  await work.waitForSelector('#tornado');
  const t = await download(work, '[data-svg="tornado"]');
  assert.match(t.bytes.toString(), /^<\?xml[\s\S]*<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"[\s\S]*<rect[^>]*style="[^"]*fill:/);
  const tp = await download(work, '[data-png="tornado"]');
  assert.equal(tp.bytes.subarray(1, 4).toString(), 'PNG');
  assert.ok(tp.bytes.length > 2000, `${tp.bytes.length} bytes`);
  const td = await download(work, '[data-csv="tornado-data"]');
  assert.ok(td.bytes.toString().split('\n').length >= 5);
  const topo = await open('?page=topology&sys=trn2-16&sel=0');
  const tc = await download(topo, '[data-csv="topology-svg-data"]');
  const lines = tc.bytes.toString().trim().split('\n');
  assert.equal(lines.length, 17, 'a header and 16 chips');
  assert.match(lines[1], /^0,"\(0, 0\)",0,in service$/);
  for (const p of [roof, coll, work, topo]) { assert.deepEqual(p.errors, []); await p.context().close(); }
});

test('your own model: a pasted config.json is counted, priced, and travels in the link to every page', async () => {
  const cfg = readFileSync(new URL('../engine/tests/data/hf/mixtral-8x7b-v0.1.json', import.meta.url), 'utf8');
  const page = await open('?page=workload&wsys=hgx-h100-8&wnodes=8');
  await page.click('#own-model summary');
  await page.fill('textarea[name=wconfig]', cfg);
  await page.click('button:has-text("Use this model")');
  await page.waitForFunction(() => /Mixtral 8x7B \(yours\)/.test(document.querySelector('select[name=wmodel]').selectedOptions[0]?.textContent ?? ''));
  // 46.70 B computed beside Mistral AI's published 46.7 B.
  assert.match(await page.textContent('#model-summary'), /46\.7 B parameters.*Published for Mixtral 8x7B: 46\.7 B, 12\.9 B active/);
  await page.waitForFunction(() => (new URLSearchParams(location.search).get('wmodel') ?? '').startsWith('m:l32,d4096'));
  const link = new URL(page.url());
  assert.ok(link.search.length < 300, `${link.search.length} characters: ${link.search}`);
  const cost = await page.getAttribute('#cost', 'data-value');
  const fresh = await open(link.search);
  assert.equal(await fresh.getAttribute('#cost', 'data-value'), cost);
  // On the Compare page too: kept, side by side with a preset.
  await fresh.click('nav a:has-text("Compare")');
  await fresh.waitForSelector('.compare-page');
  await fresh.click('button:has-text("Keep the current scenario")');
  await fresh.waitForSelector('#compare-table');
  assert.match(await fresh.textContent('.saved-list'), /8 × HGX H100 · Mixtral 8x7B/);
  // A config with a mistyped field is refused, naming the field; the model stays.
  await page.fill('textarea[name=wconfig]', '{"hidden_size": "big"}');
  await page.click('button:has-text("Use this model")');
  assert.match(await page.textContent('#own-model .error'), /hidden_size is a string/);
  assert.equal(new URL(page.url()).searchParams.get('wmodel'), link.searchParams.get('wmodel'));
  // By hand: a shape whose heads do not divide is refused.
  await page.fill('input[name=wspec]', 'm:l2,d64,h3,kv3,f1,v1');
  await page.press('input[name=wspec]', 'Enter');
  assert.match(await page.textContent('#own-model .error'), /does not split into 3 heads/);
  assert.deepEqual([...page.errors, ...fresh.errors], []);
  await page.context().close();
  await fresh.context().close();
});

test('serving against targets: the curve on several platforms, and the cheapest configuration meeting a TTFT and TPOT target', async () => {
  const page = await open('?page=workload&wmodel=llama3-70b&wdtype=fp8');
  await page.waitForSelector('#serving-chart');
  // At least three platforms, each with points and a frontier line.
  const drawn = await page.$$eval('#serving-chart g.platform', (gs) => gs.map((g) => [g.dataset.system, Number(g.dataset.points), g.querySelectorAll('circle.pt').length]));
  assert.ok(drawn.filter(([, n, c]) => n > 10 && n === c).length >= 3, JSON.stringify(drawn));
  // The table's rows and the answer agree: the named platform has the lowest $/Mtok, and its
  // point meets both targets.
  const cheapestRow = async () => page.$$eval('#serving-cheapest tbody tr', (rows) => rows
    .map((r) => ({ sys: r.dataset.system, usd: Number(r.querySelector('[data-usd-mtok]')?.dataset.usdMtok ?? NaN), cells: [...r.querySelectorAll('td')].map((c) => c.textContent) }))
    .filter((r) => Number.isFinite(r.usd)));
  const seconds = (t) => (t.endsWith(' ms') ? parseFloat(t) / 1e3 : parseFloat(t));
  let rows = await cheapestRow();
  assert.ok(rows.length >= 3, JSON.stringify(rows));
  // TTFT on average, TPOT at the 99th percentile of occupancy (the column after the mean).
  for (const r of rows) {
    assert.ok(seconds(r.cells[2]) <= 2 && seconds(r.cells[4]) <= 0.05 && seconds(r.cells[3]) <= seconds(r.cells[4]), JSON.stringify(r));
  }
  const min = rows.reduce((a, b) => (b.usd < a.usd ? b : a));
  assert.equal(await page.getAttribute('#serving-answer', 'data-system'), min.sys);
  const loose = min.usd;
  // A tighter target: 500 ms to the first token and 20 ms a token. Every cheapest point meets
  // it, the link keeps it, and it costs more.
  await page.fill('input[name=wttft]', '500');
  await page.press('input[name=wttft]', 'Enter');
  await page.fill('input[name=wtpot]', '20');
  await page.press('input[name=wtpot]', 'Enter');
  await page.waitForFunction(() => /TTFT ≤ 500 ms and TPOT ≤ 20 ms/.test(document.querySelector('#serving-answer').textContent));
  rows = await cheapestRow();
  for (const r of rows) {
    assert.ok(seconds(r.cells[2]) <= 0.5 && seconds(r.cells[4]) <= 0.02, JSON.stringify(r));
  }
  const tight = rows.reduce((a, b) => (b.usd < a.usd ? b : a));
  assert.ok(tight.usd > loose, `${tight.usd} after ${loose}`);
  // The address bar follows a moment after the page.
  await page.waitForFunction(() => new URLSearchParams(location.search).get('wtpot') === '0.02');
  assert.equal(new URL(page.url()).searchParams.get('wttft'), '0.5');
  // A bad target is refused with a message; the target stays.
  await page.fill('input[name=wtpot]', 'fast');
  await page.press('input[name=wtpot]', 'Enter');
  assert.match(await page.textContent('#serving-curves .error'), /TPOT.*'fast' is not a number of milliseconds/);
  assert.equal(new URL(page.url()).searchParams.get('wtpot'), '0.02');
  // Another platform, and per dollar: both in the link, and a fresh browser draws the same.
  await page.click('#serving-curves .platform-picks summary');
  await page.check('input[name=wcurve][value=mi355x-8]');
  await page.selectOption('select[name=wcy]', 'usd');
  // The worker answers each change in turn: the newest has both.
  await page.waitForFunction(() => document.querySelectorAll('#serving-chart g.platform').length === 5 && /output tokens per \$/.test(document.querySelector('#serving-chart').textContent));
  await page.waitForFunction(() => new URLSearchParams(location.search).get('wcy') === 'usd');
  const link = new URL(page.url());
  assert.match(link.searchParams.get('wcurve'), /mi355x-8/);
  const fresh = await open(link.search);
  await fresh.waitForSelector('#serving-chart');
  assert.equal(await fresh.textContent('#serving-answer'), await page.textContent('#serving-answer'));
  // What changes the bill: FP8 KV cache, FP4 weights, three drafted tokens and a prefix
  // cache. Each alone is no dearer than none; all together cheapest; the curve without them
  // is drawn dashed.
  await fresh.waitForSelector('#serving-effects-none');
  await fresh.selectOption('select[name=wkv]', 'fp8');
  await fresh.selectOption('select[name=wwt]', 'fp4');
  for (const [k, v] of [['wdraft', '3'], ['wacc', '0.8'], ['wprefix', '0.5']]) {
    await fresh.fill(`input[name=${k}]`, v);
    await fresh.press(`input[name=${k}]`, 'Enter');
  }
  await fresh.waitForFunction(() => document.querySelectorAll('#serving-effects tbody tr').length === 6);
  const effects = await fresh.$$eval('#serving-effects tbody tr', (rs) => rs.map((r) => [r.querySelector('th').textContent, Number(r.querySelector('[data-usd-mtok]')?.dataset.usdMtok ?? NaN)]));
  const none = effects[0][1];
  for (const [label, usd] of effects.slice(1)) assert.ok(usd <= none * (1 + 1e-9), `${label}: ${usd} against ${none}`);
  assert.ok(effects[5][1] < Math.min(...effects.slice(1, 5).map((e) => e[1])), JSON.stringify(effects));
  assert.ok(await fresh.$('#serving-baseline'));
  await fresh.waitForFunction(() => new URLSearchParams(location.search).get('wprefix') === '0.5');
  const q2 = new URL(fresh.url()).searchParams;
  assert.deepEqual(['wkv', 'wwt', 'wdraft', 'wacc'].map((k) => q2.get(k)), ['fp8', 'fp4', '3', '0.8']);
  // The serving card above prices the same options.
  assert.match(await fresh.textContent('#infer-mtok .tip'), /weights stored in FP4.*KV cache in FP8.*speculative decoding.*prefix cache: 50%/);
  // 200 points and more evaluate within a frame (measured in the worker that draws them).
  const ms = Number(await fresh.getAttribute('#serving-timing', 'data-ms'));
  const points = Number(await fresh.getAttribute('#serving-timing', 'data-points'));
  assert.ok(points >= 200, `${points} points`);
  console.log(`    ${points} serving points in ${ms.toFixed(1)} ms`);
  assert.deepEqual([...page.errors, ...fresh.errors], []);
  await page.context().close();
  await fresh.context().close();
});

test('disaggregated prefill and decode: the cheapest split, its KV trip, and co-location beside it', async () => {
  // Long prompts and a tight TPOT on one NVL72: prompts no longer slow the decode steps.
  const page = await open('?page=workload&wsys=gb200-nvl72&wdtype=fp8&wpr=8192&wtpot=0.025');
  await page.waitForSelector('#disagg-answer[data-usd-mtok]');
  const split = Number(await page.getAttribute('#disagg-answer', 'data-usd-mtok'));
  const together = Number(await page.getAttribute('#disagg-answer', 'data-colocated'));
  assert.ok(split < together, `${split} against ${together}`);
  assert.equal(await page.getAttribute('#disagg-transfer', 'data-scale-up'), 'true');
  assert.match(await page.textContent('#disagg-transfer'), /1\.342 GB, travels inside the scale-up domain/);
  // Prefill on B200 nodes, decode on a Trn2 UltraServer: the caches cross the network, and
  // the link keeps both pools.
  await page.selectOption('select[name=wpsys]', 'hgx-b200-8');
  await page.selectOption('select[name=wdsys]', 'trn2-ultra-64');
  // The worker answers each change in turn: the newest answer names both pools.
  await page.waitForFunction(() => /Trn2 UltraServer/.test(document.querySelector('#disagg-table')?.textContent));
  assert.equal(await page.getAttribute('#disagg-transfer', 'data-scale-up'), 'false');
  assert.match(await page.textContent('#disagg-table'), /HGX B200.*Trn2 UltraServer/s);
  await page.waitForFunction(() => new URLSearchParams(location.search).get('wdsys') === 'trn2-ultra-64');
  const fresh = await open(new URL(page.url()).search);
  await fresh.waitForSelector('#disagg-answer[data-usd-mtok]');
  assert.equal(await fresh.textContent('#disagg-answer'), await page.textContent('#disagg-answer'));
  assert.deepEqual([...page.errors, ...fresh.errors], []);
  await page.context().close();
  await fresh.context().close();
});

test('training layouts as run today: an old link keeps its model, and today\'s finds context parallelism for Llama 3 405B', async () => {
  const page = await open('?v=2&page=workload&wsys=hgx-h100-8&wnodes=128&wmodel=llama3-405b');
  await page.waitForSelector('#layout-model-note');
  const before = Number(await page.getAttribute('#tokens-per-s', 'data-value'));
  assert.doesNotMatch(await page.textContent('#layout'), /cp \d/);
  await page.click('#layout-model-note button');
  await page.waitForFunction(() => !document.querySelector('#layout-model-note'));
  await page.waitForFunction((b) => Number(document.querySelector('#tokens-per-s')?.dataset.value) !== b, before);
  const after = Number(await page.getAttribute('#tokens-per-s', 'data-value'));
  // 8K sequences of a 405B model on 1,024 H100s: splitting each sequence over two GPUs
  // frees the memory for a faster layout.
  assert.match(await page.textContent('#layout'), /tp \d+ × cp \d+ × pp \d+ × dp \d+/);
  assert.ok(after > before, `${after} after ${before}`);
  // Written again as today's version, without the old model's key.
  await page.waitForFunction(() => !['1', '2'].includes(new URLSearchParams(location.search).get('v')) && !new URLSearchParams(location.search).has('wlm'));
  assert.match(await page.textContent('main'), /exposed context-parallel ring/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('failure assumptions: your own rate, repair, restart and checkpoint bandwidth, in the link and marked as yours', async () => {
  const page = await open('?page=workload&wsys=hgx-h100-8&wnodes=512');
  await page.waitForSelector('#goodput[data-value]');
  const before = Number(await page.getAttribute('#goodput', 'data-value'));
  await page.click('#failure-inputs summary');
  await page.fill('input[name=wfrate]', '1e-4');
  await page.press('input[name=wfrate]', 'Enter');
  await page.waitForFunction((b) => Number(document.querySelector('#goodput')?.dataset.value) < b, before);
  await page.fill('input[name=wckpt]', '20');
  await page.press('input[name=wckpt]', 'Enter');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('wckpt') === '20000000000');
  assert.equal(new URL(page.url()).searchParams.get('wfrate'), '0.0001');
  assert.match(await page.textContent('#goodput'), /rate 1\.00e-4\/chip-h/);
  assert.match(await page.textContent('#goodput'), /20 GB\/s\/chip/);
  // Nonsense is refused by name; empty goes back to the fitted rate.
  await page.fill('input[name=wrepair]', '-3');
  await page.press('input[name=wrepair]', 'Enter');
  assert.match(await page.textContent('#failure-inputs .error'), /Repair time: '-3' is not a number/);
  await page.fill('input[name=wfrate]', '');
  await page.press('input[name=wfrate]', 'Enter');
  await page.waitForFunction(() => !new URLSearchParams(location.search).has('wfrate'));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('neuroncore: a link opens a schedule with its timeline; a block size updates cycles, utilisation and the link', async () => {
  // Single-buffered 512-blocks of a 2048-cube: the tensor engine waits on DMA.
  const page = await open('?page=kernels&knc=trn2_mm_2048x2048x2048_bf16_t512x512x512_b1_sA');
  await page.waitForSelector('#ncresult .nchead', { timeout: 30000 });
  assert.equal(await page.inputValue('input[name=nctm]'), '512');
  const us = async () => Number(await page.getAttribute('#ncresult .nchead', 'data-us'));
  const util = async () => Number(await page.getAttribute('#ncresult .nchead', 'data-util'));
  const [t1, u1] = [await us(), await util()];
  assert.ok(t1 > 0 && u1 > 0 && u1 <= 1, `${t1} µs, ${u1}`);
  assert.ok(Number(await page.getAttribute('#nccanvas', 'data-draw-ms')) >= 0, 'the timeline is drawn');
  assert.match(await page.textContent('.ncunits'), /Tensor/);
  assert.match(await page.textContent('.ncmem'), /224 KiB/);
  // Double buffering: faster, higher utilisation, and the link says so.
  await page.selectOption('select[name=ncbufs]', '2');
  await page.waitForFunction((t) => Number(document.querySelector('#ncresult .nchead')?.dataset.us) !== t, t1);
  assert.ok(await us() < t1 && await util() > u1, `double ${await us()} vs single ${t1}`);
  await page.waitForFunction(() => (new URLSearchParams(location.search).get('knc') ?? '').includes('_b2_'));
  // A larger block N reuses A over more columns: fewer HBM bytes, new cycles and utilisation.
  const [t2, u2] = [await us(), await util()];
  await page.fill('input[name=nctn]', '1024');
  await page.press('input[name=nctn]', 'Enter');
  await page.waitForFunction((t) => Number(document.querySelector('#ncresult .nchead')?.dataset.us) !== t, t2);
  assert.notEqual(await util(), u2);
  await page.waitForFunction(() => (new URLSearchParams(location.search).get('knc') ?? '').includes('_t512x1024x512_'));
  // A block that overflows SBUF is refused with its sizes; the last schedule stays.
  for (const f of ['nctm', 'nctn', 'nctk']) await page.fill(`input[name=${f}]`, '2048');
  await page.press('input[name=nctk]', 'Enter');
  await page.waitForFunction(() => /224 KiB available/.test(document.querySelector('.ncstatus')?.textContent ?? ''));
  // Hover describes an instruction; the wheel zooms.
  await page.locator('#nccanvas').scrollIntoViewIfNeeded();
  const box = await page.locator('#nccanvas').boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + 12);
  await page.waitForSelector('#nctip[style*="block"]');
  assert.match(await page.textContent('#nctip'), /Tensor: matmul/);
  await page.mouse.wheel(0, -400);
  await page.waitForFunction(() => !/showing 0 to/.test(document.querySelector('.ncview')?.textContent ?? ''));
  // A search can be cancelled, and the next one starts a fresh worker.
  await page.click('button[data-act=nctune]');
  await page.click('button[data-act=nccancel]');
  await page.waitForFunction(() => /Cancelled/.test(document.querySelector('.ncstatus')?.textContent ?? ''));
  // Autotune lists faster schedules, each one click from its timeline.
  await page.click('button[data-act=nctune]');
  await page.waitForSelector('.nctune button[data-act=ncpick]', { timeout: 60000 });
  await page.click('.nctune button[data-act=ncpick]');
  await page.waitForFunction(() => /_t\d+x\d+x\d+_b\d_s[AB]/.test(new URLSearchParams(location.search).get('knc') ?? ''));
  // The schedule's point goes to the Roofline page with the link, beside the chip's roofs.
  await page.waitForFunction(() => new URLSearchParams(location.search).has('kncpt'));
  const roof = await open(new URL(page.url()).search.replace('page=kernels', 'page=roofline'));
  await roof.waitForSelector('#nc-point');
  assert.match(await roof.textContent('#nc-point'), /NeuronCore schedule \(trn2_mm_.*TFLOP\/s at .* FLOP per HBM byte/);
  await roof.close();
  // A bad link's experiment is explained and the default shown.
  const bad = await open('?page=kernels&knc=trn2_mm_8x8x8_zz');
  await bad.waitForSelector('#ncresult .nchead', { timeout: 30000 });
  assert.match(await bad.textContent('.ncstatus'), /could not be read.*'zz' is not a format|'zz' is not a format/);
  await page.screenshot({ path: 'out/e2e-neuroncore.png', fullPage: true });
  assert.deepEqual(page.errors, []);
  assert.deepEqual(bad.errors, []);
});

test('workload: the heavy views follow an input after its paint, dimmed while updating, and only the newest input is shown', async () => {
  const page = await open('?page=workload&wsys=hgx-h100-8&wnodes=8');
  // The tornado is the page's own; the platforms table is in the module of the views below
  // the answer, which arrives after it: an input reaches both.
  await page.waitForSelector('#tornado');
  await page.waitForSelector('#platforms-table');
  const updating = await page.evaluate(async () => {
    const el = document.querySelector('input[name=wgbs]');
    for (const v of ['512', '4096', '2048']) {
      el.value = v;
      el.dispatchEvent(new Event('change', { bubbles: true }));
    }
    // Once the input's own effects have run (a task later), before the next frame.
    await new Promise((r) => { const c = new MessageChannel(); c.port1.onmessage = r; c.port2.postMessage(0); });
    return [!!document.querySelector('.deferred.updating #tornado'), !!document.querySelector('.lazy-part.deferred.updating')];
  });
  // The cards show the newest input at once; the views derived from it are marked updating:
  // the tornado, and the views below the answer (their module takes the input after the
  // paint).
  assert.deepEqual(updating, [true, true], 'tornado, views below the answer marked updating');
  const cost = Number(await page.getAttribute('#train-mtok', 'data-value'));
  await page.waitForFunction(() => document.querySelectorAll('.deferred.updating').length === 0);
  assert.equal(Number(await page.getAttribute('#tornado', 'data-base')), cost);
  const row = await page.getAttribute('#platforms-table tr[data-system="hgx-h100-8"] td[data-train-mtok]', 'data-train-mtok');
  assert.equal(Number(row), cost);
  // The module below the answer was mounted once and followed the inputs in place.
  assert.equal(await page.evaluate(() => performance.getEntriesByName('accelscope-part-workload_more').length), 1);
  assert.deepEqual(page.errors, []);
});

test('without a service worker, the other pages\' code is prefetched once the first page is idle', async () => {
  const ctx = await browser.newContext();
  await ctx.addInitScript(() => { delete Navigator.prototype.serviceWorker; });
  const page = await ctx.newPage();
  const requests = [];
  page.on('request', (r) => requests.push(new URL(r.url()).pathname));
  await page.goto(srv.url + '?');
  await page.waitForSelector('#chips-table');
  const modules = ['roofline', 'topology', 'collectives', 'workload', 'kernels', 'compare', 'learn'];
  await page.waitForFunction((n) => document.querySelectorAll('link[rel=prefetch]').length === n, modules.length * 2);
  await page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => e.name.endsWith('compare_bg.wasm')));
  for (const m of modules) assert.ok(requests.some((p) => p.endsWith(`/${m}_bg.wasm`)), `${m} prefetched`);
  await ctx.close();
});

test('a new release installs beside the old one and the page offers to reload into it', async () => {
  // A copy of the build, released again with a changed service worker.
  const dir = mkdtempSync(join(tmpdir(), 'accelscope-release-'));
  cpSync(process.env.DIST ?? '../dist', dir, { recursive: true });
  const rel = await serve(dir);
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(rel.url + '?page=roofline');
  await page.waitForSelector('#roofline-canvas');
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30000 });
  const before = await page.evaluate(() => caches.keys());
  // The first release installs silently.
  assert.equal(await page.locator('.update').count(), 0);
  const sw = join(dir, 'sw.js');
  writeFileSync(sw, readFileSync(sw, 'utf8').replace("const CACHE = 'accelscope-", "const CACHE = 'accelscope-next-"));
  await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r.update()));
  await page.waitForSelector('.update button', { timeout: 30000 });
  // The old release stays in charge until the page accepts the new one.
  assert.deepEqual(await page.evaluate(() => caches.keys()).then((k) => k.filter((x) => before.includes(x))), before);
  await Promise.all([page.waitForEvent('load'), page.click('.update button')]);
  await page.waitForSelector('#roofline-canvas');
  const after = await page.evaluate(() => caches.keys());
  assert.equal(after.length, 1);
  assert.match(after[0], /^accelscope-next-/);
  assert.equal(await page.locator('.update').count(), 0);
  assert.deepEqual(errors, []);
  await ctx.close();
  await rel.close();
  rmSync(dir, { recursive: true, force: true });
});

test('embed: a page\'s view alone for an iframe, without the navigation, with a way to the whole app', async () => {
  // The README's frame: 720 × 520. The figure fits it, the way to the app at its top.
  const page = await open('?page=roofline&chips=trn2,h100-sxm&embed=1', { width: 720, height: 520 });
  await page.waitForSelector('#roofline-canvas');
  assert.equal(await page.locator('nav').count(), 0);
  assert.equal(await page.locator('footer').count(), 0);
  const tall = await page.evaluate(() => document.documentElement.scrollHeight);
  assert.ok(tall <= 560, `${tall} px tall`);
  const link = await page.locator('.open-full a').boundingBox();
  assert.ok(link && link.y >= 0 && link.y + link.height <= 520, JSON.stringify(link));
  assert.ok(await page.locator('#roofline-canvas').isVisible());
  const href = await page.getAttribute('.open-full a', 'href');
  const q = new URLSearchParams(href.replace(/^\?/, ''));
  assert.equal(q.get('embed'), null);
  assert.equal(q.get('page'), 'roofline');
  assert.equal(q.get('chips'), 'trn2,h100-sxm');
  await page.screenshot({ path: 'out/e2e-embed.png' });
  assert.deepEqual(page.errors, []);
  // Every page's embed shows its answer and hides its inputs; the figures that fit a slide fit
  // the frame.
  for (const [p, answer, hidden, fits] of [
    ['workload', '#job-cards', '.input-grid', true],
    ['topology', '#topology-svg', '.figures', true],
    ['collectives', '#collective-time', '.controls', true],
    ['kernels', '.kresult', '.kinputs', true],
    ['chips', '#chips-table', 'button:has-text("Clone")', true],
    // A memo with its ranges, and a lesson: documents that scroll.
    ['compare', '#compare-table', '.saved-list', false],
  ]) {
    const e = await open(`?page=${p}&embed=1`, { width: 720, height: 520 });
    await e.waitForSelector(answer, { timeout: 30000 });
    assert.ok(await e.locator(answer).first().isVisible(), `${p}: ${answer} shown`);
    assert.equal(await e.locator(hidden).first().isVisible(), false, `${p}: ${hidden} hidden`);
    assert.equal(await e.locator('nav[aria-label=Pages]').count(), 0);
    const h = await e.evaluate(() => document.documentElement.scrollHeight);
    if (fits) assert.ok(h <= 560, `${p}: ${h} px tall`);
    assert.deepEqual(e.errors, []);
    await e.context().close();
  }
  assert.match(await (await open('?page=workload&embed=1', { width: 720, height: 520 })).textContent('#embed-caption'), /Trn2 UltraServer.*Llama 3 70B.*2T tokens/);
});

test('workload: where the training step goes, operation by operation, adding up to the step', async () => {
  const page = await open('?page=workload&wsys=hgx-h100-8&wnodes=8&wdtype=fp8');
  await page.waitForSelector('#step-breakdown-table');
  const total = Number(await page.getAttribute('#step-breakdown-table', 'data-total-s'));
  const times = await page.$$eval('#step-breakdown-table td[data-time-s]', (tds) => tds.map((t) => Number(t.dataset.timeS)));
  assert.ok(times.length >= 6, `${times.length} operations`);
  const sum = times.reduce((a, b) => a + b, 0);
  assert.ok(Math.abs(sum / total - 1) < 1e-9, `${sum} against ${total}`);
  // The bar draws one segment per operation; the table exports as CSV.
  assert.equal(await page.locator('#step-breakdown-bar rect').count(), times.length);
  assert.ok(await page.$('[data-csv="step-breakdown-table"]'));
  assert.match(await page.textContent('#step-breakdown-table'), /MLP.*compute.*measured/s);
  assert.deepEqual(page.errors, []);
});

test('workload: a mixture of experts served as its operations, each from its kernel table, as the CLI times it', async () => {
  const link = `?v=${V}&page=workload&wsys=gb200-nvl72&wmodel=deepseek-r1&wdtype=fp4&wkv=fp8&wadp=8&wep=8`;
  const page = await open(link);
  await page.waitForSelector('#decode-ops');
  // The same operations the CLI lists for the job's cheapest serving point, each with the
  // same source; at least two timed from measured tables, and the experts' trips both ways.
  const want = cli(['breakdown', '--json', '--link', link]).decode_step.ops.filter((o) => o.name !== 'kernel launches and fixed costs');
  const rows = await page.$$eval('#decode-ops tbody tr[data-source]', (trs) => trs.map((t) => [t.querySelector('th').textContent, t.dataset.source]));
  assert.deepEqual(rows.map((r) => r[0]), want.map((o) => o.name));
  assert.deepEqual(rows.map((r) => r[1]), want.map((o) => (o.source === 'modelled' && o.bound === 'communication' ? 'fabric' : o.source === 'modelled' ? 'roofline' : o.source)));
  assert.ok(Number(await page.getAttribute('#decode-ops', 'data-measured')) >= 2);
  for (const name of ['expert dispatch (all-to-all)', 'expert combine (all-to-all)']) assert.ok(rows.some((r) => r[0] === name), name);
  assert.match(await page.textContent('#serving'), /timed operation by operation/);
  // The layout is settable beside the other serving options; the link carries it, and a
  // degree that is not one is named and changes nothing.
  assert.equal(await page.inputValue('input[name=wadp]'), '8');
  await page.fill('input[name=wep]', '4');
  await page.press('input[name=wep]', 'Tab');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('wep') === '4');
  await page.fill('input[name=wadp]', 'three');
  await page.press('input[name=wadp]', 'Tab');
  await page.waitForSelector('#serving-curves .error');
  assert.match(await page.textContent('#serving-curves .error'), /Attention data-parallel: 'three' is not a whole number/);
  assert.equal(await page.evaluate(() => new URLSearchParams(location.search).get('wadp')), '8');
  // Degrees that divide no replica of the domain are named where the answer would be.
  await page.fill('input[name=wadp]', '3');
  await page.press('input[name=wadp]', 'Tab');
  await page.waitForSelector('#serving-no-fit');
  assert.match(await page.textContent('#serving-no-fit'), /attention data-parallel degree 3 .*divide no replica/);
  assert.deepEqual(page.errors, []);
});

test('workload: a micro-batch and host offload set on the page are the CLI\'s, and the link carries them', async () => {
  const page = await open(`?v=${V}&page=workload&wsys=tpu-v6e-256&wnodes=1&wmodel=llama3-70b`);
  await page.waitForSelector('input[name=wmb]');
  assert.equal(await page.inputValue('input[name=wmb]'), '');
  await page.fill('input[name=wmb]', '4');
  await page.press('input[name=wmb]', 'Tab');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('wmb') === '4');
  await page.selectOption('select[name=woff]', '1');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('woff') === '1');
  const link = await page.evaluate(() => location.search);
  const want = cli(['eval', '--link', link]);
  await page.waitForFunction((v) => Math.abs(Number(document.querySelector('#tokens-per-s').dataset.value) / v - 1) < 1e-9, want.tokens_per_s);
  // A micro-batch that is not one is named and changes nothing.
  await page.fill('input[name=wmb]', 'four');
  await page.press('input[name=wmb]', 'Tab');
  await page.waitForSelector('.inputs .error');
  assert.match(await page.textContent('.inputs .error'), /Micro-batch: 'four' is not a whole number/);
  assert.equal(await page.evaluate(() => new URLSearchParams(location.search).get('wmb')), '4');
  assert.deepEqual(page.errors, []);
});

test('workload: the step beside the platform compared with, and one click puts an operation on the Roofline page', async () => {
  const page = await open('?page=workload&wsys=hgx-h100-8&wnodes=8&wdtype=fp8&wref=gb200-nvl72');
  await page.waitForSelector('#step-beside-bar');
  // Both bars share one time scale: the slower step fills it, the other falls short.
  const width = (sel) => page.$$eval(`${sel} rect`, (rs) => rs.reduce((t, r) => t + parseFloat(r.getAttribute('width')), 0));
  const [mine, other] = [await width('#step-breakdown-bar'), await width('#step-beside-bar')];
  assert.ok(Math.abs(Math.max(mine, other) - 100) < 0.1 && Math.min(mine, other) < 99.9, `${mine} ${other}`);
  assert.match(await page.textContent('#step-beside-table'), /MLP/);
  // The MLP's row places one call of it on the Roofline page, in place; the link carries it.
  await page.click('#step-breakdown-table tr:has(th:text-matches("MLP")) a.place');
  await page.waitForSelector('#roofline-canvas', { timeout: 30000 });
  await page.waitForFunction(() => location.search.includes('page=roofline'));
  const url = new URL(page.url());
  const op = url.searchParams.getAll('op').find((o) => o.startsWith('work:'));
  assert.match(op ?? '', /^work:[0-9.e+]+,[0-9.e+]+;MLP/, url.search);
  await page.waitForSelector('#roofline-table');
  assert.match(await page.textContent('#roofline-table'), /MLP/);
  assert.deepEqual(page.errors, []);
});

test('learn: the lessons are listed, each is its own link, and an exercise is marked right or wrong', async () => {
  const page = await open('?page=learn');
  const ids = await page.$$eval('nav.lessons li[data-lesson]', (ls) => ls.map((l) => l.dataset.lesson));
  assert.ok(ids.length >= 5, ids.join());
  assert.equal(await page.getAttribute('article.lesson', 'data-lesson'), ids[0]);
  // The lesson is built around a live view of the app itself, alone (embed=1).
  const src = await page.getAttribute('.live-view iframe', 'src');
  assert.match(src, /embed=1/);
  const frame = page.frameLocator('.live-view iframe');
  await frame.locator('#roofline-canvas').waitFor({ timeout: 30000 });
  assert.equal(await frame.locator('nav').count(), 0);
  // A wrong answer is marked wrong with a hint; the right one right, and kept.
  const ex = page.locator('.exercise').first();
  await ex.locator('input').fill('1');
  await ex.locator('button[type=submit]').click();
  assert.equal(await ex.getAttribute('data-state'), 'wrong');
  assert.match(await ex.locator('.verdict').textContent(), /Too low.*Hint/);
  // The worked answer is behind a click, and gives the answer the page accepts.
  await ex.locator('details.worked summary').click();
  const worked = await ex.locator('details.worked p').textContent();
  const answer = worked.match(/= ([0-9.,]+) FLOP\/B/)[1];
  await ex.locator('input').fill(answer);
  await ex.locator('button[type=submit]').click();
  assert.equal(await ex.getAttribute('data-state'), 'right');
  assert.match(await page.textContent('#learn-progress'), /^1 exercise solved/);
  // Each exercise keeps its own answer: another lesson opens clean, and this one's comes back.
  await page.click(`nav.lessons li[data-lesson="${ids[1]}"] a`);
  await page.waitForSelector(`article.lesson[data-lesson="${ids[1]}"]`);
  assert.deepEqual(await page.$$eval('.exercise input', (is) => is.map((i) => i.value).filter(Boolean)), []);
  await page.click(`nav.lessons li[data-lesson="${ids[0]}"] a`);
  await page.waitForSelector(`article.lesson[data-lesson="${ids[0]}"]`);
  assert.equal(await page.locator('.exercise').first().locator('input').inputValue(), answer);
  // Solved is what the latest answer says: a wrong one after the right one takes it back.
  const again = page.locator('.exercise').first();
  await again.locator('input').fill('1');
  await again.locator('button[type=submit]').click();
  assert.equal(await again.getAttribute('data-state'), 'wrong');
  assert.equal(await again.locator('.solved-mark').count(), 0);
  assert.match(await page.textContent('#learn-progress'), /^0 exercises solved/);
  await again.locator('input').fill(answer);
  await again.locator('button[type=submit]').click();
  assert.match(await page.textContent('#learn-progress'), /^1 exercise solved/);
  // Another lesson is its own link; progress survives a reload.
  await page.click(`nav.lessons li[data-lesson="${ids[2]}"] a`);
  await page.waitForSelector(`article.lesson[data-lesson="${ids[2]}"]`);
  await page.waitForFunction((id) => location.search.includes(`lesson=${id}`), ids[2]);
  await page.reload();
  await page.waitForSelector(`article.lesson[data-lesson="${ids[2]}"]`);
  assert.match(await page.textContent('#learn-progress'), /^1 exercise solved/);
  assert.match(await page.textContent(`nav.lessons li[data-lesson="${ids[0]}"]`), /1 ✓/);
  assert.deepEqual(page.errors, []);
});

test('workload: serving simulated request by request in a worker, with TTFT against load on two platforms, and Cancel', async () => {
  const page = await open('?page=workload&wsys=hgx-h200-8&wmodel=llama3-70b&wdtype=fp8&wref=trn2-16');
  await page.waitForSelector('#sim-run');
  await page.fill('input[name=sim-rate]', '3');
  await page.dispatchEvent('input[name=sim-rate]', 'change');
  // The simulation's settings travel in the link.
  await page.waitForFunction(() => location.search.includes('wsrate=3'));
  await page.click('#sim-run');
  await page.waitForSelector('#sim-result', { timeout: 60000 });
  // Under load the queue adds to the first token; the analytic figure is for a request alone.
  const tpot = Number(await page.getAttribute('#sim-result', 'data-tpot-p50'));
  const alone = Number(await page.getAttribute('#sim-result', 'data-analytic-tpot'));
  assert.ok(tpot >= alone * 0.95, `${tpot} against ${alone}`);
  assert.ok(Number(await page.getAttribute('#sim-result', 'data-completed')) > 1000);
  await page.waitForSelector('#sim-load', { timeout: 120000 });
  // Then the simulator beside the published runs it is checked on, each with its role.
  await page.waitForSelector('#sim-published-table', { state: 'attached', timeout: 120000 });
  const roles = await page.$$eval('#sim-published-table tbody tr', (rs) => rs.map((r) => r.dataset.role));
  assert.ok(roles.length >= 12 && roles.includes('held-out'), roles.join());
  const loads = (await page.getAttribute('#sim-load', 'data-max-load')).split('|');
  assert.equal(loads.length, 2, loads.join());
  for (const l of loads) assert.ok(Number(l.split(':').pop()) > 0, l);
  await page.waitForFunction(() => !document.querySelector('#sim-run').disabled);
  // An engine adds its own time a step: the same load on SGLang's decodes slower, and the
  // engine and the spread of lengths travel in the link.
  await page.selectOption('select[name=sim-engine]', 'sglang');
  await page.check('input[name=sim-vary]');
  await page.fill('input[name=sim-host-kv]', '256');
  await page.dispatchEvent('input[name=sim-host-kv]', 'change');
  await page.waitForFunction(() => location.search.includes('wseng=sglang') && location.search.includes('wsvary=1') && location.search.includes('wshkv=256'));
  await page.click('#sim-run');
  await page.waitForFunction((t) => Number(document.querySelector('#sim-result')?.dataset.tpotP50) > t * 1.1, tpot, { timeout: 60000 });
  await page.waitForFunction(() => !document.querySelector('#sim-run').disabled, null, { timeout: 120000 });
  // Cancel stops a long run: a lighter load over an hour, stopped at once.
  await page.selectOption('select[name=sim-duration]', '3600');
  await page.click('#sim-run');
  await page.click('#sim-cancel');
  await page.waitForFunction(() => document.querySelector('#sim-stage').textContent === 'cancelled');
  assert.deepEqual(page.errors, []);
});

test('phone: the answer comes before the inputs, which fold into one line and open on a tap', async () => {
  const phone = { width: 390, height: 844 };
  const page = await open('?page=workload&wsys=hgx-h100-8&wnodes=8', phone);
  await page.waitForSelector('#job-cards');
  const y = async (sel) => (await page.locator(sel).first().boundingBox())?.y ?? -1;
  assert.ok(await y('#job-cards') < await y('.inputs-fold .fold-bar'), 'cards first');
  assert.equal(await page.locator('.inputs-fold .fold-body').isVisible(), false);
  await page.click('.inputs-fold .fold-toggle');
  assert.equal(await page.locator('.inputs-fold .fold-body').isVisible(), true);
  // Opened, the inputs start at the top of the screen with their first field in view.
  const atTop = async (p, bar, field) => {
    await p.waitForFunction((s) => Math.abs(document.querySelector(s).getBoundingClientRect().top) < 2, bar, { timeout: 5000 }).catch(() => {});
    const b = await p.locator(bar).first().boundingBox();
    const f = await p.locator(field).first().boundingBox();
    assert.ok(Math.abs(b.y) < 2 && f.y > 0 && f.y + f.height < phone.height, `bar at ${b.y}, field at ${f.y}`);
  };
  await atTop(page, '.inputs-fold', '.inputs-fold .fold-body select, .inputs-fold .fold-body input');
  assert.match(await page.textContent('.inputs-fold .fold-summary'), /HGX H100.*× 8/);
  // The Kernels page: its result before its form.
  const k = await open('?page=kernels&km=16&kn=16&kk=16', phone);
  await k.waitForSelector('.kresult', { timeout: 30000 });
  const ky = async (sel) => (await k.locator(sel).first().boundingBox())?.y ?? -1;
  assert.ok(await ky('.kanswer') < await ky('.kfold-bar'), 'result first');
  assert.equal(await k.locator('.kinputs').isVisible(), false);
  await k.click('button[data-act=fold]');
  assert.equal(await k.locator('.kinputs').isVisible(), true);
  await atTop(k, '.kfold-bar', '.kinputs select, .kinputs input');
  // On a wide screen nothing folds.
  const wide = await open('?page=workload');
  assert.equal(await wide.locator('.inputs-fold .fold-body').isVisible(), true);
  assert.equal(await wide.locator('.inputs-fold .fold-bar').isVisible(), false);
  // On a desktop screen the answer starts within the first screen, a row of it in view.
  const cards = await wide.locator('#job-cards').boundingBox();
  assert.ok(cards.y + 120 < 900, `the answer starts at ${cards.y} px`);
  assert.deepEqual([...page.errors, ...k.errors, ...wide.errors], []);
});

test('workload: a pasted trace is simulated as given, and a bad one is named without running', async () => {
  const page = await open('?page=workload&wsys=hgx-h200-8&wmodel=llama3-70b&wdtype=fp8');
  await page.waitForSelector('#sim-run');
  await page.click('.sim-trace summary');
  await page.fill('#sim-trace-text', 'arrival_s,prompt,output\n0.5,100\n');
  await page.click('#sim-run');
  assert.match(await page.textContent('#serving-load .error'), /trace line 2/);
  await page.fill('#sim-trace-text', 'arrival_s,prompt,output\n0.0,1024,64\n0.2,2048,32\n# a comment\n1.5,512,16\n');
  await page.click('#sim-run');
  await page.waitForSelector('#sim-result', { timeout: 60000 });
  assert.equal(await page.getAttribute('#sim-result', 'data-completed'), '3');
  assert.match(await page.textContent('#sim-result'), /3 requests of trace traffic/);
  assert.deepEqual(page.errors, []);
});

test('workload: serving it yourself beside dated, sourced API prices, with the break-even utilisation', async () => {
  const page = await open('?page=workload&wsys=hgx-h100-8&wmodel=llama3-70b&wdtype=fp8');
  await page.waitForSelector('#api-prices');
  const rows = await page.$$eval('#api-prices tbody tr', (rs) => rs.map((r) => [...r.cells].map((c) => c.textContent)));
  assert.ok(rows.length >= 6, `${rows.length} prices`);
  // The same model leads, marked; every price is dated.
  assert.match(rows[0][0], /Llama 3\.3 70B.*✓/);
  for (const r of rows) assert.match(r[7], /^20\d\d-\d\d/, r.join(' | '));
  const own = Number(await page.getAttribute('#self-usd-per-mtok', 'data-v'));
  assert.ok(own > 0);
  assert.ok(await page.$('[data-csv="api-prices"]'));
  assert.deepEqual(page.errors, []);
});

test('offline: after one visit every page opens from cold with the network cut, and the app installs', async () => {
  // Served from a sub-path, as a static host may.
  const root = mkdtempSync(join(tmpdir(), 'accelscope-host-'));
  cpSync(process.env.DIST ?? '../dist', join(root, 'tools', 'accelscope'), { recursive: true });
  const host = await serve(root);
  const at = host.url + 'tools/accelscope/';
  const ctx = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const first = await ctx.newPage();
  const errors = [];
  first.on('pageerror', (e) => errors.push(String(e)));
  await first.goto(at + '?');
  await first.waitForSelector('#chips-table');
  // The service worker registers once the page is idle and caches the whole build.
  await first.evaluate(() => navigator.serviceWorker.ready.then(() => true));
  const manifest = await first.evaluate(async () => {
    const href = document.querySelector('link[rel=manifest]').href;
    const m = await (await fetch(href)).json();
    const icons = await Promise.all(m.icons.map(async (i) => (await fetch(new URL(i.src, href))).ok));
    return { name: m.name, display: m.display, icons };
  });
  assert.equal(manifest.name, 'accelscope');
  assert.equal(manifest.display, 'standalone');
  assert.ok(manifest.icons.length >= 2 && manifest.icons.every(Boolean), JSON.stringify(manifest));
  await first.close();
  await ctx.setOffline(true);
  for (const [q, ready] of [
    ['?', '#chips-table'],
    ['?page=roofline&chips=trn2,h100-sxm', '#roofline-canvas'],
    ['?page=topology&sys=trn2-16', '#topology-svg'],
    ['?page=collectives', '#collective-table'],
    ['?page=workload&wsys=hgx-h100-8', '.card'],
    ['?page=kernels&km=16&kn=16&kk=16', '.kernels-page .kform'],
    ['?page=compare', '.compare-page'],
    ['?page=learn&lesson=cost', 'article.lesson[data-lesson=cost]'],
  ]) {
    const page = await ctx.newPage();
    page.on('pageerror', (e) => errors.push(`${q}: ${e}`));
    await page.goto(at + q);
    await page.waitForSelector(ready, { timeout: 30000 });
    await page.close();
  }
  await ctx.setOffline(false);
  await ctx.close();
  await host.close();
  rmSync(root, { recursive: true, force: true });
  assert.deepEqual(errors, []);
});

let passed = 0;
let failed = 0;
const only = process.env.E2E_ONLY ? new RegExp(process.env.E2E_ONLY) : null;
for (const t of tests.filter((t) => !only || only.test(t.name))) {
  const t0 = Date.now();
  try {
    await t.fn();
    passed++;
    console.log(`ok   ${t.name} (${Date.now() - t0} ms)`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${t.name}\n     ${String(e.stack ?? e).split('\n').slice(0, 6).join('\n     ')}`);
  }
}
await browser.close();
await srv.close();
console.log(`\ne2e: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
