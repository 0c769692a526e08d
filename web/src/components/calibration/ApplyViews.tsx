import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  Alert,
  Button,
  Card,
  Col,
  Descriptions,
  Form,
  Input,
  InputNumber,
  Result,
  Row,
  Select,
  Space,
  Table,
  Typography,
} from 'antd';
import Link from 'next/link';
import { useRouter } from 'next/router';
import { useTranslation } from 'next-i18next/pages';
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import {
  apply,
  itemPrice,
  LEVELS,
  MAX_ITEMS,
  money,
  pricesKey,
  userInvoiceKey,
  type ApplyInput,
  type Invoice,
  type ItemInput,
  type Level,
  type Price,
} from '@/api/calibration';
import { getAccessToken, loginRedirectFor } from '@/api/session';
import { SUBMIT_DEBOUNCE_MS } from '@/components/ui/constants';
import { useDebouncedCallback } from '@/hooks/useDebouncedCallback';
import { useRead } from '@/hooks/useRead';
import { rangeRules } from '@/components/ui/rangeRules';
import { isMobilePath } from './CalibrationLayout';

const DRAFT_KEY = 'coldchain:calibration-draft';
const UNITS = ['°C', '%RH', '°F'];

interface ItemValues {
  deviceModel: string;
  serial: string;
  quantity: number;
  pointsText: string;
  range?: string;
  unit: string;
  level: Level;
}

interface FormValues {
  company: string;
  contact: string;
  phone: string;
  email?: string;
  address?: string;
  remark?: string;
  items: ItemValues[];
  invoiceTitle?: string;
  invoiceTaxNo?: string;
  invoiceEmail?: string;
}

/** "-20, 0; 25" -> [-20, 0, 25]; null when a value is no number. */
export function parsePoints(text: string | undefined): number[] | null {
  const parts = (text ?? '').split(/[\s,;，；]+/).filter(Boolean);
  const values = parts.map(Number);
  return values.length && values.every((v) => Number.isFinite(v)) ? values : null;
}

function toDraft(values: FormValues): ApplyInput {
  const invoice: Invoice | null = values.invoiceTitle?.trim()
    ? { title: values.invoiceTitle.trim(), taxNo: values.invoiceTaxNo || null, email: values.invoiceEmail || null }
    : null;
  return {
    company: values.company.trim(),
    contact: values.contact.trim(),
    phone: values.phone.trim(),
    email: values.email || null,
    address: values.address || null,
    remark: values.remark || null,
    invoice,
    items: values.items.map<ItemInput>((item) => ({
      deviceModel: item.deviceModel.trim(),
      serial: item.serial.trim(),
      quantity: item.quantity,
      points: parsePoints(item.pointsText) ?? [],
      range: item.range || null,
      unit: item.unit,
      level: item.level,
    })),
  };
}

function fromDraft(draft: ApplyInput): Partial<FormValues> {
  return {
    ...draft,
    email: draft.email ?? undefined,
    address: draft.address ?? undefined,
    remark: draft.remark ?? undefined,
    invoiceTitle: draft.invoice?.title,
    invoiceTaxNo: draft.invoice?.taxNo ?? undefined,
    invoiceEmail: draft.invoice?.email ?? undefined,
    items: draft.items.map((item) => ({ ...item, range: item.range ?? undefined, pointsText: item.points.join(', ') })),
  };
}

function parseDraft(raw: string | null): ApplyInput | null {
  try {
    return raw ? (JSON.parse(raw) as ApplyInput) : null;
  } catch {
    return null;
  }
}

function readDraft(): ApplyInput | null {
  return parseDraft(window.sessionStorage.getItem(DRAFT_KEY));
}

const noSubscription = () => () => undefined;

/** The stored draft (undefined while rendering on the server). */
function useDraft(): ApplyInput | null | undefined {
  const raw = useSyncExternalStore(
    noSubscription,
    () => window.sessionStorage.getItem(DRAFT_KEY),
    () => undefined,
  );
  return useMemo(() => (raw === undefined ? undefined : parseDraft(raw)), [raw]);
}

const NEW_ITEM: ItemValues = {
  deviceModel: '',
  serial: '',
  quantity: 1,
  pointsText: '',
  unit: '°C',
  level: 'standard',
};

/** The application form (desktop /calibration/form, phone /mobile/calibration/apply): contact, instruments, invoice; then the preview. */
export function ApplyForm() {
  const { t } = useTranslation('calibration');
  const router = useRouter();
  const mobile = isMobilePath(router.pathname);
  const [form] = Form.useForm<FormValues>();
  const items = Form.useWatch('items', form) ?? [];
  const tooMany = items.length > MAX_ITEMS;
  const signedIn = typeof window !== 'undefined' && getAccessToken() !== null;
  const { data: lastInvoice } = useRead<Invoice | null>(signedIn ? userInvoiceKey() : null);
  useEffect(() => {
    const draft = readDraft();
    if (draft) form.setFieldsValue(fromDraft(draft));
  }, [form]);
  // The one-click link of a calibration due reminder (issue 48): /calibration/form?deviceGuid=<GUID>
  // opens the form with that device as its instrument.
  const deviceGuid = typeof router.query.deviceGuid === 'string' ? router.query.deviceGuid.slice(0, 50) : '';
  useEffect(() => {
    if (!deviceGuid) return;
    const items: ItemValues[] = form.getFieldValue('items') ?? [];
    if (!items.some((item) => item.serial === deviceGuid)) {
      form.setFieldsValue({ items: [...items.filter((item) => item.serial), { ...NEW_ITEM, serial: deviceGuid }] });
    }
  }, [deviceGuid, form]);
  useEffect(() => {
    if (lastInvoice && !form.getFieldValue('invoiceTitle')) {
      form.setFieldsValue({
        invoiceTitle: lastInvoice.title,
        invoiceTaxNo: lastInvoice.taxNo ?? undefined,
        invoiceEmail: lastInvoice.email ?? undefined,
      });
    }
  }, [lastInvoice, form]);
  const preview = (values: FormValues) => {
    window.sessionStorage.setItem(DRAFT_KEY, JSON.stringify(toDraft(values)));
    void router.push(mobile ? '/mobile/calibration/preview' : '/calibration/preview');
  };
  const span = mobile ? 24 : 8;
  return (
    <Form<FormValues>
      form={form}
      layout="vertical"
      onFinish={preview}
      initialValues={{ items: [NEW_ITEM] }}
      data-testid="calibration-form"
      scrollToFirstError
    >
      <Card title={t('form.customer')} size={mobile ? 'small' : 'default'}>
        <Row gutter={16}>
          <Col span={span}>
            <Form.Item
              name="company"
              label={t('base.company')}
              rules={[{ required: true, whitespace: true, message: t('rules.required') }]}
            >
              <Input maxLength={100} data-testid="calibration-company" />
            </Form.Item>
          </Col>
          <Col span={span}>
            <Form.Item
              name="contact"
              label={t('base.contact')}
              rules={[{ required: true, whitespace: true, message: t('rules.required') }]}
            >
              <Input maxLength={50} data-testid="calibration-contact" />
            </Form.Item>
          </Col>
          <Col span={span}>
            <Form.Item
              name="phone"
              label={t('base.phone')}
              rules={[{ required: true, min: 3, message: t('rules.phone') }]}
            >
              <Input maxLength={30} data-testid="calibration-phone" />
            </Form.Item>
          </Col>
          <Col span={span}>
            <Form.Item name="email" label={t('base.email')} rules={[{ type: 'email', message: t('rules.email') }]}>
              <Input maxLength={254} />
            </Form.Item>
          </Col>
          <Col span={mobile ? 24 : 16}>
            <Form.Item name="address" label={t('base.address')}>
              <Input maxLength={200} />
            </Form.Item>
          </Col>
        </Row>
      </Card>
      <Card title={t('form.items')} size={mobile ? 'small' : 'default'} style={{ marginTop: 16 }}>
        <Form.List
          name="items"
          rules={[
            {
              validator: async (_, value: ItemValues[] | undefined) => {
                if (!value || value.length < 1) throw new Error(t('form.empty'));
              },
            },
          ]}
        >
          {(fields, { add, remove }, { errors }) => (
            <>
              {fields.map((field, index) => (
                <Card
                  key={field.key}
                  size="small"
                  type="inner"
                  title={t('form.itemN', { n: index + 1 })}
                  style={{ marginBottom: 12 }}
                  extra={
                    <Button
                      type="text"
                      danger
                      icon={<DeleteOutlined />}
                      onClick={() => remove(field.name)}
                      aria-label={t('form.removeItem')}
                      data-testid={`calibration-remove-item-${index}`}
                    />
                  }
                >
                  <Row gutter={12}>
                    <Col span={mobile ? 24 : 6}>
                      <Form.Item
                        name={[field.name, 'deviceModel']}
                        label={t('item.deviceModel')}
                        rules={[{ required: true, whitespace: true, message: t('rules.required') }]}
                      >
                        <Input maxLength={50} data-testid={`calibration-model-${index}`} />
                      </Form.Item>
                    </Col>
                    <Col span={mobile ? 24 : 6}>
                      <Form.Item
                        name={[field.name, 'serial']}
                        label={t('item.serial')}
                        rules={[{ required: true, whitespace: true, message: t('rules.required') }]}
                      >
                        <Input maxLength={50} data-testid={`calibration-serial-${index}`} />
                      </Form.Item>
                    </Col>
                    <Col span={mobile ? 12 : 4}>
                      <Form.Item
                        name={[field.name, 'quantity']}
                        label={t('item.quantity')}
                        rules={[{ required: true, message: t('rules.required') }, ...rangeRules(t, 1, 100)]}
                      >
                        <InputNumber precision={0} style={{ width: '100%' }} />
                      </Form.Item>
                    </Col>
                    <Col span={mobile ? 12 : 4}>
                      <Form.Item name={[field.name, 'unit']} label={t('item.unit')}>
                        <Select options={UNITS.map((u) => ({ value: u, label: u }))} />
                      </Form.Item>
                    </Col>
                    <Col span={mobile ? 24 : 4}>
                      <Form.Item name={[field.name, 'level']} label={t('item.level')}>
                        <Select options={LEVELS.map((level) => ({ value: level, label: t(`level.${level}`) }))} />
                      </Form.Item>
                    </Col>
                    <Col span={mobile ? 24 : 12}>
                      <Form.Item
                        name={[field.name, 'pointsText']}
                        label={t('item.points')}
                        extra={t('form.pointsHint')}
                        rules={[
                          {
                            validator: async (_, value: string | undefined) => {
                              const points = parsePoints(value);
                              if (!points || points.length > 20) throw new Error(t('rules.points'));
                            },
                          },
                        ]}
                      >
                        <Input placeholder="-20, 0, 25" data-testid={`calibration-points-${index}`} />
                      </Form.Item>
                    </Col>
                    <Col span={mobile ? 24 : 12}>
                      <Form.Item name={[field.name, 'range']} label={t('item.range')}>
                        <Input maxLength={50} placeholder="-40 ~ 85 °C" />
                      </Form.Item>
                    </Col>
                  </Row>
                </Card>
              ))}
              <Form.ErrorList errors={errors} />
              {tooMany ? (
                <Alert
                  type="warning"
                  showIcon
                  message={t('form.tooMany', { max: MAX_ITEMS })}
                  style={{ marginBottom: 12 }}
                  data-testid="calibration-too-many"
                />
              ) : null}
              <Button
                type="dashed"
                block
                icon={<PlusOutlined />}
                onClick={() => add({ ...NEW_ITEM })}
                data-testid="calibration-add-item"
              >
                {t('form.addItem')}
              </Button>
            </>
          )}
        </Form.List>
      </Card>
      <Card title={t('form.invoice')} size={mobile ? 'small' : 'default'} style={{ marginTop: 16 }}>
        <Row gutter={16}>
          <Col span={span}>
            <Form.Item name="invoiceTitle" label={t('invoice.title')}>
              <Input maxLength={100} />
            </Form.Item>
          </Col>
          <Col span={span}>
            <Form.Item name="invoiceTaxNo" label={t('invoice.taxNo')}>
              <Input maxLength={30} />
            </Form.Item>
          </Col>
          <Col span={span}>
            <Form.Item
              name="invoiceEmail"
              label={t('invoice.email')}
              rules={[{ type: 'email', message: t('rules.email') }]}
            >
              <Input maxLength={254} />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name="remark" label={t('base.remark')}>
          <Input.TextArea rows={2} maxLength={500} />
        </Form.Item>
      </Card>
      <Space style={{ marginTop: 16 }} wrap>
        <Button type="primary" htmlType="submit" disabled={tooMany} data-testid="calibration-preview">
          {t('form.preview')}
        </Button>
        <Link href={mobile ? '/mobile/calibration/device/example' : '/calibration/form/example'}>
          {t('nav.example')}
        </Link>
      </Space>
    </Form>
  );
}

/** The preview: what will be ordered and its price; submitting applies (signing in first when needed). */
export function PreviewView() {
  const { t } = useTranslation('calibration');
  const router = useRouter();
  const mobile = isMobilePath(router.pathname);
  const { data: prices } = useRead<Price[]>(pricesKey());
  const draft = useDraft();
  const [busy, setBusy] = useState(false);
  const submit = useDebouncedCallback(async () => {
    if (!draft) return;
    if (!getAccessToken()) {
      void router.push(loginRedirectFor(router.asPath));
      return;
    }
    setBusy(true);
    try {
      const application = await apply(draft);
      if (!application) return;
      window.sessionStorage.removeItem(DRAFT_KEY);
      void router.push(
        mobile
          ? `/mobile/calibration/apply/success?id=${application.applicationId}`
          : `/calibration/order/${application.applicationId}`,
      );
    } finally {
      setBusy(false);
    }
  }, SUBMIT_DEBOUNCE_MS);
  if (draft === undefined) return null;
  if (draft === null) {
    return (
      <Result
        status="info"
        title={t('preview.empty')}
        extra={<Link href={mobile ? '/mobile/calibration/apply' : '/calibration/form'}>{t('nav.apply')}</Link>}
      />
    );
  }
  const total = draft.items.reduce((sum, item) => sum + itemPrice(prices, item), 0);
  return (
    <Card title={t('preview.title')} data-testid="calibration-preview-page">
      <Descriptions column={mobile ? 1 : 3} size="small" bordered>
        <Descriptions.Item label={t('base.company')}>{draft.company}</Descriptions.Item>
        <Descriptions.Item label={t('base.contact')}>{draft.contact}</Descriptions.Item>
        <Descriptions.Item label={t('base.phone')}>{draft.phone}</Descriptions.Item>
        <Descriptions.Item label={t('form.invoice')}>{draft.invoice?.title ?? '-'}</Descriptions.Item>
      </Descriptions>
      <Table
        style={{ marginTop: 16 }}
        size="small"
        pagination={false}
        rowKey={(_, i) => String(i)}
        scroll={{ x: true }}
        dataSource={draft.items}
        columns={[
          { key: 'm', title: t('item.deviceModel'), dataIndex: 'deviceModel' },
          { key: 's', title: t('item.serial'), dataIndex: 'serial' },
          { key: 'q', title: t('item.quantity'), dataIndex: 'quantity' },
          {
            key: 'p',
            title: t('item.points'),
            render: (_, item: ItemInput) => `${item.points.join(', ')} ${item.unit}`,
          },
          { key: 'l', title: t('item.level'), render: (_, item: ItemInput) => t(`level.${item.level}`) },
          { key: 'price', title: t('item.price'), render: (_, item: ItemInput) => money(itemPrice(prices, item)) },
        ]}
      />
      <Typography.Title level={5} style={{ marginTop: 16 }} data-testid="calibration-total">
        {t('preview.total', { total: money(total) })}
      </Typography.Title>
      <Alert type="info" showIcon message={t('preview.payment')} />
      <Space style={{ marginTop: 16 }} wrap>
        <Button onClick={() => void router.push(mobile ? '/mobile/calibration/apply' : '/calibration/form')}>
          {t('preview.edit')}
        </Button>
        <Button type="primary" loading={busy} onClick={submit} data-testid="calibration-submit">
          {t('preview.submit')}
        </Button>
      </Space>
    </Card>
  );
}

/** /mobile/calibration/apply/success?id=: the application is in; what happens next. */
export function ApplySuccessView() {
  const { t } = useTranslation('calibration');
  const router = useRouter();
  const id = typeof router.query.id === 'string' ? router.query.id : '';
  return (
    <Result
      status="success"
      title={t('success.title')}
      subTitle={t('success.next')}
      data-testid="calibration-apply-success"
      extra={[
        <Link key="detail" href={`/mobile/calibration/order/${id}`}>
          <Button type="primary">{t('success.view')}</Button>
        </Link>,
        <Link key="home" href="/mobile/calibration/home">
          <Button>{t('nav.orders')}</Button>
        </Link>,
      ]}
    />
  );
}
