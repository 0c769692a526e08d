import { App, Button, Card, Col, Form, Input, InputNumber, Row, Select, Space, Switch, Typography } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useEffect, useState } from 'react';
import { customPagePageKey, type CustomPage } from '@/api/customization';
import { platformSettingsKey, savePlatformSettings, sendTestMessage, type PlatformSettings } from '@/api/operation';
import { showServerErrors } from '@/lib/serverErrors';
import { BackupRestoreCard } from './BackupRestoreCard';
import type { Page } from '@/components/ui/table';
import { useRead } from '@/hooks/useRead';
import { useTimeZones } from '@/hooks/useTimeZones';
import { rangeRules } from '@/components/ui/rangeRules';

type Channel = 'sms' | 'voice' | 'email';
const SOCIAL = ['wechat', 'qq', 'facebook'] as const;

function formValues(s: PlatformSettings): Record<string, unknown> {
  return {
    defaultTimeZone: s.defaultTimeZone,
    defaultLocale: s.defaultLocale,
    enableRegister: s.enableRegister,
    plcUrl: s.plcUrl ?? '',
    calibrationUrl: s.calibrationUrl ?? '',
    cloudControlYearlyPrice: s.cloudControlYearlyPrice ? s.cloudControlYearlyPrice / 100 : null,
    sms: { url: s.sms.url, key: s.sms.key, secret: '' },
    voice: { url: s.voice.url, key: s.voice.key, secret: '' },
    email: {
      host: s.email.host,
      port: s.email.port,
      user: s.email.user,
      from: s.email.from,
      starttls: s.email.starttls ?? true,
      password: '',
    },
    social: Object.fromEntries(SOCIAL.map((name) => [name, { clientId: s.social[name]?.clientId, clientSecret: '' }])),
  };
}

const blankToNull = (value: unknown) => (value === '' || value === undefined ? null : value);

/** /operation/system/manage: per-platform defaults, message providers (with a test message) and social sign-in apps. */
export function SystemManageView() {
  const { t } = useTranslation('operation');
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const [picked, setPlatformId] = useState<number | null>(null);
  const [testTo, setTestTo] = useState<Record<Channel, string>>({ sms: '', voice: '', email: '' });
  const platforms = useRead<Page<CustomPage>>(customPagePageKey({ start: 1, pageSize: 200 }));
  // Until one is picked: the oldest platform (the operator's own).
  const platformId = picked ?? platforms.data?.list.at(-1)?.id ?? null;
  const settings = useRead<PlatformSettings>(platformId ? platformSettingsKey(platformId) : null);
  const { options: zones } = useTimeZones(settings.data?.defaultTimeZone);
  useEffect(() => {
    if (settings.data) form.setFieldsValue(formValues(settings.data));
  }, [settings.data, form]);

  const save = async (values: Record<string, Record<string, unknown> | unknown>) => {
    const v = values as Record<string, Record<string, unknown>>;
    const secretOrKeep = (value: unknown) => (value ? value : ''); // empty keeps the stored secret
    try {
      const saved = await savePlatformSettings({
        platformId,
        defaultTimeZone: values.defaultTimeZone,
        defaultLocale: values.defaultLocale,
        enableRegister: values.enableRegister,
        plcUrl: blankToNull(values.plcUrl),
        calibrationUrl: blankToNull(values.calibrationUrl),
        cloudControlYearlyPrice:
          typeof values.cloudControlYearlyPrice === 'number' ? Math.round(values.cloudControlYearlyPrice * 100) : null,
        sms: { url: blankToNull(v.sms.url), key: blankToNull(v.sms.key), secret: secretOrKeep(v.sms.secret) },
        voice: { url: blankToNull(v.voice.url), key: blankToNull(v.voice.key), secret: secretOrKeep(v.voice.secret) },
        email: {
          host: blankToNull(v.email.host),
          port: blankToNull(v.email.port),
          user: blankToNull(v.email.user),
          from: blankToNull(v.email.from),
          starttls: v.email.starttls,
          password: secretOrKeep(v.email.password),
        },
        social: Object.fromEntries(
          SOCIAL.map((name) => {
            const app = (v.social as unknown as Record<string, Record<string, unknown>>)[name];
            return [name, { clientId: blankToNull(app.clientId), clientSecret: secretOrKeep(app.clientSecret) }];
          }),
        ),
      });
      void settings.mutate(saved, { revalidate: false });
      void message.success(t('settings.saved'));
    } catch (error) {
      showServerErrors(form, error);
    }
  };
  const test = async (channel: Channel) => {
    if (!platformId || !testTo[channel]) return;
    try {
      await sendTestMessage(platformId, channel, testTo[channel]);
      void message.success(t('settings.testSent'));
    } catch {
      /* the request client shows the provider's answer */
    }
  };
  const secretHint = (set?: boolean) => (set ? t('settings.secretSet') : t('settings.secretUnset'));
  const testRow = (channel: Channel) => (
    <Space.Compact style={{ width: '100%' }}>
      <Input
        placeholder={t(`settings.testTo.${channel}`)}
        value={testTo[channel]}
        onChange={(e) => setTestTo((s) => ({ ...s, [channel]: e.target.value }))}
      />
      <Button onClick={() => void test(channel)} data-testid={`test-${channel}`}>
        {t('settings.sendTest')}
      </Button>
    </Space.Compact>
  );
  const data = settings.data;
  return (
    <div data-testid="system-manage">
      <Space wrap style={{ marginBottom: 12 }}>
        <Typography.Text>{t('settings.platform')}</Typography.Text>
        <Select
          style={{ width: 280 }}
          value={platformId ?? undefined}
          loading={platforms.isLoading}
          options={(platforms.data?.list ?? []).map((p) => ({
            value: p.id,
            label: `${p.enterpriseName} (${p.topDomain})`,
          }))}
          onChange={(value: number) => setPlatformId(value)}
        />
      </Space>
      <Form form={form} layout="vertical" onFinish={save} disabled={!data}>
        <Row gutter={16}>
          <Col xs={24} lg={12}>
            <Card title={t('settings.general')} size="small" style={{ marginBottom: 16 }}>
              <Form.Item name="defaultTimeZone" label={t('settings.defaultTimeZone')}>
                <Select showSearch optionFilterProp="label" options={zones} />
              </Form.Item>
              <Form.Item name="defaultLocale" label={t('settings.defaultLocale')}>
                <Select
                  options={[
                    { value: 'zh-CN', label: '简体中文' },
                    { value: 'en-US', label: 'English' },
                  ]}
                />
              </Form.Item>
              <Form.Item name="enableRegister" label={t('settings.enableRegister')} valuePropName="checked">
                <Switch />
              </Form.Item>
            </Card>
            <Card
              title={t('settings.siteLinks')}
              size="small"
              style={{ marginBottom: 16 }}
              data-testid="settings-site-links"
            >
              <Typography.Paragraph type="secondary">{t('settings.siteLinksHint')}</Typography.Paragraph>
              <Form.Item
                name="plcUrl"
                label={t('settings.plcUrl')}
                rules={[{ type: 'url', message: t('settings.plcUrl') }]}
              >
                <Input placeholder="https://" maxLength={255} />
              </Form.Item>
              <Form.Item
                name="calibrationUrl"
                label={t('settings.calibrationUrl')}
                rules={[{ type: 'url', message: t('settings.calibrationUrl') }]}
              >
                <Input placeholder="https://" maxLength={255} />
              </Form.Item>
              <Form.Item
                name="cloudControlYearlyPrice"
                label={t('settings.cloudControlYearlyPrice')}
                rules={rangeRules(t, 0.01, 1000000)}
              >
                <InputNumber precision={2} style={{ width: '100%' }} />
              </Form.Item>
            </Card>
            <Card title={t('settings.social')} size="small" style={{ marginBottom: 16 }}>
              {SOCIAL.map((name) => (
                <Row gutter={8} key={name}>
                  <Col span={12}>
                    <Form.Item
                      name={['social', name, 'clientId']}
                      label={`${t(`settings.socialName.${name}`)} ${t('settings.appId')}`}
                    >
                      <Input autoComplete="off" />
                    </Form.Item>
                  </Col>
                  <Col span={12}>
                    <Form.Item
                      name={['social', name, 'clientSecret']}
                      label={`${t(`settings.socialName.${name}`)} ${t('settings.appSecret')}`}
                      extra={secretHint(data?.social[name]?.hasClientSecret)}
                    >
                      <Input.Password autoComplete="new-password" />
                    </Form.Item>
                  </Col>
                </Row>
              ))}
            </Card>
          </Col>
          <Col xs={24} lg={12}>
            {(['sms', 'voice'] as const).map((channel) => (
              <Card key={channel} title={t(`settings.${channel}`)} size="small" style={{ marginBottom: 16 }}>
                <Form.Item name={[channel, 'url']} label={t('settings.url')}>
                  <Input placeholder="https://" />
                </Form.Item>
                <Form.Item name={[channel, 'key']} label={t('settings.key')}>
                  <Input autoComplete="off" />
                </Form.Item>
                <Form.Item
                  name={[channel, 'secret']}
                  label={t('settings.secret')}
                  extra={secretHint(data?.[channel].hasSecret)}
                >
                  <Input.Password autoComplete="new-password" />
                </Form.Item>
                {testRow(channel)}
              </Card>
            ))}
            <Card title={t('settings.email')} size="small" style={{ marginBottom: 16 }}>
              <Row gutter={8}>
                <Col span={16}>
                  <Form.Item name={['email', 'host']} label={t('settings.host')}>
                    <Input />
                  </Form.Item>
                </Col>
                <Col span={8}>
                  <Form.Item name={['email', 'port']} label={t('settings.port')} rules={rangeRules(t, 1, 65535)}>
                    <InputNumber style={{ width: '100%' }} />
                  </Form.Item>
                </Col>
              </Row>
              <Form.Item name={['email', 'from']} label={t('settings.from')}>
                <Input />
              </Form.Item>
              <Form.Item name={['email', 'user']} label={t('settings.user')}>
                <Input autoComplete="off" />
              </Form.Item>
              <Form.Item
                name={['email', 'password']}
                label={t('settings.password')}
                extra={secretHint(data?.email.hasPassword)}
              >
                <Input.Password autoComplete="new-password" />
              </Form.Item>
              <Form.Item name={['email', 'starttls']} label={t('settings.starttls')} valuePropName="checked">
                <Switch />
              </Form.Item>
              {testRow('email')}
            </Card>
          </Col>
        </Row>
        <Button type="primary" htmlType="submit" data-testid="settings-save">
          {t('settings.save')}
        </Button>
      </Form>
      <BackupRestoreCard platformId={platformId} />
    </div>
  );
}
