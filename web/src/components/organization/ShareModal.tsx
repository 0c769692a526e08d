import { App, DatePicker, Form, Input, Modal, Radio, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import { useTemplates } from '@/hooks/resources';
import { shareDevices, type ShareExpiry } from '@/api/organization';
import { showServerErrors } from '@/lib/serverErrors';
import { SymbolFreeInput } from '@/components/ui/SymbolFreeInput';

interface ShareValues {
  recipientKind: 'userName' | 'phone' | 'email';
  recipient: string;
  sharerName: string;
  templateId: number;
  expire: ShareExpiry;
  expireTime?: Dayjs;
}

export const EXPIRIES: ShareExpiry[] = ['8h', '1d', '3d', '7d', 'custom'];

/** Share devices with an account, a phone or an email, with a permission template and an expiry. */
export function ShareModal({ deviceIds, open, onClose }: { deviceIds: number[]; open: boolean; onClose: () => void }) {
  const { t } = useTranslation('organization');
  const { message } = App.useApp();
  const [form] = Form.useForm<ShareValues>();
  const [saving, setSaving] = useState(false);
  const { data: templates } = useTemplates(open);
  const expire = Form.useWatch('expire', form);
  const submit = async (values: ShareValues) => {
    setSaving(true);
    try {
      await shareDevices({
        deviceIds,
        [values.recipientKind]: values.recipient.trim(),
        sharerName: values.sharerName,
        templateId: values.templateId,
        expire: values.expire,
        expireTime: values.expire === 'custom' ? values.expireTime?.toISOString() : undefined,
      });
      void message.success(t('share.done'));
      form.resetFields();
      onClose();
    } catch (error) {
      showServerErrors(form, error, { userName: 'recipient', phone: 'recipient', email: 'recipient' });
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open={open}
      title={t('share.title')}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={saving}
      okText={t('share.submit')}
      cancelText={t('cancel')}
      destroyOnHidden
    >
      <Form<ShareValues>
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={{ recipientKind: 'userName', expire: '8h' }}
        data-testid="share-form"
      >
        <Form.Item name="recipientKind" label={t('share.recipientKind')}>
          <Radio.Group
            options={[
              { value: 'userName', label: t('share.byUserName') },
              { value: 'phone', label: t('member.phone') },
              { value: 'email', label: t('member.email') },
            ]}
          />
        </Form.Item>
        <Form.Item name="recipient" label={t('share.recipient')} rules={[{ required: true, message: t('required') }]}>
          <Input data-testid="share-recipient" />
        </Form.Item>
        <Form.Item
          name="sharerName"
          label={t('share.sharerName')}
          rules={[{ required: true, min: 2, max: 20, message: t('length', { min: 2, max: 20 }) }]}
        >
          <SymbolFreeInput maxLength={20} data-testid="share-name" />
        </Form.Item>
        <Form.Item
          name="templateId"
          label={t('share.template')}
          rules={[{ required: true, message: t('share.templateRequired') }]}
          extra={templates && !templates.length ? t('share.noTemplate') : undefined}
        >
          <Select
            options={(templates ?? []).map((tpl) => ({ value: tpl.id, label: tpl.name }))}
            data-testid="share-template"
          />
        </Form.Item>
        <Form.Item name="expire" label={t('share.expire')}>
          <Radio.Group
            optionType="button"
            options={EXPIRIES.map((value) => ({ value, label: t(`share.expiry.${value}`) }))}
            data-testid="share-expire"
          />
        </Form.Item>
        {expire === 'custom' ? (
          <Form.Item
            name="expireTime"
            label={t('share.expireTime')}
            rules={[{ required: true, message: t('required') }]}
          >
            <DatePicker showTime style={{ width: '100%' }} />
          </Form.Item>
        ) : null}
      </Form>
    </Modal>
  );
}
