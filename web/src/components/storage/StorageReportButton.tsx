import { App, Button, DatePicker, Form, Modal, Radio, Segmented, type ButtonProps } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import Link from 'next/link';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import type { TemperatureUnit } from '@/api/device';
import { requestStorageReport, type Storage, type StorageKind } from '@/api/storage';
import { isoWithOffset } from '@/lib/format';
import { MAX_EXPORT_DAYS, QUICK_RANGES, quickRange } from '@/components/report/helpers';
import { useSession } from '@/lib/SessionContext';
import { useFormSubmit } from '@/hooks/useFormSubmit';

interface ReportValues {
  range: [Dayjs, Dayjs];
  fileType: 'pdf' | 'csv' | 'xlsx';
  unit: TemperatureUnit;
}

/** A storage's report over a window (PDF with every probe, MKT per probe and for the storage; or its readings as CSV / XLSX) as a job; the file appears in the download centre. */
function StorageReportDialog({ kind, storage, onClose }: { kind: StorageKind; storage: Storage; onClose: () => void }) {
  const { t } = useTranslation('storage');
  const { message } = App.useApp();
  const session = useSession();
  const [form] = Form.useForm<ReportValues>();
  const accountUnit: TemperatureUnit = session.info?.baseAccount.temperatureUnit === 'F' ? 'F' : 'C';

  const submit = async (values: ReportValues) => {
    await requestStorageReport(kind, {
      storageId: storage.id,
      startTime: isoWithOffset(values.range[0].toDate()),
      endTime: isoWithOffset(values.range[1].toDate()),
      fileType: values.fileType,
      unit: values.unit,
    });
    message.success(
      <span data-testid="storage-report-queued">
        {t('report.queued')} <Link href="/consumer/download">{t('report.openCenter')}</Link>
      </span>,
    );
    onClose();
  };
  // Spec 9: every form and modal submits once per 500 ms.
  const { submit: submitOnce, submitting } = useFormSubmit(null, submit);

  return (
    <Modal
      open
      title={t('report.title', { name: storage.storageName })}
      okText={t('report.submit')}
      cancelText={t('cancel')}
      confirmLoading={submitting}
      onOk={() => form.submit()}
      onCancel={onClose}
      okButtonProps={{ 'data-testid': 'storage-report-submit' } as ButtonProps}
      width={560}
    >
      <Form<ReportValues>
        form={form}
        layout="vertical"
        onFinish={submitOnce}
        data-testid="storage-report-form"
        initialValues={{ range: quickRange('day'), fileType: 'pdf', unit: accountUnit }}
      >
        <Form.Item label={t('report.quick')}>
          <Segmented
            options={QUICK_RANGES.map((key) => ({ value: key, label: t(`report.ranges.${key}`) }))}
            onChange={(key) => form.setFieldValue('range', quickRange(key as (typeof QUICK_RANGES)[number]))}
          />
        </Form.Item>
        <Form.Item
          name="range"
          label={t('report.range')}
          rules={[
            { required: true, message: t('report.required') },
            {
              validator: (_, value?: [Dayjs, Dayjs]) => {
                if (!value) return Promise.resolve();
                if (!value[1].isAfter(value[0])) return Promise.reject(new Error(t('report.endAfterStart')));
                if (value[1].diff(value[0], 'day', true) > MAX_EXPORT_DAYS)
                  return Promise.reject(new Error(t('report.tooLong')));
                return Promise.resolve();
              },
            },
          ]}
        >
          <DatePicker.RangePicker
            showTime
            style={{ width: '100%' }}
            disabledDate={(day) => day.isAfter(dayjs().endOf('day'))}
          />
        </Form.Item>
        <Form.Item name="fileType" label={t('report.format')}>
          <Radio.Group
            data-testid="storage-report-format"
            options={[
              { value: 'pdf', label: t('report.pdf') },
              { value: 'csv', label: 'CSV' },
              { value: 'xlsx', label: 'Excel (XLSX)' },
            ]}
          />
        </Form.Item>
        <Form.Item name="unit" label={t('report.unit')}>
          <Radio.Group
            options={[
              { value: 'C', label: '°C' },
              { value: 'F', label: '°F' },
            ]}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The storage detail page's report button. */
export function StorageReportButton({ kind, storage }: { kind: StorageKind; storage: Storage }) {
  const { t } = useTranslation('storage');
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="small" onClick={() => setOpen(true)} data-testid="storage-report-open">
        {t('report.button')}
      </Button>
      {open && <StorageReportDialog kind={kind} storage={storage} onClose={() => setOpen(false)} />}
    </>
  );
}
