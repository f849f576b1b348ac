// Trunk's post-build hook: comments and layout out of the stylesheet and scripts, then the
// Content-Security-Policy and integrity, then the service worker, whose cache name is made from
// the files as they finally are.
await import('./minify.mjs');
await import('./csp.mjs');
await import('./sw.mjs');
