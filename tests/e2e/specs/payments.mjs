// The local payment fakes (tests/payment_fakes) as the default site's merchants, for the specs that pay.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { API_PORT, api, apiLogin, siteUrl } from './browser.mjs';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * Start the fakes (WeChat Pay on `port`, Alipay and PayPal on the next two) and save them as the
 * default site's merchants, notifying this run's api and sending the payer back to its web. Returns
 * the fakes' process: kill it when the spec ends.
 */
export async function startPaymentFakes(port) {
  const fakes = spawn(path.join(ROOT, '.venv/bin/python'), ['-m', 'tests.payment_fakes', String(port)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: fakes.stdout });
  const configs = await new Promise((resolve, reject) => {
    lines.once('line', (line) => resolve(JSON.parse(line)));
    fakes.once('exit', (code) => reject(new Error(`payment fakes exited with ${code}`)));
  });
  const operator = await apiLogin('localhost', 'operator');
  for (const provider of ['wechat', 'alipay', 'paypal']) {
    const config = { ...configs[provider], notifyBase: `http://127.0.0.1:${API_PORT}`, returnBase: siteUrl('localhost', '') };
    const { body } = await api('localhost', 'PUT', '/billing/PaymentMerchant/save', { token: operator, body: { provider, config } });
    assert.equal(body.code, 0, JSON.stringify(body));
  }
  return fakes;
}
