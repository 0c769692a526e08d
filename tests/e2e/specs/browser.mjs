// Shared browser set-up of the e2e specs: Debian's Chromium driven by playwright-core, plus helpers
// to talk to the api the way the web server does, and to read the mail the api's worker sent.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const WEB_PORT = process.env.E2E_WEB_PORT || '3100';
export const API_PORT = process.env.E2E_API_PORT || '5100';
export const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));
export const MAILBOX = process.env.E2E_MAILBOX || path.join(ARTIFACTS, 'mailbox.jsonl');
export const DEMO_PASSWORD = 'Cold#2026'; // published demo logins (api/cli.py)
const SEVEN_DAYS_MS = 604_800_000;

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
export async function contextFor(browser, host, lang, viewport = { width: 1440, height: 900 }, options = {}) {
  const context = await browser.newContext({ viewport, ...options });
  if (lang) await context.addCookies([{ name: 'lang', value: lang, domain: host, path: '/' }]);
  return context;
}

export async function screenshot(page, name, fullPage = true) {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage });
}

/** Page errors and console errors of a page, to assert none happened. */
export function collectErrors(page) {
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  return errors;
}

/** Fill and submit the Sign In tab of the login page (any language: fields are found by id). */
export async function signInWithForm(page, userName, password = DEMO_PASSWORD) {
  await page.locator('#userName').fill(userName);
  await page.locator('#password').fill(password);
  // The form asks for the captcha only when the api says so (the e2e api runs with CAPTCHA_REQUIRED=0).
  const form = page.locator('form[data-captcha]').filter({ has: page.locator('#userName') });
  await page.waitForFunction(() => document.querySelector('form[data-captcha]')?.getAttribute('data-captcha') !== 'loading');
  if ((await form.getAttribute('data-captcha')) === 'required') await page.locator('#verifyCode').fill('0000');
  await page.getByTestId('login-submit').click();
}

let forwardedClient = 0;

/**
 * Call the api directly, as the web server's /api forwarder does (the api trusts this machine as
 * its proxy): X-Forwarded-Host names the site; X-Forwarded-For a client address of the test range
 * 198.18.0.0/15, a new one per call, so these set-up calls never use up the browser's sign-in limits.
 */
export async function api(host, method, pathname, { token, body, lang = 'en-US' } = {}) {
  forwardedClient += 1;
  const response = await fetch(`http://127.0.0.1:${API_PORT}/api${pathname}`, {
    method,
    headers: {
      'Content-Type': 'application/json',
      'Accept-Language': lang,
      'X-Forwarded-Host': `${host}:${WEB_PORT}`,
      'X-Forwarded-For': `198.18.${process.pid % 250}.${forwardedClient % 250}`,
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json().catch(() => null) };
}

/** A fresh session token of a demo account, without going through the sign-in form. */
export async function apiLogin(host, userName, password = DEMO_PASSWORD) {
  const { status, body } = await api(host, 'POST', '/base/BaseAccount/login', { body: { userName, password } });
  if (status !== 200 || body?.code !== 0) throw new Error(`sign-in of ${userName} at ${host} failed: ${status} ${JSON.stringify(body)}`);
  return body.data.token;
}

/** Store a session token in the browser the way the web does (Access-Token, 7 days). */
export async function useToken(page, host, token) {
  await page.goto(siteUrl(host, '/404'));
  await page.evaluate(
    ([value, ttl]) => localStorage.setItem('Access-Token', JSON.stringify({ value, expire: Date.now() + ttl })),
    [token, SEVEN_DAYS_MS],
  );
}

export const storedToken = (page) => page.evaluate(() => JSON.parse(localStorage.getItem('Access-Token') ?? 'null'));

/** The verification code of the newest mail to `address` sent after `since` (epoch ms). */
export async function waitForCode(address, since, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const lines = fs.existsSync(MAILBOX) ? fs.readFileSync(MAILBOX, 'utf8').split('\n').filter(Boolean) : [];
    const mail = lines
      .map((line) => JSON.parse(line))
      .filter((item) => item.to === address.toLowerCase() && item.at >= since)
      .at(-1);
    const code = mail?.text.match(/(?:verification code is|验证码[^\d]{0,10})\s*(\d{6})/i)?.[1];
    if (code) return code;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no verification code for ${address} in ${MAILBOX} after ${timeoutMs / 1000}s`);
}

/** The `.ant-select` root of a select found by a CSS selector of itself or of something inside it. */
export function selectOf(page, inner) {
  return page.locator(`.ant-select:has(${inner}), .ant-select${inner}`).first();
}

/**
 * Pick `option` in the antd select `select` (its `.ant-select` root) and wait until the select shows it.
 * A click during the dropdown's opening motion is lost, and clicking the select again would close the
 * dropdown: so an open dropdown is reused, its motion waited out, and the pick tried again until the
 * select shows the option; a dropdown left open is closed (Escape), so it covers nothing afterwards.
 * For single selects: a multiple one stays open on purpose, and an Escape there may close its form.
 * `exact`: the option's title must be exactly `option` (otherwise its text contains it).
 */
export async function chooseOption(page, select, option, { exact = false } = {}) {
  const dropdown = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
  const shown = select.locator('.ant-select-content, .ant-select-selection-item', { hasText: option }).first();
  for (let attempt = 0; attempt < 5; attempt += 1) {
    if (!(await dropdown.first().isVisible())) await select.click();
    const choice = exact ? dropdown.getByTitle(option, { exact: true }).first() : dropdown.locator('.ant-select-item-option', { hasText: option }).first();
    if (!(await choice.waitFor({ timeout: 5_000 }).then(() => true, () => false))) continue;
    await page.waitForTimeout(300);
    await choice.click({ timeout: 5_000 }).catch(() => undefined);
    if (await shown.waitFor({ timeout: 2_000 }).then(() => true, () => false)) {
      // Its closing motion first; only a dropdown still open after it gets an Escape.
      if (await dropdown.first().waitFor({ state: 'hidden', timeout: 3_000 }).then(() => false, () => true)) await page.keyboard.press('Escape');
      return;
    }
  }
  throw new Error(`could not choose ${option}`);
}

/**
 * Press a confirmation dialog's button `name` until the dialog goes: a click during its opening motion
 * is lost (the call it confirms is then never made).
 */
export async function confirmDialog(page, name) {
  const dialog = page.locator('.ant-modal-confirm');
  const button = dialog.getByRole('button', { name });
  for (let attempt = 0; attempt < 5; attempt += 1) {
    await button.click({ timeout: 5_000 }).catch(() => undefined);
    if (await dialog.waitFor({ state: 'hidden', timeout: 2_000 }).then(() => true, () => false)) return;
  }
  throw new Error(`the dialog's ${name} button never took`);
}

/**
 * The open dropdown menu (user menu, context menu, a button's menu), once its opening motion has ended:
 * rc-motion keeps its `-appear` / `-enter` classes on the menu while it moves, and a click during the
 * motion lands outside the menu, which then closes (the calibration order menu's first item was lost
 * that way under load). Playwright waits until the menu matches, so no fixed pause is needed.
 */
export function openDropdown(page) {
  return page.locator(
    '.ant-dropdown:not(.ant-dropdown-hidden):not([class*="-appear"]):not([class*="-enter"]):not([class*="-leave"])',
  );
}

/** Click an entry of an open dropdown menu by its name (see openDropdown). */
export async function chooseMenuItem(page, name) {
  await openDropdown(page).getByRole('menuitem', { name }).click();
}

/**
 * On a phone the menu drawer stays closed until its button is pressed (issue 47); a test that
 * opened it closes it (Escape) before working with the page under it. Nothing to do when closed.
 */
export async function closeMobileMenu(page) {
  const open = page.locator('.ant-drawer-open [data-testid="side-menu"]');
  if (!(await open.count())) return;
  await page.waitForTimeout(300); // the drawer's slide-in; a key during it is lost
  await page.keyboard.press('Escape');
  await open.waitFor({ state: 'hidden' });
}

/**
 * Select a tab and wait until it is the selected one. A click that lands while a closing drawer's
 * mask is still fading (the phone's menu) is lost, so the click is repeated until the tab is selected.
 */
export async function selectTab(page, name) {
  const tab = page.getByRole('tab', { name, exact: true });
  const selected = page.locator('[role="tab"][aria-selected="true"]', { hasText: name });
  for (let attempt = 0; attempt < 5; attempt += 1) {
    await tab.click();
    if (await selected.waitFor({ timeout: 2_000 }).then(() => true, () => false)) return;
  }
  throw new Error(`the tab "${name}" was never selected`);
}
