// Issue 23 in the browser, in both languages: enable FDA mode (signed, with a reason), add an
// endorsement, create a data file of the demo fridge, assign it, sign it as the checker with the
// password prompt (a wrong password is refused in the page's language first), see the signature
// manifestation, and download the signed PDF (sealed: it carries a PAdES signature dictionary).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { api, apiLogin, chooseOption, collectErrors, contextFor, DEMO_PASSWORD, launch, screenshot, selectOf, siteUrl, useToken } from './browser.mjs';

const DEVICE = 'Vaccine Fridge';
const TEXT = {
  'en-US': {
    enable: 'Enable FDA mode',
    endorsements: 'Endorsement management',
    signatures: 'Electronic signature',
    wrongPassword: 'Incorrect account or password.',
    signed: 'Signed',
    notifications: 'Notification settings',
    reasonTitle: 'Reason for this change',
    saveWithReason: 'Save with reason',
  },
  'zh-CN': {
    enable: '启用 FDA 模式',
    endorsements: '签名含义管理',
    signatures: '电子签名',
    wrongPassword: '账号或密码错误。',
    signed: '已签名',
    notifications: '推送设置',
    reasonTitle: '变更原因',
    saveWithReason: '填写原因并保存',
  },
};

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
  // Whatever happened above, demouser leaves FDA mode off: the later specs change limits unasked.
  const token = await apiLogin('localhost', 'demouser');
  const { body } = await api('localhost', 'GET', '/fda/FdaConfig/get', { token });
  if (body?.data?.enabled) {
    if (!body.data.pendingOff) {
      const off = { enabled: false, reason: 'End of the FDA browser test', checkUserName: 'demouser', checkPassword: DEMO_PASSWORD };
      await api('localhost', 'PUT', '/fda/FdaConfig/update', { token, body: off });
    }
    // Turning FDA mode off takes a second person: demouser's quality assurance (demoqa) approves.
    const qa = await apiLogin('localhost', 'demoqa');
    const requests = await api('localhost', 'GET', '/fda/FdaConfig/offRequests', { token: qa });
    for (const request of requests.body?.data ?? []) {
      const approval = { requestId: request.id, meaning: 'End of the FDA browser test', checkUserName: 'demoqa', checkPassword: DEMO_PASSWORD };
      await api('localhost', 'POST', '/fda/FdaConfig/approveOff', { token: qa, body: approval });
    }
  }
});

// In FDA mode every change asks for its reason first (the shared request client prompts and retries).
async function giveReason(page, text, why) {
  const prompt = page.getByRole('dialog', { name: text.reasonTitle });
  await prompt.getByTestId('evidence-reason').fill(why);
  await prompt.getByRole('button', { name: text.saveWithReason }).click();
  await prompt.waitFor({ state: 'hidden' });
}

async function fillCredentials(page, password, userName = 'demouser') {
  const modal = page.getByTestId('sign-modal');
  await modal.getByTestId('sign-username').fill(userName);
  await modal.getByTestId('sign-password').fill(password);
  await page.getByTestId('sign-submit').click();
}

for (const lang of ['en-US', 'zh-CN']) {
  const text = TEXT[lang];
  describe(`FDA 21 CFR Part 11 (issue 23), ${lang}`, () => {
    test('enable, endorse, create, assign, sign with the password prompt, download the signed PDF', async () => {
      const context = await contextFor(browser, 'localhost', lang);
      const page = await context.newPage();
      const errors = collectErrors(page);
      const token = await apiLogin('localhost', 'demouser');
      await useToken(page, 'localhost', token);
      await page.goto(siteUrl('localhost', '/fda'));
      await page.getByTestId('fda-page').waitFor();
      await page.getByTestId('fda-one-person').waitFor();

      // FDA mode: turning it on and off is signed with user name and password again and a reason
      // (the demo has it off; each language's run turns it on and back off).
      // Turning it on is one person's signed act; off is asked for, signed, and stays pending (FDA mode
      // on) until a second person approves with their own signature: demoqa, demouser's quality assurance.
      const turnOn = async () => {
        await page.getByTestId('fda-toggle').click();
        await page.getByTestId('sign-reason').fill('GxP batch records');
        await fillCredentials(page, DEMO_PASSWORD);
        await page.locator('[data-testid="fda-state"][data-enabled="true"]').waitFor();
      };
      const turnOff = async () => {
        await page.getByTestId('fda-toggle').click();
        await page.getByTestId('sign-reason').fill('Validation of the toggle');
        await fillCredentials(page, DEMO_PASSWORD);
        await page.getByTestId('fda-off-pending').waitFor();
        assert.equal(await page.getByTestId('fda-state').getAttribute('data-enabled'), 'true');
        const qaContext = await contextFor(browser, 'localhost', lang);
        const qaPage = await qaContext.newPage();
        await useToken(qaPage, 'localhost', await apiLogin('localhost', 'demoqa'));
        await qaPage.goto(siteUrl('localhost', '/fda'));
        await qaPage.getByTestId('fda-off-approve').click();
        await qaPage.getByTestId('sign-reason').fill('Second person: validation ends');
        await fillCredentials(qaPage, DEMO_PASSWORD, 'demoqa');
        await qaPage.getByTestId('fda-off-approve').waitFor({ state: 'detached' });
        await screenshot(qaPage, `fda-off-approved-${lang}`);
        await qaContext.close();
        await page.reload();
        await page.locator('[data-testid="fda-state"][data-enabled="false"]').waitFor();
      };
      await page.getByTestId('fda-state').waitFor();
      if ((await page.getByTestId('fda-state').getAttribute('data-enabled')) === 'true') await turnOff();
      // One signing step (author): this spec signs its file alone. The author -> reviewer -> approver
      // sequence is tested through the api (tests/api/test_sign_workflow.py). Set while FDA mode is off
      // (on, the change asks for a reason).
      const sequence = await api('localhost', 'PUT', '/fda/SigningSequence/update', { token, body: { steps: [{ role: 'author' }] } });
      assert.equal(sequence.body?.code, 0, JSON.stringify(sequence.body));
      assert.ok((await page.getByTestId('fda-toggle').textContent()).includes(text.enable));
      await turnOn();

      // An endorsement (signature meaning).
      const meaning = `Approved ${lang}`;
      await page.getByRole('tab', { name: text.endorsements }).click();
      await page.getByTestId('endorsement-add').click();
      await page.locator('#endorsementName').fill(meaning);
      await page.locator('#description').fill('QA release of the batch');
      await page.getByTestId('drawer-submit').click();
      await giveReason(page, text, `Meaning for ${lang} batch release`);
      await page.getByTestId('endorsement-list').getByText(meaning).waitFor();

      // A data file of the demo fridge over the last full day, assigned to the account itself.
      const fileName = `Fridge batch ${lang}`;
      await page.getByRole('tab', { name: text.signatures }).click();
      await page.getByTestId('file-add').click();
      await page.getByTestId('file-name').fill(fileName);
      await chooseOption(page, selectOf(page, '[data-testid="file-device"]'), DEVICE);
      await page.getByTestId('file-submit').click();
      await giveReason(page, text, `Batch record ${lang}`);
      const row = page.getByTestId('file-list').locator(`[data-file="${fileName}"]`);
      await row.waitFor();
      await row.getByTestId('file-assign').click();
      await chooseOption(page, selectOf(page, '[data-testid="assign-checker"]'), 'demouser');
      await page.getByTestId('assign-submit').click();
      await giveReason(page, text, `Assigned for signing ${lang}`);
      await row.getByTestId('file-sign').waitFor();

      // Signing: a wrong password is refused in the page's language, then the right one signs.
      await row.getByTestId('file-sign').click();
      await chooseOption(page, selectOf(page, '[data-testid="sign-meaning"]'), meaning);
      await fillCredentials(page, 'Wrong#2026x');
      await page.getByTestId('sign-modal').getByText(text.wrongPassword).first().waitFor();
      await screenshot(page, `fda-wrong-password-${lang}`);
      // The refusal is on the audit trail (hash-chained operation log).
      const trail = await api('localhost', 'POST', '/base/BaseOperationLog/page', {
        token,
        body: { start: 1, pageSize: 50, keyword: `Electronic signature refused: sign ${fileName}` },
      });
      assert.equal(trail.body.code, 0);
      assert.equal(trail.body.data.total, 1, JSON.stringify(trail.body.data.list.map((e) => e.summary)));
      await page.getByTestId('sign-password').fill(DEMO_PASSWORD);
      await page.getByTestId('sign-submit').click();
      await row.locator('[data-testid="file-sign-state"][data-state="signed"]').waitFor();
      const manifestation = await row.getByTestId('file-signature').textContent();
      assert.ok(manifestation.includes(text.signed), manifestation);
      assert.ok(manifestation.includes(meaning), manifestation);
      assert.match(manifestation, /\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} [A-Za-z_/]+ \(UTC[+-]\d{2}:\d{2}\)/);
      await row.getByTestId('file-view').click();
      await page.getByTestId('file-intact').waitFor();
      await screenshot(page, `fda-signed-${lang}`);
      await page.keyboard.press('Escape');

      // The signed PDF: generated by the worker, downloaded, sealed.
      const [download] = await Promise.all([page.waitForEvent('download', { timeout: 90_000 }), row.getByTestId('file-pdf').click()]);
      const bytes = fs.readFileSync(await download.path());
      // Named by the version it is (the verify page lists every stored version).
      assert.equal(download.suggestedFilename(), `${fileName}_signed_v1.pdf`);
      assert.equal(bytes.subarray(0, 4).toString(), '%PDF');
      assert.ok(bytes.includes('/ETSI.CAdES.detached'), 'a PAdES signature');

      // In FDA mode a change of alarm limits asks for its reason first; the trail keeps it.
      const devices = await api('localhost', 'POST', '/device/Device/page', { token, body: { start: 1, pageSize: 50 } });
      const fridge = devices.body.data.list.find((d) => d.deviceName === DEVICE);
      await page.goto(siteUrl('localhost', `/device/detail/${fridge.id}`));
      await page.getByRole('tab', { name: text.notifications }).click();
      const limits = page.getByTestId('limits-card');
      // Values of this language's run (the demo's 2-8 °C would change nothing, and nothing is logged).
      const [upper, lower] = lang === 'en-US' ? ['7.5', '2.5'] : ['7', '3'];
      await limits.getByTestId('limit-upper-1').fill(upper);
      await limits.getByTestId('limit-lower-1').fill(lower);
      await limits.getByTestId('limits-save').click();
      const prompt = page.getByRole('dialog', { name: text.reasonTitle });
      await prompt.waitFor();
      const why = `SOP-12 vaccine range ${lang}`;
      await prompt.getByTestId('evidence-reason').fill(why);
      const saved = page.waitForResponse((response) => response.url().includes('/api/alarm/SensorLimit/save') && response.request().headers()['x-change-reason'] !== undefined);
      await prompt.getByRole('button', { name: text.saveWithReason }).click();
      assert.equal((await (await saved).json()).code, 0);
      await screenshot(page, `fda-reason-${lang}`);
      const changes = await api('localhost', 'POST', '/base/BaseOperationLog/page', { token, body: { start: 1, pageSize: 20, keyword: 'SensorLimit/save' } });
      assert.ok(changes.body.data.list.some((entry) => entry.reason === why), JSON.stringify(changes.body.data.list.map((e) => e.reason)));

      // Left as found (off), so the other specs' changes ask nothing.
      await page.goto(siteUrl('localhost', '/fda'));
      await page.getByTestId('fda-state').waitFor();
      await turnOff();
      assert.deepEqual(errors.filter((e) => !e.includes('(Not Found)') && !e.includes('status of 4')), []);
      await context.close();
    });
  });
}
