// Issue 48 in the browser: a waybill's goods under a stability profile show their budget (each band's
// used / allowed / remaining time, MKT) on the waybill page, as the api computes it from the readings.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { api, apiLogin, collectErrors, contextFor, launch, screenshot, siteUrl, useToken } from './browser.mjs';

const DESKTOP = { width: 1440, height: 900 };
const PROFILE = 'E2E vaccine 2-8';
let browser;
let cleanup = async () => {};

before(async () => {
  browser = await launch();
});
after(async () => {
  await cleanup();
  await browser?.close();
});

function duration(seconds) {
  const minutes = Math.round(seconds / 60);
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

describe('stability budgets (issue 48)', () => {
  test('a waybill with a profile shows its budget on the waybill page (1440 px, English)', async () => {
    const token = await apiLogin('localhost', 'demouser');
    const listed = await api('localhost', 'POST', '/waybill/Waybill/page', { token, body: { start: 1, pageSize: 50 } });
    const waybill = listed.body.data.list.find((w) => w.waybillNum === 'WB-DEMO-0001');
    assert.ok(waybill, 'the demo completed waybill');
    const profile = {
      name: PROFILE,
      rangeLow: 2,
      rangeHigh: 8,
      bands: [
        { low: 8, high: 25, hours: 72 },
        { low: null, high: 0, hours: 0 },
      ],
      mktLimit: 25,
      alertPercent: 80,
    };
    const created = await api('localhost', 'POST', '/budget/StabilityProfile/insert', { token, body: profile });
    assert.equal(created.body.code, 0, JSON.stringify(created.body));
    cleanup = async () => {
      await api('localhost', 'PUT', '/budget/WaybillBudget/assign', { token, body: { waybillId: waybill.id, profileId: null } });
      await api('localhost', 'DELETE', `/budget/StabilityProfile/delete/${created.body.data.id}`, { token });
    };
    const assigned = await api('localhost', 'PUT', '/budget/WaybillBudget/assign', {
      token,
      body: { waybillId: waybill.id, profileId: created.body.data.id },
    });
    assert.equal(assigned.body.code, 0, JSON.stringify(assigned.body));
    const [above] = assigned.body.data.bands;
    assert.ok(above.usedSeconds > 0, 'the demo trip has an excursion above 8 °C');

    const context = await contextFor(browser, 'localhost', 'en-US', DESKTOP);
    const page = await context.newPage();
    const errors = collectErrors(page);
    await useToken(page, 'localhost', token);
    await page.goto(siteUrl('localhost', '/waybill/list'));
    const row = page.getByTestId('waybill-table').locator('tr', { hasText: 'WB-DEMO-0001' });
    await row.getByTestId('waybill-open').click();
    await page.getByRole('tab', { name: 'Stability budget' }).click();
    const figures = page.getByTestId('budget-figures');
    await figures.getByText(PROFILE).waitFor();
    const bands = page.getByTestId('budget-bands');
    await bands.getByText('8 < t ≤ 25 °C').waitFor();
    await bands.getByText(`${duration(above.usedSeconds)} (${above.usedPercent} %)`).waitFor();
    await bands.getByText(duration(above.remainingSeconds)).first().waitFor();
    await bands.getByText('72 h 0 min').waitFor();
    const mkt = await page.getByTestId('budget-mkt').textContent();
    assert.match(mkt, /^\d+\.\d{2} °C \/ 25 °C$/);
    await screenshot(page, 'waybill-budget-1440');
    assert.deepEqual(
      errors.filter((text) => !text.includes('404 (Not Found)')),
      [],
    );
    await context.close();
  });
});
