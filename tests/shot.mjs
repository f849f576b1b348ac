// Screenshots of a few views at desktop and phone widths into tests/out/.
import { mkdirSync } from 'node:fs';
import { serve } from './server.mjs';
import { launch } from './browser.mjs';

const views = process.argv.slice(2).length ? process.argv.slice(2) : ['?page=chips', '?page=roofline'];
mkdirSync('out', { recursive: true });
const srv = await serve('../dist');
const browser = await launch();
for (const [name, width, height] of [['desktop', 1366, 900], ['phone', 390, 844]]) {
  const page = await browser.newPage({ viewport: { width, height }, deviceScaleFactor: name === 'phone' ? 2 : 1 });
  page.on('console', (m) => m.type() === 'error' && console.log('console:', m.text()));
  for (const v of views) {
    await page.goto(srv.url + v);
    await page.waitForSelector('main h1');
    await page.waitForTimeout(300);
    const file = `out/${name}-${v.replace(/[^a-z0-9]+/gi, '_')}.png`;
    await page.screenshot({ path: file, fullPage: true });
    console.log(file);
  }
}
await browser.close();
await srv.close();
