import { App, Form, Input, Modal, Radio } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useState, type ReactNode } from 'react';
import type { Device } from '@/api/device';
import { offerTransfer } from '@/api/organization';
import { showServerErrors } from '@/lib/serverErrors';
import { ShareModal } from './ShareModal';
import { useFormSubmit } from '@/hooks/useFormSubmit';

export type ShareAction = 'share' | 'transfer';
export const SHARE_ACTIONS: readonly ShareAction[] = ['share', 'transfer'];
export const isShareAction = (action: string): action is ShareAction =>
  (SHARE_ACTIONS as readonly string[]).includes(action);

function TransferModal({ device, onClose }: { device: Device | null; onClose: () => void }) {
  const { t } = useTranslation('organization');
  const { message } = App.useApp();
  const [form] = Form.useForm<{ kind: 'userName' | 'phone' | 'email'; recipient: string }>();
  const submit = async (values: { kind: 'userName' | 'phone' | 'email'; recipient: string }) => {
    if (!device) return;
    try {
      await offerTransfer({ deviceId: device.id, [values.kind]: values.recipient.trim() });
      void message.success(t('transfer.offered'));
      onClose();
    } catch (error) {
      showServerErrors(form, error, { userName: 'recipient', phone: 'recipient', email: 'recipient' });
    }
  };
  // Spec 9: every form and modal submits once per 500 ms.
  const { submit: submitOnce } = useFormSubmit(null, submit);
  return (
    <Modal
      open={Boolean(device)}
      title={t('transfer.offer', { name: device?.deviceName ?? '' })}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('ok')}
      cancelText={t('cancel')}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={submitOnce} initialValues={{ kind: 'userName' }}>
        <Form.Item name="kind" label={t('share.recipientKind')}>
          <Radio.Group
            options={[
              { value: 'userName', label: t('share.byUserName') },
              { value: 'phone', label: t('member.phone') },
              { value: 'email', label: t('member.email') },
            ]}
          />
        </Form.Item>
        <Form.Item
          name="recipient"
          label={t('transfer.to')}
          rules={[{ required: true, message: t('required') }]}
          extra={t('transfer.consent')}
        >
          <Input />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Share and transfer dialogs for the device list and detail: `open(action, device)` and the modals. */
export function useShareDialogs(): { open: (action: ShareAction, device: Device) => void; modals: ReactNode } {
  const [sharing, setSharing] = useState<Device | null>(null);
  const [transferring, setTransferring] = useState<Device | null>(null);
  return {
    open: (action, device) => (action === 'share' ? setSharing(device) : setTransferring(device)),
    modals: (
      <>
        <ShareModal
          key={sharing?.id ?? 'none'}
          deviceIds={sharing ? [sharing.id] : []}
          open={Boolean(sharing)}
          onClose={() => setSharing(null)}
        />
        <TransferModal device={transferring} onClose={() => setTransferring(null)} />
      </>
    ),
  };
}
