// Platform customization end to end (issue 19): the operator creates a reseller platform with logos
// on /customized/list, the new host answers at once with its title and colour, and the reseller's
// admin (who sets a password through the emailed link's recovery page) signs in there and gets the
// junjia style's limited menu. Once in zh-CN and once in en-US.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ARTIFACTS, api, apiLogin, chooseOption, collectErrors, contextFor, launch, screenshot, selectOf, signInWithForm, siteUrl, useToken, waitForCode } from './browser.mjs';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const RUNS = [
  { lang: 'zh-CN', host: 'acme.localhost', title: '艾克米冷链', colour: '#1a7f5a', rgb: 'rgb(26, 127, 90)', menu: { customized: '平台定制', devices: '设备列表', home: '首页' } },
  { lang: 'en-US', host: 'acme-en.localhost', title: 'Acme Cold Chain', colour: '#7a3eb1', rgb: 'rgb(122, 62, 177)', menu: { customized: 'Platform Customization', devices: 'Device List', home: 'Home' } },
];
const PASSWORD = 'Acme#2026';

let browser;
let logo;
before(async () => {
  browser = await launch();
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  logo = path.join(ARTIFACTS, 'acme-logo.png');
  fs.writeFileSync(logo, PNG);
});
after(async () => {
  await browser?.close();
});

describe('platform customization', () => {
  for (const run of RUNS) {
    test(`the operator creates ${run.host} and its admin signs in (${run.lang})`, async () => {
      const admin = `acmeadmin${run.lang === 'zh-CN' ? 'zh' : 'en'}`;
      const email = `${admin}@example.com`;
      const operator = await contextFor(browser, 'localhost', run.lang);
      const page = await operator.newPage();
      await useToken(page, 'localhost', await apiLogin('localhost', 'operator'));
      const errors = collectErrors(page); // after useToken, whose /404 page answers 404 on purpose
      await page.goto(siteUrl('localhost', '/customized/list'), { waitUntil: 'networkidle' });
      await page.getByTestId('custom-page-add').click();

      await page.locator('#customPage_enterpriseName').fill('Acme Cold Chain Ltd.');
      await page.locator('#customPage_titleZh').fill('艾克米冷链');
      await page.locator('#customPage_titleEn').fill('Acme Cold Chain');
      await page.locator('#customPage_topDomain').fill(run.host);
      await page.locator('#customPage_https').click(); // local site: plain http
      await page.locator('#customPage_themeColor').fill(run.colour);
      await chooseOption(page, selectOf(page, '#customPage_styleModel'), run.lang === 'zh-CN' ? '骏佳' : 'Junjia');
      for (const field of ['loginLogo', 'indexLogo', 'browserLogo']) {
        await page.getByTestId(`${field}-field`).locator('input[type=file]').setInputFiles(logo);
        await page.getByTestId(`${field}-image`).waitFor();
      }
      await page.locator('#customPage_remark').fill('e2e reseller');
      await page.locator('#customPage_adminUserName').fill(admin);
      await page.locator('#customPage_adminEmail').fill(email);

      // The preview shows the draft branding before anything is saved.
      assert.equal((await page.getByTestId('preview-title').textContent()).trim(), run.title);
      assert.equal(await page.getByTestId('preview-button').evaluate((el) => getComputedStyle(el).backgroundColor), run.rgb);
      await screenshot(page, `customization-form-${run.lang}`, false);

      const since = Date.now();
      await page.getByTestId('custom-page-save').click();
      await page.getByTestId(`domain-${run.host.split('.')[0]}`).waitFor();
      assert.deepEqual(errors, []);
      await operator.close();

      // The new host answers at once, branded.
      const visitor = await contextFor(browser, run.host, run.lang);
      const login = await visitor.newPage();
      const response = await login.goto(siteUrl(run.host, '/user/login'), { waitUntil: 'networkidle' });
      assert.equal(response.status(), 200);
      assert.equal((await login.locator('h1').textContent()).trim(), run.title);
      assert.equal(await login.getByTestId('login-submit').evaluate((el) => getComputedStyle(el).backgroundColor), run.rgb);
      assert.ok(await login.locator('main img').first().evaluate((img) => img.complete && img.naturalWidth > 0), 'the uploaded logo loads');
      await screenshot(login, `customization-login-${run.host}-${run.lang}`);

      // The admin got a link to the site's recovery page by email; a code from there sets the password.
      const asked = Date.now();
      const sent = await api(run.host, 'GET', `/base/BaseAccount/code/email?email=${encodeURIComponent(email)}&type=forgot`);
      assert.equal(sent.body?.code, 0, JSON.stringify(sent.body));
      const code = await waitForCode(email, asked);
      const reset = await api(run.host, 'POST', '/base/BaseAccount/forgot', { body: { email, code, password: PASSWORD, confirmPassword: PASSWORD } });
      assert.equal(reset.body?.code, 0, JSON.stringify(reset.body));
      const mailbox = fs.readFileSync(path.join(ARTIFACTS, 'mailbox.jsonl'), 'utf8');
      assert.ok(mailbox.includes(`http://${run.host}/user/recover`), 'the admin was sent a link to the site');
      assert.ok(since > 0);

      await signInWithForm(login, admin, PASSWORD);
      await login.waitForURL((url) => url.pathname === '/device/list', { waitUntil: 'commit' }); // a client-side redirect
      const menu = login.getByTestId('side-menu');
      await menu.getByRole('menuitem', { name: run.menu.devices }).waitFor();
      // console-shell: the junjia style model's limited menu has no platform customization entry.
      assert.equal(await menu.getByRole('menuitem', { name: run.menu.customized }).count(), 0, 'junjia keeps its limited menu');
      assert.equal(await menu.getByRole('menuitem', { name: run.menu.home, exact: true }).count(), 0, 'the junjia style has no home entry');
      await screenshot(login, `customization-admin-${run.host}-${run.lang}`);
      await visitor.close();
    });
  }
});
