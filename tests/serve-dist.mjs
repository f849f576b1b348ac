// `node serve-dist.mjs DIR PORT`: serve a built dist/ on 127.0.0.1 until stopped.
import { serve } from './server.mjs';

const [dir = 'dist', port = '8080'] = process.argv.slice(2);
const srv = await serve(dir, Number(port));
console.log(`accelscope is being served at ${srv.url} (Ctrl-C to stop)`);
