import { Form, Input, Modal, Select, Switch } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import { addDevice, updateDevice, type Device, type DeviceForm } from '@/api/device';
import { ApiError } from '@/api/errors';
import { showServerErrors } from '@/lib/serverErrors';
import { SymbolFreeInput } from '@/components/ui/SymbolFreeInput';
import { useTimeZones } from '@/hooks/useTimeZones';
import { DEVICE_GUID_MAX, DEVICE_NAME_MAX, DEVICE_REMARK_MAX, GUID_PATTERN } from './helpers';
import { useFormSubmit } from '@/hooks/useFormSubmit';

interface DeviceFormModalProps {
  /** null: add; a device: edit it. */
  device: Device | null;
  open: boolean;
  onClose: () => void;
  onSaved: () => void;
}

/** Add a device by GUID, or edit its name (emoji and symbols cleared), time zone, remark and quick-search flag (business spec 3, 5). */
export function DeviceFormModal({ device, open, onClose, onSaved }: DeviceFormModalProps) {
  const { t } = useTranslation('device');
  const [form] = Form.useForm<DeviceForm>();
  const [saving, setSaving] = useState(false);
  const browserZone = typeof Intl !== 'undefined' ? Intl.DateTimeFormat().resolvedOptions().timeZone : 'UTC';
  const { options: zones } = useTimeZones(device?.timeZone ?? browserZone);

  const submit = async (values: DeviceForm) => {
    setSaving(true);
    try {
      const options = { handleErrors: false };
      const remark = values.remark?.trim() || undefined;
      // The quick-search flag is sent only when it changed: only the owner may change it.
      const quickSearch =
        device && values.quickSearch !== device.quickSearch ? { quickSearch: values.quickSearch } : {};
      if (device)
        await updateDevice(
          device.id,
          { deviceName: values.deviceName.trim(), timeZone: values.timeZone, remark, ...quickSearch },
          options,
        );
      else
        await addDevice(
          { ...values, deviceGuid: values.deviceGuid.trim(), deviceName: values.deviceName.trim(), remark },
          options,
        );
      onSaved();
    } catch (error) {
      if (!showServerErrors(form, error) && error instanceof ApiError) {
        // e.g. 'The device cannot be found, please confirm and re-enter' (already in the user's language).
        form.setFields([{ name: device ? 'deviceName' : 'deviceGuid', errors: [error.message] }]);
      }
    } finally {
      setSaving(false);
    }
  };

  // Spec 9: every form and modal submits once per 500 ms.
  const { submit: submitOnce } = useFormSubmit(null, submit);
  return (
    <Modal
      open={open}
      title={t(device ? 'form.editTitle' : 'form.addTitle')}
      okText={t('action.save')}
      cancelText={t('action.cancel')}
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      forceRender
    >
      <Form<DeviceForm>
        form={form}
        layout="vertical"
        preserve={false}
        data-testid="device-form"
        initialValues={
          device
            ? {
                deviceGuid: device.deviceGuid,
                deviceName: device.deviceName,
                timeZone: device.timeZone,
                remark: device.remark ?? '',
                quickSearch: device.quickSearch,
              }
            : { deviceGuid: '', deviceName: '', timeZone: browserZone, remark: '' }
        }
        onFinish={submitOnce}
      >
        <Form.Item
          name="deviceGuid"
          label={t('form.guid')}
          rules={[
            { required: true, whitespace: true, message: t('form.guidRequired') },
            { pattern: GUID_PATTERN, message: t('form.guidDigits') },
            { max: DEVICE_GUID_MAX, message: t('form.guidMax', { max: DEVICE_GUID_MAX }) },
          ]}
        >
          <Input
            disabled={Boolean(device)}
            inputMode="numeric"
            placeholder={t('form.guidPlaceholder')}
            autoComplete="off"
          />
        </Form.Item>
        <Form.Item
          name="deviceName"
          label={t('form.name')}
          rules={[
            { required: true, whitespace: true, message: t('form.nameRequired') },
            { max: DEVICE_NAME_MAX, message: t('form.nameMax', { max: DEVICE_NAME_MAX }) },
          ]}
        >
          <SymbolFreeInput />
        </Form.Item>
        <Form.Item
          name="timeZone"
          label={t('form.timeZone')}
          rules={[{ required: true, message: t('form.timeZoneRequired') }]}
        >
          <Select showSearch optionFilterProp="label" options={zones} />
        </Form.Item>
        <Form.Item
          name="remark"
          label={t('form.remark')}
          rules={[{ max: DEVICE_REMARK_MAX, message: t('form.remarkMax', { max: DEVICE_REMARK_MAX }) }]}
        >
          <Input.TextArea rows={3} />
        </Form.Item>
        {device && !device.shareFlag ? (
          <Form.Item
            name="quickSearch"
            label={t('form.quickSearch')}
            valuePropName="checked"
            extra={t('form.quickSearchHint')}
          >
            <Switch data-testid="quick-search-switch" />
          </Form.Item>
        ) : null}
      </Form>
    </Modal>
  );
}
