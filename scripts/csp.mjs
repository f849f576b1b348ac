// Trunk post-build hook: writes a Content-Security-Policy meta tag into the staged
// index.html. Scripts run only from the app's own files and the loader Trunk writes inline
// (allowed by its hash, computed here from the built page); WebAssembly may compile; no
// connection goes anywhere but the app's own origin; no plugin, base or form target.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) throw new Error('csp.mjs runs as a Trunk hook (TRUNK_STAGING_DIR is not set)');
const file = join(dir, 'index.html');
let html = readFileSync(file, 'utf8');
// The pages' modules share the app's snippet folder, and Trunk preloads every file in it: the
// first page fetches only the snippets the app's own module imports.
const entry = /import init, \* as bindings from '\.\/([^']+\.js)'/.exec(html)?.[1];
if (!entry) throw new Error("csp.mjs: no app module in Trunk's loader");
const imported = new Set(
  [...readFileSync(join(dir, entry), 'utf8').matchAll(/from ["']\.\/(snippets\/[^"']+)["']/g)].map((m) => m[1]),
);
html = html.replace(/<link rel="modulepreload" href="\.\/(snippets\/[^"]+)"[^>]*>/g, (link, path) =>
  imported.has(path) ? link : '',
);
// Subresource integrity from the files as staged. Several of Trunk's pipelines (the shell and
// the lazily loaded pages) write the same wasm-bindgen snippet; when one hashes it while
// another is rewriting it, the page's hash and the file disagree and the browser refuses the
// file. Every writer writes the same bytes, so hashing the staged file settles it.
html = html.replace(
  /(<(?:link|script)\b[^>]*?\b(?:href|src)="\.\/([^"]+)"[^>]*?\bintegrity=")sha384-[^"]*(")/g,
  (_, head, path, tail) =>
    `${head}sha384-${createHash('sha384').update(readFileSync(join(dir, path))).digest('base64')}${tail}`,
);
// A link to a page with its own module fetches, compiles and starts that module at once,
// beside the app's, rather than after the app has mounted; the app mounts it when it is ready. The pages are the modules built
// beside the app (NAME.js with NAME_bg.wasm), less the two that are not pages.
const pages = readdirSync(dir)
  .map((f) => /^([a-z]+)_bg\.wasm$/.exec(f)?.[1])
  .filter((n) => n && !['charts', 'worker'].includes(n) && existsSync(join(dir, `${n}.js`)))
  .sort();
// A page that also has a module holding the whole app with it (NAME_app.js, starting with
// `start()`): a link to it starts from that one module alone, so the engine and the views are
// compiled and started once, not once in the app's module and again in the page's.
const whole = pages.filter((n) => existsSync(join(dir, `${n}_app.js`)) && existsSync(join(dir, `${n}_app_bg.wasm`)));
const appWasm = /<link rel="preload" href="\.\/(app-[0-9a-f]+_bg\.wasm)"/.exec(html)?.[1];
if (!appWasm) throw new Error("csp.mjs: Trunk's page no longer preloads the app's wasm as this hook expects");
const preload = `<script>(() => {
  const p = new URLSearchParams(location.search).get('page');
  const stream = WebAssembly.compileStreaming;
  // The Compare and Learn pages read this browser's storage as they mount, and the first read
  // of a page opens it, a synchronous round trip to the browser (1 to 5 ms here): done now,
  // while the modules download, it leaves their mount.
  setTimeout(() => { try { localStorage.length; } catch (e) {} }, 0);
  const start = (name) => {
    const wasm = WebAssembly.compileStreaming(fetch(name + '_bg.wasm'));
    const ready = import('./' + name + '.js').then(async (m) => {
      await m.default({ module_or_path: wasm });
      return m;
    });
    ready.catch(() => {});
    return ready;
  };
  if (stream && ${JSON.stringify(whole)}.includes(p)) {
    window.accelscopeWhole = start(p + '_app');
    return;
  }
  // The app's own module, fetched now (a server that does not send wasm as application/wasm
  // fails the compile: then the path, for wasm-bindgen's own fallback).
  window.accelscopeApp = stream ? stream(fetch('${appWasm}')).catch(() => '${appWasm}') : '${appWasm}';
  if (stream && ${JSON.stringify(pages)}.includes(p)) window.accelscopePreloaded = { [p]: start(p) };
})();</script>`;
html = html.replace(/<script>\(\(\) => \{\n  const p = new URLSearchParams[\s\S]*?<\/script>\s*/g, '');
// First in the head (the policy below goes before it): an inline script waits for the
// stylesheets above it, and the page's module then started downloading only once the
// stylesheet had arrived, after the app's own module.
const charset = '<meta charset="utf-8" />';
if (!html.includes(charset)) throw new Error('csp.mjs: no charset meta to put the page preload after');
html = html.replace(charset, `${charset}\n    ${preload}`);
// The app starts once that page's module is compiled too (for at most a quarter of a second
// more). Both modules' downloads are compiled on the main thread as they arrive, so the app's
// start, run first, held the page's module back, and a frame of the app without its page
// was drawn between the two: the page then mounts in the same task as the app. A link to a
// page with a whole-app module starts that module instead (and the app's, should it fail).
const start = /const wasm = await init\(\{ module_or_path: '(\.\/[^']+_bg\.wasm)' \}\);\s*window\.wasmBindings = bindings;([\s\S]*?)dispatchEvent\(new CustomEvent\("TrunkApplicationStarted", \{detail: \{wasm\}\}\)\);/;
if (!start.test(html) && !html.includes('accelscopeWhole')) {
  throw new Error("csp.mjs: Trunk's loader no longer starts the app as this hook expects");
}
html = html.replace(
  start,
  `let started = await (window.accelscopeWhole ?? Promise.reject()).then((m) => {
  m.start();
  window.wasmBindings = m;
  return true;
}, () => false);
if (!started) {
  const app = window.accelscopeApp ?? '$1';
  const page = Object.values(window.accelscopePreloaded ?? {})[0];
  if (page) {
    await app;
    await Promise.race([page.catch(() => {}), new Promise((r) => setTimeout(r, 250))]);
  }
  await init({ module_or_path: await app });
  window.wasmBindings = bindings;
}$2dispatchEvent(new CustomEvent("TrunkApplicationStarted"));`,
);
// The app's wasm is fetched by the script first in the head, and only when the link's page
// needs it.
html = html.replace(/<link rel="preload" href="\.\/app-[0-9a-f]+_bg\.wasm"[^>]*>/, '');
// Trunk's worker loader calls wasm-bindgen's initialisation the deprecated way (a bare path),
// which warns in the console each time a worker starts.
const loader = join(dir, 'worker_loader.js');
if (existsSync(loader)) {
  const js = readFileSync(loader, 'utf8').replace(
    /wasm_bindgen\((["'][^"']+["'])\)/,
    'wasm_bindgen({ module_or_path: $1 })',
  );
  writeFileSync(loader, js);
}
const hashes = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
  (m) => `'sha256-${createHash('sha256').update(m[1], 'utf8').digest('base64')}'`,
);
const policy = [
  "default-src 'self'",
  `script-src 'self' 'wasm-unsafe-eval' ${hashes.join(' ')}`.trim(),
  // Charts and tables set widths and colours in style attributes.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "worker-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');
const meta = `<meta http-equiv="Content-Security-Policy" content="${policy}" />`;
html = html.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>\s*/g, '');
if (!/<meta charset="utf-8" \/>/.test(html)) throw new Error('csp.mjs: no charset meta to follow');
html = html.replace('<meta charset="utf-8" />', `<meta charset="utf-8" />\n    ${meta}`);
writeFileSync(file, html);
console.log(`csp: ${hashes.length} inline script(s) allowed by hash; pages preloaded from a link: ${pages.join(', ')}; started with the app in one module: ${whole.join(', ') || 'none'}`);
