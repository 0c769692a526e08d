import {
  App,
  Button,
  DatePicker,
  Form,
  Input,
  InputNumber,
  Modal,
  Select,
  Space,
  Switch,
  Table,
  Tag,
  Upload,
} from 'antd';
import type { Dayjs } from 'dayjs';
import Link from 'next/link';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import {
  addProbeCertificate,
  deleteProbeCertificate,
  downloadProbeCertificate,
  probeCertificatesKey,
  setProbeCorrection,
  uploadProbeCertificate,
  type DeviceCalibration,
  type ProbeCalibration,
  type ProbeCertificate,
} from '@/api/calibration';
import { saveBlob } from '@/api/report';
import { rangeRules } from '@/components/ui/rangeRules';
import { useFormSubmit } from '@/hooks/useFormSubmit';
import { useRead } from '@/hooks/useRead';
import { formatTime } from '@/lib/format';

/** Bounds of a calibration point (the api's: -273.15 to 1000 in the probe's unit). */
const POINT_MIN = -273.15;
const POINT_MAX = 1000;
const STATUS_COLORS: Record<string, string> = {
  none: 'default',
  valid: 'success',
  due_soon: 'warning',
  overdue: 'error',
  failed: 'error',
};

interface Values {
  sensors: number[];
  number: string;
  issuer: string;
  calibratedAt: Dayjs;
  dueAt: Dayjs;
  passed: boolean;
  points?: { reference: number; measured: number }[];
  file?: { originFileObj?: File }[];
}

interface Probe {
  sensor: number;
  name: string;
}

function AddModal({
  deviceId,
  probes,
  onClose,
  onSaved,
}: {
  deviceId: number;
  probes: Probe[];
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation('calibration');
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const required = [{ required: true, message: t('probes.required') }];
  const submit = async (values: Values) => {
    setSaving(true);
    try {
      const added = await addProbeCertificate({
        deviceId,
        sensors: values.sensors,
        number: values.number.trim(),
        issuer: values.issuer.trim(),
        calibratedAt: values.calibratedAt.format('YYYY-MM-DD'),
        dueAt: values.dueAt.format('YYYY-MM-DD'),
        passed: values.passed,
        points: (values.points ?? []).map((p) => ({ reference: Number(p.reference), measured: Number(p.measured) })),
      });
      const file = values.file?.[0]?.originFileObj;
      if (file && added.id) await uploadProbeCertificate(added.id, file);
      onSaved();
    } catch {
      // Shown by the request client (a 422 names its field).
    } finally {
      setSaving(false);
    }
  };
  const { submit: submitOnce } = useFormSubmit(null, submit);
  return (
    <Modal
      open
      title={t('probes.add')}
      okText={t('probes.save')}
      cancelText={t('probes.cancel')}
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onClose}
      width={640}
    >
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={{ passed: true, sensors: probes.slice(0, 1).map((p) => p.sensor), points: [] }}
        onFinish={submitOnce}
        data-testid="probe-certificate-form"
      >
        <Form.Item name="sensors" label={t('probes.sensors')} rules={required}>
          <Select mode="multiple" options={probes.map((p) => ({ value: p.sensor, label: p.name }))} />
        </Form.Item>
        <Form.Item name="number" label={t('probes.number')} rules={[...required, { max: 40 }]}>
          <Input maxLength={40} data-testid="probe-certificate-number" />
        </Form.Item>
        <Form.Item name="issuer" label={t('probes.issuer')} rules={[...required, { max: 100 }]}>
          <Input maxLength={100} />
        </Form.Item>
        <Space wrap>
          <Form.Item name="calibratedAt" label={t('probes.calibratedAt')} rules={required}>
            <DatePicker />
          </Form.Item>
          <Form.Item
            name="dueAt"
            label={t('probes.dueAt')}
            dependencies={['calibratedAt']}
            rules={[
              ...required,
              ({ getFieldValue }) => ({
                validator: (_, value?: Dayjs) => {
                  const calibrated = getFieldValue('calibratedAt') as Dayjs | undefined;
                  return !value || !calibrated || value.isAfter(calibrated, 'day')
                    ? Promise.resolve()
                    : Promise.reject(new Error(t('probes.dueAfter')));
                },
              }),
            ]}
          >
            <DatePicker />
          </Form.Item>
          <Form.Item name="passed" label={t('probes.passed')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Space>
        <Form.List name="points">
          {(fields, { add, remove }) => (
            <>
              {fields.map((field) => (
                <Space key={field.key} align="baseline">
                  <Form.Item
                    name={[field.name, 'reference']}
                    label={t('probes.reference')}
                    rules={[...required, ...rangeRules(t, POINT_MIN, POINT_MAX)]}
                  >
                    <InputNumber />
                  </Form.Item>
                  <Form.Item
                    name={[field.name, 'measured']}
                    label={t('probes.measured')}
                    rules={[...required, ...rangeRules(t, POINT_MIN, POINT_MAX)]}
                  >
                    <InputNumber />
                  </Form.Item>
                  <Button size="small" onClick={() => remove(field.name)}>
                    {t('probes.removePoint')}
                  </Button>
                </Space>
              ))}
              <Button size="small" onClick={() => add()} disabled={fields.length >= 20}>
                {t('probes.addPoint')}
              </Button>
            </>
          )}
        </Form.List>
        <Form.Item
          name="file"
          label={t('probes.file')}
          valuePropName="fileList"
          getValueFromEvent={(event: { fileList: unknown[] }) => event.fileList.slice(-1)}
          extra={t('probes.fileHint')}
        >
          <Upload accept="application/pdf,.pdf" maxCount={1} beforeUpload={() => false}>
            <Button size="small">{t('probes.choose')}</Button>
          </Upload>
        </Form.Item>
      </Form>
    </Modal>
  );
}

function statusText(t: (key: string, options?: Record<string, unknown>) => string, probe: ProbeCalibration): string {
  if (probe.status === 'overdue' && probe.overdueSince)
    return t('probes.overdueSince', { date: formatTime(probe.overdueSince, 'YYYY-MM-DD') });
  return t(`probes.status.${probe.status ?? 'none'}`);
}

/** The device detail's Calibration tab: each probe's certificates, due dates and overdue state; outside labs' certificates added here. */
export function ProbeCalibrationTab({
  deviceId,
  deviceGuid,
  probes,
}: {
  deviceId: number;
  deviceGuid: string;
  probes: Probe[];
}) {
  const { t } = useTranslation('calibration');
  const { modal } = App.useApp();
  const { data, mutate } = useRead<DeviceCalibration>(probeCertificatesKey(deviceId));
  const [adding, setAdding] = useState(false);
  const [switching, setSwitching] = useState(false);
  const switchCorrection = async (enabled: boolean) => {
    setSwitching(true);
    try {
      await setProbeCorrection({ deviceId, enabled });
      await mutate();
    } catch {
      // Shown by the request client (refused, or FDA mode asked a reason the user withheld).
    } finally {
      setSwitching(false);
    }
  };
  const nameOf = (sensor?: number) => probes.find((p) => p.sensor === sensor)?.name ?? `#${sensor}`;
  const remove = (certificate: ProbeCertificate) =>
    modal.confirm({
      title: t('probes.deleteConfirm', { number: certificate.number }),
      onOk: async () => {
        if (certificate.id) await deleteProbeCertificate(certificate.id);
        await mutate();
      },
    });
  const download = async (certificate: ProbeCertificate) => {
    if (!certificate.id) return;
    const answer = await downloadProbeCertificate(certificate.id);
    if (answer?.data) saveBlob(answer, `${certificate.number ?? 'certificate'}.pdf`);
  };
  const columns = [
    { title: t('probes.number'), dataIndex: 'number', key: 'number' },
    {
      title: t('probes.issuer'),
      key: 'issuer',
      render: (_: unknown, c: ProbeCertificate) => (c.ownLab ? `${c.issuer} (${t('probes.ownLab')})` : c.issuer),
    },
    {
      title: t('probes.calibratedAt'),
      key: 'calibratedAt',
      render: (_: unknown, c: ProbeCertificate) => formatTime(c.calibratedAt, 'YYYY-MM-DD'),
    },
    {
      title: t('probes.dueAt'),
      key: 'dueAt',
      render: (_: unknown, c: ProbeCertificate) => formatTime(c.dueAt, 'YYYY-MM-DD'),
    },
    {
      title: t('probes.passed'),
      key: 'passed',
      render: (_: unknown, c: ProbeCertificate) => (c.passed ? t('probes.pass') : t('probes.fail')),
    },
    {
      title: '',
      key: 'actions',
      render: (_: unknown, c: ProbeCertificate) =>
        c.ownLab ? null : (
          <Space>
            {c.hasFile ? (
              <Button size="small" type="link" onClick={() => void download(c)}>
                {t('probes.download')}
              </Button>
            ) : null}
            <Button size="small" type="link" danger onClick={() => remove(c)}>
              {t('probes.delete')}
            </Button>
          </Space>
        ),
    },
  ];
  return (
    <div data-testid="probe-calibration">
      <Space style={{ marginBottom: 12 }}>
        <Button type="primary" onClick={() => setAdding(true)} data-testid="probe-certificate-add">
          {t('probes.add')}
        </Button>
        <Link href={`/calibration/form?deviceGuid=${encodeURIComponent(deviceGuid)}`}>{t('certificate.order')}</Link>
      </Space>
      <div style={{ marginBottom: 12 }}>
        <Space>
          <Switch
            checked={Boolean(data?.correction)}
            loading={switching}
            disabled={!data}
            onChange={(enabled) => void switchCorrection(enabled)}
            data-testid="probe-correction"
          />
          <span>{t('probes.correction')}</span>
        </Space>
        <div style={{ opacity: 0.65, fontSize: 12, marginTop: 4 }}>{t('probes.correctionHelp')}</div>
      </div>
      {(data?.probes ?? []).map((probe) => (
        <div key={probe.sensor} style={{ marginBottom: 16 }} data-testid={`probe-calibration-${probe.sensor}`}>
          <Space style={{ marginBottom: 4 }}>
            <strong>{nameOf(probe.sensor)}</strong>
            <Tag color={STATUS_COLORS[probe.status ?? 'none']}>{statusText(t, probe)}</Tag>
          </Space>
          <Table<ProbeCertificate>
            size="small"
            rowKey={(c) => `${c.ownLab ? 'lab' : 'own'}-${c.id ?? c.number}`}
            columns={columns}
            dataSource={probe.certificates ?? []}
            pagination={false}
            locale={{ emptyText: t('probes.status.none') }}
          />
        </div>
      ))}
      {adding ? (
        <AddModal
          deviceId={deviceId}
          probes={probes}
          onClose={() => setAdding(false)}
          onSaved={() => {
            setAdding(false);
            void mutate();
          }}
        />
      ) : null}
    </div>
  );
}
