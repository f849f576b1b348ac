// Trunk post-build hook (after csp.mjs): writes sw.js, the service worker that keeps the app
// working offline. It caches every file of the build at install, under a name made from the
// files' own hashes, so a new release installs beside the old one, waits until the page
// accepts it (the page offers to reload), then replaces it whole. It answers the app's own
// requests from that cache first and any navigation inside its scope with index.html, so a
// link opens offline from any static host and sub-path.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) throw new Error('sw.mjs runs as a Trunk hook (TRUNK_STAGING_DIR is not set)');

const walk = (d) =>
  readdirSync(d).flatMap((f) => {
    const p = join(d, f);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
const files = walk(dir)
  .map((p) => relative(dir, p).split(sep).join('/'))
  .filter((f) => f !== 'sw.js')
  .sort();
const version = createHash('sha256');
for (const f of files) version.update(f).update(readFileSync(join(dir, f)));

const sw = `// Written by scripts/sw.mjs at build time: the app's offline cache.
const CACHE = 'accelscope-${version.digest('hex').slice(0, 16)}';
const FILES = ${JSON.stringify(files)};

self.addEventListener('install', (e) => {
  e.waitUntil(
    caches.open(CACHE).then((c) => c.addAll(FILES.map((f) => new Request(f, { cache: 'reload' })))),
  );
});

self.addEventListener('activate', (e) => {
  e.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('accelscope-') && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

// The page accepted the new release.
self.addEventListener('message', (e) => {
  if (e.data === 'activate') self.skipWaiting();
});

self.addEventListener('fetch', (e) => {
  const req = e.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  const scope = new URL(self.registration.scope);
  if (url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) return;
  const cached = (what) => caches.open(CACHE).then((c) => c.match(what, { ignoreSearch: true }));
  if (req.mode === 'navigate') {
    e.respondWith(cached(new URL('index.html', scope).href).then((r) => r || fetch(req)));
  } else {
    e.respondWith(cached(req).then((r) => r || fetch(req)));
  }
});
`;
writeFileSync(join(dir, 'sw.js'), sw);
console.log(`sw: ${files.length} files cached offline`);
