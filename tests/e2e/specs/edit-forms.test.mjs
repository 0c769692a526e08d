// Issue 47: every edit form submitted unchanged succeeds. A form that sends back what it loaded (a
// fence's `gmtCreate`) got 422 "Unknown field"; the calls now build their bodies from the request
// schema (web/src/lib/requestBody.ts). Each row of EDIT_FORMS opens one edit form on its page, submits
// it without touching anything and expects the call to answer code 0. Other areas add their pages here.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { api, apiLogin, collectErrors, contextFor, launch, siteUrl, useToken } from './browser.mjs';

const USER = 'demouser';
const TEMPLATE = 'E2E edit';
const PROFILE = 'E2E edit profile';

/**
 * { area, form, path, call (the request's path, matched at its end), setup(token), open(page), submit(page),
 * teardown(token) }: `open` brings the form up filled with a loaded record, `submit` saves it unchanged.
 */
export const EDIT_FORMS = [
  {
    area: 'waybill',
    form: 'waybill (in progress)',
    path: '/waybill/list',
    call: '/api/waybill/Waybill/update',
    open: async (page) => {
      const row = page.getByTestId('waybill-table').locator('tr', { hasText: 'WB-DEMO-0002' });
      await row.getByRole('button', { name: 'Edit' }).click();
      await page.getByTestId('drawer-submit').waitFor();
    },
    submit: (page) => page.getByTestId('drawer-submit').click(),
  },
  {
    area: 'waybill',
    form: 'fence',
    path: '/waybill/geofence',
    call: '/api/waybill/Fence/update',
    open: async (page) => {
      await page.getByTestId('fence-table').getByRole('button', { name: 'Edit' }).first().click();
      await page.getByTestId('fence-form').waitFor();
    },
    submit: (page) => page.getByTestId('fence-save').click(),
  },
  {
    area: 'waybill',
    form: 'track template',
    path: '/waybill/list',
    call: '/api/waybill/TrackTemplate/update',
    setup: async (token) => {
      const made = await api('localhost', 'POST', '/waybill/TrackTemplate/insert', {
        token,
        body: { name: TEMPLATE, lineColor: '#1677ff', lineWidth: 3, stopMinutes: 10 },
      });
      assert.equal(made.body.code, 0, JSON.stringify(made.body));
    },
    open: async (page) => {
      const row = page.getByTestId('waybill-table').locator('tr', { hasText: 'WB-DEMO-0001' });
      await row.getByTestId('waybill-open').click();
      await page.getByTestId('track-templates-manage').click();
      const line = page.getByTestId('track-templates').locator('tr', { hasText: TEMPLATE });
      await line.getByRole('button', { name: 'Edit' }).click();
      await page.getByTestId('track-template-form').waitFor();
    },
    submit: (page) => page.getByTestId('track-template-save').click(),
    teardown: async (token) => {
      const listed = await api('localhost', 'GET', '/waybill/TrackTemplate/list', { token });
      for (const template of listed.body?.data ?? [])
        if (template.name === TEMPLATE)
          await api('localhost', 'DELETE', `/waybill/TrackTemplate/delete/${template.id}`, { token });
    },
  },
  {
    area: 'waybill',
    form: 'stability profile',
    path: '/waybill/profiles',
    call: '/api/budget/StabilityProfile/update',
    setup: async (token) => {
      const made = await api('localhost', 'POST', '/budget/StabilityProfile/insert', {
        token,
        body: {
          name: PROFILE,
          rangeLow: 2,
          rangeHigh: 8,
          bands: [
            { low: 8, high: 25, hours: 72 },
            { low: null, high: 0, hours: 0.5 },
          ],
          mktLimit: null,
          alertPercent: 80,
        },
      });
      assert.equal(made.body.code, 0, JSON.stringify(made.body));
    },
    open: async (page) => {
      const row = page.getByTestId('budget-profiles').locator('tr', { hasText: PROFILE });
      await row.getByRole('button', { name: 'Edit' }).click();
      await page.getByTestId('budget-profile-form').waitFor();
    },
    submit: (page) => page.getByTestId('budget-profile-save').click(),
    teardown: async (token) => {
      const listed = await api('localhost', 'POST', '/budget/StabilityProfile/page', { token, body: { name: PROFILE } });
      for (const profile of listed.body?.data?.list ?? [])
        await api('localhost', 'DELETE', `/budget/StabilityProfile/delete/${profile.id}`, { token });
    },
  },
];

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

describe('every edit form submitted unchanged succeeds (issue 47)', () => {
  for (const entry of EDIT_FORMS) {
    test(`${entry.area}: ${entry.form} on ${entry.path}`, async () => {
      const token = await apiLogin('localhost', USER);
      await entry.setup?.(token);
      const context = await contextFor(browser, 'localhost', 'en-US');
      try {
        const page = await context.newPage();
        const errors = collectErrors(page);
        await useToken(page, 'localhost', token);
        await page.goto(siteUrl('localhost', entry.path));
        await entry.open(page);
        const answered = page.waitForResponse((response) => new URL(response.url()).pathname.endsWith(entry.call));
        await entry.submit(page);
        const response = await answered;
        const body = await response.json();
        assert.equal(body.code, 0, `${entry.call} answered ${JSON.stringify(body)} to ${response.request().postData()}`);
        assert.deepEqual(
          errors.filter((text) => !text.includes('404 (Not Found)')),
          [],
        );
      } finally {
        await context.close();
        await entry.teardown?.(token);
      }
    });
  }
});
