// Issue 48 in the browser: a waybill's goods under a stability profile show their budget (each band's
// used / allowed / remaining time, MKT) on the waybill page, as the api computes it from the readings;
// the profiles page (menu Waybills > Stability Profiles) adds a profile with two bands and edits it unchanged.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { api, apiLogin, collectErrors, contextFor, launch, screenshot, siteUrl, useToken } from './browser.mjs';

const DESKTOP = { width: 1440, height: 900 };
const PROFILE = 'E2E vaccine 2-8';
const PAGE_PROFILE = 'E2E page profile';
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

  test('the profiles page adds a profile with two bands, saves it unchanged and lists it (1440 px, English)', async () => {
    const token = await apiLogin('localhost', 'demouser');
    const context = await contextFor(browser, 'localhost', 'en-US', DESKTOP);
    const page = await context.newPage();
    const errors = collectErrors(page);
    await useToken(page, 'localhost', token);
    let id = null;
    try {
      // Reached from the menu, beside the other waybill pages.
      await page.goto(siteUrl('localhost', '/waybill/list'));
      await page.getByTestId('side-menu').getByRole('menuitem', { name: 'Stability Profiles' }).click();
      await page.waitForURL((url) => url.pathname === '/waybill/profiles');
      await page.getByTestId('budget-profiles').waitFor();

      await page.getByTestId('budget-profile-add').click();
      const form = page.getByTestId('budget-profile-form');
      await form.locator('#name').fill(PAGE_PROFILE);
      await form.locator('#rangeLow').fill('2');
      await form.locator('#rangeHigh').fill('8');
      // The form starts with "8 < t ≤ 25 °C: 72 h"; a second band "below 0 °C: none allowed".
      await form.getByTestId('budget-band-add').click();
      await form.locator('#bands_1_high').fill('0');
      await form.locator('#bands_1_hours').fill('0');
      const inserted = page.waitForResponse((r) => new URL(r.url()).pathname.endsWith('/api/budget/StabilityProfile/insert'));
      await page.getByTestId('budget-profile-save').click();
      const created = await (await inserted).json();
      assert.equal(created.code, 0, JSON.stringify(created));
      id = created.data.id;
      assert.deepEqual(created.data.bands, [
        { low: 8, high: 25, hours: 72 },
        { low: null, high: 0, hours: 0 },
      ]);
      const bands = page.getByTestId(`budget-profile-bands-${id}`);
      await bands.getByText('8 < t ≤ 25 °C: 72 h 0 min').waitFor();
      await bands.getByText('< 0 °C: 0 h 0 min').waitFor();

      // The edit form sent back unchanged is accepted and changes nothing.
      await page.getByTestId(`budget-profile-edit-${id}`).click();
      assert.equal(await page.getByTestId('budget-profile-form').locator('#name').inputValue(), PAGE_PROFILE);
      const updated = page.waitForResponse((r) => new URL(r.url()).pathname.endsWith('/api/budget/StabilityProfile/update'));
      await page.getByTestId('budget-profile-save').click();
      const answer = await (await updated).json();
      assert.equal(answer.code, 0, JSON.stringify(answer));
      assert.deepEqual(answer.data, created.data);
      await page.getByTestId('budget-profile-form').waitFor({ state: 'detached' });
      await page.getByTestId('budget-profiles').locator('tr', { hasText: PAGE_PROFILE }).waitFor();
      await bands.getByText('< 0 °C: 0 h 0 min').waitFor();
      await screenshot(page, 'budget-profiles-1440');
      assert.deepEqual(
        errors.filter((text) => !text.includes('404 (Not Found)')),
        [],
      );
    } finally {
      await context.close();
      if (id) await api('localhost', 'DELETE', `/budget/StabilityProfile/delete/${id}`, { token });
    }
  });
});
