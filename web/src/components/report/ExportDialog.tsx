import { App, Button, Checkbox, DatePicker, Form, Modal, Radio, Segmented, type ButtonProps } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import Link from 'next/link';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import type { DeviceDetail, TemperatureUnit } from '@/api/device';
import { requestExport, type FileType } from '@/api/report';
import { isoWithOffset } from '@/lib/format';
import { useSession } from '@/lib/SessionContext';
import { MAX_EXPORT_DAYS, QUICK_RANGES, quickRange } from './helpers';
import { useFormSubmit } from '@/hooks/useFormSubmit';

interface ExportValues {
  range: [Dayjs, Dayjs];
  sensors: number[];
  fileType: FileType;
  unit: TemperatureUnit;
}

/** Export of a device's data (range, sensors, format, unit) as a job; the file appears in the download centre. */
export function ExportDialog({ device, onClose }: { device: DeviceDetail; onClose: () => void }) {
  const { t } = useTranslation('report');
  const { message } = App.useApp();
  const session = useSession();
  const [form] = Form.useForm<ExportValues>();
  const sensors = device.params.filter((param) => param.paramType === 'sensor' && param.probeId !== null);
  const accountUnit: TemperatureUnit = session.info?.baseAccount.temperatureUnit === 'F' ? 'F' : 'C';

  const submit = async (values: ExportValues) => {
    await requestExport({
      deviceIds: [device.id],
      sensors: values.sensors,
      startTime: isoWithOffset(values.range[0].toDate()),
      endTime: isoWithOffset(values.range[1].toDate()),
      fileType: values.fileType,
      unit: values.unit,
    });
    message.success(
      <span data-testid="export-queued">
        {t('export.queued')} <Link href="/consumer/download">{t('export.openCenter')}</Link>
      </span>,
    );
    onClose();
  };

  // Spec 9: every form and modal submits once per 500 ms.
  const { submit: submitOnce, submitting } = useFormSubmit(null, submit);
  return (
    <Modal
      open
      title={t('export.title')}
      okText={t('export.submit')}
      cancelText={t('action.cancel')}
      confirmLoading={submitting}
      onOk={() => form.submit()}
      onCancel={onClose}
      okButtonProps={{ 'data-testid': 'export-submit' } as ButtonProps}
      width={560}
    >
      <Form<ExportValues>
        form={form}
        layout="vertical"
        onFinish={submitOnce}
        data-testid="export-form"
        initialValues={{
          range: quickRange('day'),
          sensors: sensors.map((param) => param.probeId as number),
          fileType: 'csv',
          unit: accountUnit,
        }}
      >
        <Form.Item label={t('export.quick')}>
          <Segmented
            options={QUICK_RANGES.map((key) => ({ value: key, label: t(`export.ranges.${key}`) }))}
            onChange={(key) => form.setFieldValue('range', quickRange(key as (typeof QUICK_RANGES)[number]))}
          />
        </Form.Item>
        <Form.Item
          name="range"
          label={t('export.range')}
          rules={[
            { required: true, message: t('form.required') },
            {
              validator: (_, value?: [Dayjs, Dayjs]) => {
                if (!value) return Promise.resolve();
                if (!value[1].isAfter(value[0])) return Promise.reject(new Error(t('export.endAfterStart')));
                if (value[1].diff(value[0], 'day', true) > MAX_EXPORT_DAYS)
                  return Promise.reject(new Error(t('export.tooLong')));
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
        <Form.Item
          name="sensors"
          label={t('export.sensors')}
          rules={[{ required: true, type: 'array', min: 1, message: t('export.pickSensor') }]}
        >
          <Checkbox.Group
            options={sensors.map((param) => ({
              value: param.probeId as number,
              label: `${param.paramName}${param.unit ? ` (${param.unit})` : ''}`,
            }))}
          />
        </Form.Item>
        <Form.Item name="fileType" label={t('export.format')}>
          <Radio.Group
            data-testid="export-format"
            options={[
              { value: 'csv', label: 'CSV' },
              { value: 'xlsx', label: 'Excel (XLSX)' },
              { value: 'pdf', label: t('export.pdf') },
            ]}
          />
        </Form.Item>
        <Form.Item name="unit" label={t('export.unit')}>
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

/** The button on the device detail page that opens the export dialog. */
export function ExportButton({ device }: { device: DeviceDetail }) {
  const { t } = useTranslation('report');
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)} data-testid="export-open">
        {t('export.button')}
      </Button>
      {open && <ExportDialog device={device} onClose={() => setOpen(false)} />}
    </>
  );
}
