// Trunk's post-build hook: the Content-Security-Policy and integrity first, then the service
// worker, whose cache name is made from the files as they finally are.
await import('./csp.mjs');
await import('./sw.mjs');
