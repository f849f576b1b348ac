// Debian's Chromium driven by playwright-core, with the flags this sandboxed, offline setting needs.
// Playwright gives each launch a fresh, empty profile directory of its own.
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** `extra`: more flags, e.g. `--enable-unsafe-webgpu` for a software WebGPU adapter. */
export function launch(extra = []) {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--disable-dev-shm-usage', ...extra,
    ],
  });
}
