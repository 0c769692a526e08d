// What the journey specs share: texts as the page shows them in its language, buttons by their label,
// and the mails the run's mail sink received.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MAILBOX } from './browser.mjs';

const LOCALES = fileURLToPath(new URL('../../../web/public/locales/', import.meta.url));

/** A text of the web's locale file, as the page shows it in that language. */
export function text(lang, namespace, key) {
  const tree = JSON.parse(fs.readFileSync(`${LOCALES}${lang}/${namespace}.json`, 'utf8'));
  const value = key.split('.').reduce((node, part) => node?.[part], tree);
  assert.equal(typeof value, 'string', `${lang}/${namespace}.json has ${key}`);
  return value;
}

/** A button's accessible name: antd puts a space between the two characters of a Chinese label ("保 存"). */
export function label(value) {
  return new RegExp(`^${[...value].map((char) => char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s*')}$`);
}

/** The mails to `address` the sink received since `since` (ms). */
export function mailsTo(address, since) {
  const lines = fs.existsSync(MAILBOX) ? fs.readFileSync(MAILBOX, 'utf8').split('\n').filter(Boolean) : [];
  return lines.map((line) => JSON.parse(line)).filter((mail) => mail.to === address && mail.at >= since);
}

/** The first such mail that matches, waited for (the worker sends it). */
export async function waitForMail(address, since, match, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const found = mailsTo(address, since).find(match);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 250)); // polling a file another process appends to
  }
  assert.fail(`no matching mail to ${address}: ${JSON.stringify(mailsTo(address, since).map((mail) => mail.subject))}`);
}
