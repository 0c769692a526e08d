// Shared browser set-up of the e2e specs: Debian's Chromium driven by playwright-core.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const WEB_PORT = process.env.E2E_WEB_PORT || '3100';
export const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));

export function siteUrl(host, pathname) {
  return `http://${host}:${WEB_PORT}${pathname}`;
}

export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

/** A fresh browser context for one host and language (the `lang` cookie the language switch sets). */
export async function contextFor(browser, host, lang, viewport = { width: 1440, height: 900 }) {
  const context = await browser.newContext({ viewport });
  if (lang) await context.addCookies([{ name: 'lang', value: lang, domain: host, path: '/' }]);
  return context;
}

export async function screenshot(page, name) {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}
