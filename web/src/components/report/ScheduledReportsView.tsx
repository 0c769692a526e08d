import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { App, Button, DatePicker, Form, Input, Modal, Select, Space, Tag, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'next-i18next/pages';
import { useCallback, useState } from 'react';
import { useRead } from '@/hooks/useRead';
import { ApiError } from '@/api/errors';
import {
  deleteReport,
  insertReport,
  reportKindsKey,
  type ReportKind,
  reportPageKey,
  sendReportNow,
  updateReport,
  type FileType,
  type Frequency,
  type Receiver,
  type ScheduledReport,
  type ScheduledReportInput,
} from '@/api/report';
import { showServerErrors } from '@/lib/serverErrors';
import { formatTime, isoWithOffset } from '@/lib/format';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { firstDuplicateReceiver, REPORT_NAME_MAX, reportSubject } from './helpers';
import { ReportSubjectField, useStorageNames } from './ReportSubjectField';
import { DataList } from '@/components/ui/DataList';
import { useFormSubmit } from '@/hooks/useFormSubmit';
import { SymbolFreeInput } from '@/components/ui/SymbolFreeInput';

const FREQUENCIES: Frequency[] = ['daily', 'weekly', 'monthly'];
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

interface ReportValues {
  reportName: string;
  reportType: string;
  fileType: FileType;
  frequency: Frequency;
  deviceIds?: number[];
  storageId?: number | null;
  nextReportTime: Dayjs;
  receivers: Receiver[];
}

function ReportModal({
  report,
  onClose,
  onSaved,
}: {
  report: ScheduledReport | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation('report');
  const { message } = App.useApp();
  const [form] = Form.useForm<ReportValues>();
  const [saving, setSaving] = useState(false);
  const { data: kinds } = useRead<ReportKind[]>(reportKindsKey());
  const reportType = Form.useWatch('reportType', form);

  const submit = async (values: ReportValues) => {
    const body: ScheduledReportInput = {
      reportName: values.reportName.trim(),
      reportType: values.reportType,
      fileType: values.fileType,
      frequency: values.frequency,
      ...reportSubject(values.reportType, values.deviceIds, values.storageId),
      nextReportTime: isoWithOffset(values.nextReportTime.toDate()),
      receivers: values.receivers.map((receiver) => ({
        name: receiver.name.trim(),
        phone: receiver.phone?.trim() || null,
        email: receiver.email?.trim() || null,
      })),
    };
    setSaving(true);
    try {
      if (report) await updateReport({ ...body, id: report.id }, { handleErrors: false });
      else await insertReport(body, { handleErrors: false });
      onSaved();
    } catch (error) {
      if (!showServerErrors(form, error, { receivers: 'receivers' }) && error instanceof ApiError)
        message.error(error.message);
    } finally {
      setSaving(false);
    }
  };

  const initial: Partial<ReportValues> = report
    ? { ...report, fileType: report.fileType ?? 'pdf', nextReportTime: dayjs(report.nextReportTime) }
    : {
        reportType: 'device',
        fileType: 'pdf',
        frequency: 'daily',
        receivers: [{ name: '' }],
        nextReportTime: dayjs().add(1, 'day').startOf('day').hour(8),
      };

  // Spec 9: every form and modal submits once per 500 ms.
  const { submit: submitOnce } = useFormSubmit(null, submit);
  return (
    <Modal
      open
      title={t(report ? 'scheduled.edit' : 'scheduled.add')}
      okText={t('action.save')}
      cancelText={t('action.cancel')}
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onClose}
      width={680}
    >
      <Form<ReportValues>
        form={form}
        layout="vertical"
        initialValues={initial}
        onFinish={submitOnce}
        data-testid="report-form"
      >
        <Form.Item
          name="reportName"
          label={t('scheduled.reportName')}
          rules={[
            { required: true, whitespace: true, message: t('form.required') },
            { max: REPORT_NAME_MAX, message: t('form.max', { max: REPORT_NAME_MAX }) },
          ]}
        >
          <SymbolFreeInput maxLength={REPORT_NAME_MAX} showCount />
        </Form.Item>
        <Space wrap size="middle" style={{ width: '100%' }}>
          <Form.Item
            name="reportType"
            label={t('scheduled.type')}
            rules={[{ required: true, message: t('form.required') }]}
          >
            <Select
              style={{ minWidth: 160 }}
              options={(kinds ?? [{ key: 'device', label: t('scheduled.deviceType') }]).map((kind) => ({
                value: kind.key,
                label: kind.label,
              }))}
            />
          </Form.Item>
          <Form.Item
            name="frequency"
            label={t('scheduled.frequency')}
            rules={[{ required: true, message: t('form.required') }]}
          >
            <Select
              style={{ minWidth: 140 }}
              options={FREQUENCIES.map((value) => ({ value, label: t(`frequency.${value}`) }))}
              data-testid="report-frequency"
            />
          </Form.Item>
          <Form.Item name="fileType" label={t('export.format')}>
            <Select
              style={{ minWidth: 120 }}
              options={[
                { value: 'pdf', label: 'PDF' },
                { value: 'xlsx', label: 'XLSX' },
                { value: 'csv', label: 'CSV' },
              ]}
            />
          </Form.Item>
        </Space>
        <ReportSubjectField reportType={reportType} />
        <Form.Item
          name="nextReportTime"
          label={t('scheduled.nextReportTime')}
          rules={[{ required: true, message: t('form.required') }]}
        >
          <DatePicker showTime style={{ width: '100%' }} />
        </Form.Item>
        <Typography.Text strong>{t('scheduled.receivers')}</Typography.Text>
        <Form.List
          name="receivers"
          rules={[
            {
              validator: async (_, receivers?: Receiver[]) => {
                if (!receivers?.length) throw new Error(t('scheduled.needReceiver'));
                if (firstDuplicateReceiver(receivers) >= 0) throw new Error(t('scheduled.duplicateReceiver'));
              },
            },
          ]}
        >
          {(fields, { add, remove }, { errors }) => (
            <div data-testid="report-receivers">
              {fields.map((field) => (
                <Space key={field.key} align="start" wrap style={{ display: 'flex', marginTop: 8 }}>
                  <Form.Item
                    name={[field.name, 'name']}
                    rules={[
                      { required: true, whitespace: true, message: t('form.required') },
                      { max: 50, message: t('form.max', { max: 50 }) },
                    ]}
                    style={{ marginBottom: 0 }}
                  >
                    <SymbolFreeInput placeholder={t('scheduled.receiverName')} maxLength={50} />
                  </Form.Item>
                  <Form.Item name={[field.name, 'phone']} style={{ marginBottom: 0 }}>
                    <Input placeholder={t('scheduled.phone')} maxLength={20} />
                  </Form.Item>
                  <Form.Item
                    name={[field.name, 'email']}
                    dependencies={[['receivers', field.name, 'phone']]}
                    style={{ marginBottom: 0 }}
                    rules={[
                      ({ getFieldValue }) => ({
                        validator: async (_, email?: string) => {
                          const phone = getFieldValue(['receivers', field.name, 'phone']) as string | undefined;
                          if (!email?.trim() && !phone?.trim()) throw new Error(t('scheduled.phoneOrEmail'));
                          if (email?.trim() && !EMAIL.test(email.trim())) throw new Error(t('scheduled.badEmail'));
                        },
                      }),
                    ]}
                  >
                    <Input placeholder={t('scheduled.email')} maxLength={254} />
                  </Form.Item>
                  {fields.length > 1 && (
                    <Button
                      icon={<DeleteOutlined />}
                      onClick={() => remove(field.name)}
                      aria-label={t('action.delete')}
                    />
                  )}
                </Space>
              ))}
              <Form.ErrorList errors={errors} />
              <Button
                type="dashed"
                icon={<PlusOutlined />}
                onClick={() => add({ name: '' })}
                style={{ marginTop: 8 }}
                disabled={fields.length >= 20}
              >
                {t('scheduled.addReceiver')}
              </Button>
            </div>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}

/** Scheduled reports: generated daily, weekly or monthly, emailed to the receivers and kept in the download centre. */
export function ScheduledReportsView({ embedded = false }: { embedded?: boolean }) {
  const { t } = useTranslation('report');
  const { message, modal } = App.useApp();
  const [editing, setEditing] = useState<{ report: ScheduledReport | null } | null>(null);
  const [name, setName] = useState('');
  const filters = { reportName: name || undefined };
  const { data, loading, pagination, mutate } = usePagedQuery<ScheduledReport, typeof filters>(reportPageKey, filters);
  const reload = useCallback(() => void mutate(), [mutate]);
  const storageNames = useStorageNames(data.some((report) => report.storageId != null));

  const remove = (report: ScheduledReport) =>
    modal.confirm({
      content: t('confirm.deleteReport', { name: report.reportName }),
      okText: t('action.delete'),
      cancelText: t('action.cancel'),
      okButtonProps: { danger: true },
      onOk: () => deleteReport(report.id).then(reload, () => undefined),
    });

  const sendNow = async (report: ScheduledReport) => {
    try {
      await sendReportNow(report.id);
      message.success(t('scheduled.sent'));
    } catch {
      // Shown by the request client.
    }
  };

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="scheduled-reports">
      {!embedded && (
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('scheduled.title')}
        </Typography.Title>
      )}
      <Space wrap style={{ justifyContent: 'space-between', width: '100%' }}>
        <Input.Search
          allowClear
          placeholder={t('scheduled.reportName')}
          onChange={(event) => setName(event.target.value)}
          style={{ width: 220 }}
        />
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setEditing({ report: null })}
          data-testid="report-add"
        >
          {t('scheduled.add')}
        </Button>
      </Space>
      <DataList<ScheduledReport>
        rowKey="id"
        loading={loading}
        data={data}
        pagination={pagination}
        testId="report-table"
        columns={[
          { key: 'name', title: t('scheduled.reportName'), dataIndex: 'reportName', long: 180, card: 'title' },
          {
            key: 'frequency',
            title: t('scheduled.frequency'),
            render: (_, report) => <Tag>{t(`frequency.${report.frequency}`)}</Tag>,
          },
          {
            key: 'devices',
            title: t('scheduled.covers'),
            render: (_, report) =>
              report.storageId != null
                ? (storageNames.get(report.storageId) ?? t('scheduled.storage'))
                : (report.deviceIds?.length ?? 0),
          },
          {
            key: 'receivers',
            title: t('scheduled.receivers'),
            long: 200,
            render: (_, report) => report.receivers.map((receiver) => receiver.name).join(', '),
          },
          {
            key: 'next',
            title: t('scheduled.nextReportTime'),
            important: true,
            render: (_, report) => formatTime(report.nextReportTime),
          },
          {
            key: 'actions',
            title: t('column.actions'),
            render: (_, report) => (
              <Space size={4}>
                <Button type="link" size="small" onClick={() => void sendNow(report)} data-testid="report-send-now">
                  {t('scheduled.sendNow')}
                </Button>
                <Button type="link" size="small" onClick={() => setEditing({ report })}>
                  {t('action.edit')}
                </Button>
                <Button type="link" size="small" danger onClick={() => remove(report)}>
                  {t('action.delete')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
      {editing && (
        <ReportModal
          report={editing.report}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            reload();
          }}
        />
      )}
    </Space>
  );
}
