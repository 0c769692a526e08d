import {
  Alert,
  App,
  Button,
  Card,
  Descriptions,
  Form,
  Input,
  InputNumber,
  Result,
  Skeleton,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import Link from 'next/link';
import { useRouter } from 'next/router';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import {
  applyQuickOrder,
  MAX_ITEMS,
  money,
  pricesKey,
  verifyKey,
  type Price,
  type QuickOrder,
  type QuickOrderInput,
  type Verification,
} from '@/api/calibration';
import { getAccessToken, loginRedirectFor } from '@/api/session';
import { formatTime } from '@/lib/format';
import { useSession } from '@/lib/SessionContext';
import { SUBMIT_DEBOUNCE_MS } from '@/components/ui/constants';
import { useDebouncedCallback } from '@/hooks/useDebouncedCallback';
import { useRead } from '@/hooks/useRead';
import { rangeRules } from '@/components/ui/rangeRules';
import { isMobilePath } from './CalibrationLayout';
import { MobileOrderList } from './OrderViews';

export function PriceTable({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation('calibration');
  const { data, isLoading } = useRead<Price[]>(pricesKey());
  return (
    <Table<Price>
      size="small"
      rowKey="level"
      loading={isLoading}
      pagination={false}
      dataSource={data ?? []}
      data-testid="calibration-prices"
      columns={[
        { key: 'level', title: t('item.level'), render: (_, row) => t(`level.${row.level}`) },
        { key: 'base', title: t('price.base'), render: (_, row) => money(row.basePrice, row.currency) },
        ...(compact ? [] : [{ key: 'included', title: t('price.included'), dataIndex: 'includedPoints' }]),
        { key: 'point', title: t('price.point'), render: (_, row) => money(row.pointPrice, row.currency) },
        ...(compact ? [] : [{ key: 'days', title: t('price.days'), dataIndex: 'days' }]),
      ]}
    />
  );
}

function useSignedIn(): boolean {
  const session = useSession();
  return session.status !== 'booting' && session.token !== null;
}

/** /calibration/home and /mobile/calibration/home: what the lab offers; on the phone, the orders list when signed in. */
export function HomeView() {
  const { t } = useTranslation('calibration');
  const router = useRouter();
  const mobile = isMobilePath(router.pathname);
  const signedIn = useSignedIn();
  const base = mobile ? '/mobile/calibration' : '/calibration';
  const applyPath = mobile ? `${base}/apply` : `${base}/form`;
  const examplePath = mobile ? `${base}/device/example` : `${base}/form/example`;
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="calibration-home">
      <Card>
        <Typography.Title level={mobile ? 4 : 3}>{t('home.heading')}</Typography.Title>
        <Typography.Paragraph>{t('home.intro')}</Typography.Paragraph>
        <Space wrap>
          <Link href={applyPath}>
            <Button type="primary" data-testid="calibration-apply-link">
              {t('nav.apply')}
            </Button>
          </Link>
          <Link href={`${base}/quickly`}>
            <Button>{t('nav.quick')}</Button>
          </Link>
          <Link href={examplePath}>
            <Button type="link">{t('nav.example')}</Button>
          </Link>
          {!mobile ? (
            <Link href="/calibration/orders">
              <Button type="link">{t('nav.orders')}</Button>
            </Link>
          ) : null}
        </Space>
      </Card>
      {mobile && signedIn ? <MobileOrderList /> : null}
      {mobile && !signedIn ? (
        <Card>
          <Button
            block
            type="primary"
            onClick={() => void router.push('/mobile/calibration/login?redirect=%2Fmobile%2Fcalibration%2Fhome')}
          >
            {t('login.submitToSee')}
          </Button>
        </Card>
      ) : null}
      <Card title={t('price.title')}>
        <PriceTable compact={mobile} />
        <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
          {t('price.note')}
        </Typography.Paragraph>
      </Card>
    </Space>
  );
}

/** The worked example (desktop form.example, mobile device.example): how to fill in the form. */
export function ExampleView() {
  const { t } = useTranslation('calibration');
  const rows = [
    {
      key: 1,
      deviceModel: 'TH-20',
      serial: '8001A0000001',
      quantity: 1,
      points: '-20, 0, 25',
      range: '-40 ~ 85 °C',
      level: t('level.standard'),
    },
    {
      key: 2,
      deviceModel: 'TH-20',
      serial: 'SN-2024-0456',
      quantity: 1,
      points: '2, 5, 8',
      range: '-40 ~ 85 °C',
      level: t('level.accredited'),
    },
  ];
  return (
    <Card title={t('example.title')} data-testid="calibration-example">
      <Typography.Paragraph>{t('example.intro')}</Typography.Paragraph>
      <Table
        size="small"
        pagination={false}
        scroll={{ x: true }}
        dataSource={rows}
        columns={[
          { key: 'm', title: t('item.deviceModel'), dataIndex: 'deviceModel' },
          { key: 's', title: t('item.serial'), dataIndex: 'serial' },
          { key: 'q', title: t('item.quantity'), dataIndex: 'quantity' },
          { key: 'p', title: t('item.points'), dataIndex: 'points' },
          { key: 'r', title: t('item.range'), dataIndex: 'range' },
          { key: 'l', title: t('item.level'), dataIndex: 'level' },
        ]}
      />
      <Typography.Paragraph style={{ marginTop: 12 }}>{t('example.points')}</Typography.Paragraph>
      <Typography.Paragraph>{t('example.serial')}</Typography.Paragraph>
      <Typography.Paragraph type="secondary">{t('example.after')}</Typography.Paragraph>
    </Card>
  );
}

/** A quick order: contact details and what to calibrate; the lab calls back. */
export function QuickView() {
  const { t } = useTranslation('calibration');
  const router = useRouter();
  const { message } = App.useApp();
  const [done, setDone] = useState<QuickOrder | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = useDebouncedCallback(async (values: QuickOrderInput) => {
    if (!getAccessToken()) {
      void router.push(loginRedirectFor(router.asPath));
      return;
    }
    setBusy(true);
    try {
      setDone(await applyQuickOrder(values));
      void message.success(t('quick.sent'));
    } finally {
      setBusy(false);
    }
  }, SUBMIT_DEBOUNCE_MS);
  if (done) {
    return (
      <Result
        status="success"
        title={t('quick.sent')}
        subTitle={t('quick.number', { no: done.orderNo })}
        data-testid="calibration-quick-done"
      />
    );
  }
  return (
    <Card title={t('nav.quick')}>
      <Typography.Paragraph type="secondary">{t('quick.intro')}</Typography.Paragraph>
      <Form<QuickOrderInput>
        layout="vertical"
        onFinish={submit}
        initialValues={{ quantity: 1 }}
        data-testid="calibration-quick-form"
      >
        <Form.Item
          name="contact"
          label={t('base.contact')}
          rules={[{ required: true, whitespace: true, message: t('rules.required') }]}
        >
          <Input maxLength={50} />
        </Form.Item>
        <Form.Item name="phone" label={t('base.phone')} rules={[{ required: true, min: 3, message: t('rules.phone') }]}>
          <Input maxLength={30} />
        </Form.Item>
        <Form.Item name="company" label={t('base.company')}>
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item name="deviceModel" label={t('item.deviceModel')}>
          <Input maxLength={50} />
        </Form.Item>
        <Form.Item
          name="quantity"
          label={t('item.quantity')}
          rules={[{ required: true, message: t('rules.required') }, ...rangeRules(t, 1, 10000)]}
        >
          <InputNumber precision={0} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item noStyle shouldUpdate>
          {({ getFieldValue }) =>
            (getFieldValue('quantity') ?? 0) > MAX_ITEMS ? (
              <Alert
                type="info"
                showIcon
                message={t('form.tooMany', { max: MAX_ITEMS })}
                style={{ marginBottom: 12 }}
              />
            ) : null
          }
        </Form.Item>
        <Form.Item name="remark" label={t('base.remark')}>
          <Input.TextArea maxLength={500} rows={3} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={busy} block data-testid="calibration-quick-submit">
          {t('quick.submit')}
        </Button>
      </Form>
    </Card>
  );
}

/** /calibration/verify?code=: the page a certificate's QR code opens (no account needed). */
export function VerifyView() {
  const { t } = useTranslation('calibration');
  const router = useRouter();
  const raw = router.query.code;
  const code = Array.isArray(raw) ? raw[0] : raw;
  const { data, error, isLoading } = useRead<Verification>(code ? verifyKey(code) : null, {
    shouldRetryOnError: false,
  });
  return (
    <Card title={t('verify.title')} data-testid="calibration-verify" style={{ maxWidth: 760, margin: '0 auto' }}>
      {isLoading ? <Skeleton active /> : null}
      {error || (!isLoading && !data) ? <Result status="warning" title={t('verify.notFound')} /> : null}
      {data ? (
        <Descriptions column={1} size="small" bordered>
          <Descriptions.Item label={t('certificate.number')}>{data.certificateNumber}</Descriptions.Item>
          <Descriptions.Item label={t('verify.state')}>
            {data.valid ? (
              <Tag color="success">{t('verify.valid')}</Tag>
            ) : (
              <Tag color="error">{t('verify.invalid')}</Tag>
            )}
            {data.passed ? <Tag color="blue">{t('result.pass')}</Tag> : <Tag color="orange">{t('result.fail')}</Tag>}
          </Descriptions.Item>
          <Descriptions.Item label={t('verify.lab')}>{data.lab}</Descriptions.Item>
          <Descriptions.Item label={t('base.company')}>{data.customer}</Descriptions.Item>
          <Descriptions.Item label={t('item.deviceModel')}>{data.deviceModel}</Descriptions.Item>
          <Descriptions.Item label={t('item.serial')}>{data.serial}</Descriptions.Item>
          <Descriptions.Item label={t('certificate.issued')}>
            {formatTime(data.issuedAt, 'YYYY-MM-DD')}
          </Descriptions.Item>
          <Descriptions.Item label={t('certificate.due')}>{formatTime(data.nextDueAt, 'YYYY-MM-DD')}</Descriptions.Item>
          <Descriptions.Item label={t('verify.hash')}>
            <Typography.Text code style={{ wordBreak: 'break-all' }}>
              {data.sha256 ?? '-'}
            </Typography.Text>
          </Descriptions.Item>
        </Descriptions>
      ) : null}
    </Card>
  );
}
