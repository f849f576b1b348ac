// Debian's Chromium driven by playwright-core, with the flags this sandboxed, offline setting needs.
import { chromium } from 'playwright-core';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** A fresh persistent-profile-free browser. */
export function launch() {
  const profile = mkdtempSync(join(tmpdir(), 'accelscope-chromium-'));
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      `--user-data-dir=${profile}`,
    ].filter((a) => !a.startsWith('--user-data-dir')),
  });
}
