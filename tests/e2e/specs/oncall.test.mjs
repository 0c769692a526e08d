// Issue 48 in the browser: an on-call schedule created on /alarm/oncall (a weekly rota with one
// hand-over, so its person is on call all week), the person on call now shown in the list, and the
// edit form submitted unchanged accepted as it is.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { api, apiLogin, collectErrors, contextFor, launch, screenshot, siteUrl, useToken } from './browser.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

describe('on-call schedules (issue 48)', () => {
  test('a rota made on the page shows who is on call now, and an unchanged edit saves', async () => {
    // The operator's own account: the demo user's data stays as other specs expect it.
    const token = await apiLogin('localhost', 'operator');
    const name = `E2E night desk ${Date.now()}`;
    const context = await contextFor(browser, 'localhost', 'en-US');
    const page = await context.newPage();
    const errors = collectErrors(page);
    await useToken(page, 'localhost', token);

    await page.goto(siteUrl('localhost', '/alarm/oncall'));
    await page.getByTestId('oncall-list').waitFor();
    await page.getByTestId('oncall-add').click();
    const form = page.getByTestId('oncall-form');
    await form.getByTestId('oncall-name').fill(name);
    await form.getByTestId('oncall-rota-add').click();
    await form.getByTestId('oncall-rota-0-time').fill('07:30');
    await form.getByTestId('oncall-rota-0-name').fill('Night Guard');
    await form.getByTestId('oncall-rota-0-email').fill('night.guard@example.com');
    const inserted = page.waitForResponse((response) => response.url().includes('/api/alarm/OnCallSchedule/insert'));
    await page.getByTestId('oncall-submit').click();
    const created = await (await inserted).json();
    assert.equal(created.code, 0, JSON.stringify(created));
    const id = created.data.id;
    assert.equal(created.data.timeZone, 'Asia/Shanghai');
    assert.deepEqual(
      created.data.rota.map((entry) => [entry.weekday, entry.time, entry.person.name]),
      [[1, '07:30', 'Night Guard']],
    );

    // One hand-over a week: its person is on call at any moment, shown in the list.
    await page.getByTestId(`oncall-now-${id}`).getByText('Night Guard').waitFor();
    const who = await api('localhost', 'GET', `/alarm/OnCallSchedule/who?id=${id}`, { token });
    assert.equal(who.body.data.person.name, 'Night Guard');
    await screenshot(page, 'oncall-list');

    // The edit form sent back unchanged is accepted and changes nothing.
    await page.getByTestId(`oncall-edit-${id}`).click();
    await page.getByTestId('oncall-form').getByTestId('oncall-name').waitFor();
    assert.equal(await page.getByTestId('oncall-form').getByTestId('oncall-name').inputValue(), name);
    const updated = page.waitForResponse((response) => response.url().includes('/api/alarm/OnCallSchedule/update'));
    await page.getByTestId('oncall-submit').click();
    const answer = await (await updated).json();
    assert.equal(answer.code, 0, JSON.stringify(answer));
    assert.deepEqual(answer.data.rota, created.data.rota);
    assert.deepEqual(answer.data.overrides, created.data.overrides);
    await page.getByTestId('oncall-form').waitFor({ state: 'detached' });
    await page.getByTestId(`oncall-now-${id}`).getByText('Night Guard').waitFor();

    await api('localhost', 'DELETE', `/alarm/OnCallSchedule/delete/${id}`, { token });
    assert.deepEqual(
      errors.filter((text) => !text.includes('404 (Not Found)')),
      [],
    );
    await context.close();
  });
});
