import { Alert, Form, Input, Modal } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useEffect, useRef, useState } from 'react';
import { setClientHandlers, type Evidence, type EvidenceNeed } from '@/api/client';

/** The reason a change states in the audit trail (api/audit/recorder.MAX_REASON). */
export const MAX_REASON_LENGTH = 200;

interface Pending {
  need: EvidenceNeed;
  message: string;
  resolve: (evidence: Evidence | null) => void;
}

/**
 * FDA mode's prompt (21 CFR 11.10(e), 11.200(a)): a change to a GxP record asks for its reason, and a
 * signed action for the user name and password again, before the request client sends it once more.
 */
export function EvidencePrompt() {
  const { t } = useTranslation('common');
  const [form] = Form.useForm<Evidence>();
  const [pending, setPending] = useState<Pending | null>(null);
  const pendingRef = useRef<Pending | null>(null);

  useEffect(() => {
    setClientHandlers({
      askEvidence: (need, message) =>
        new Promise<Evidence | null>((resolve) => {
          pendingRef.current?.resolve(null); // one prompt at a time: an older one is cancelled
          const next = { need, message, resolve };
          pendingRef.current = next;
          setPending(next);
        }),
    });
    return () => setClientHandlers({ askEvidence: null });
  }, []);

  const settle = (evidence: Evidence | null) => {
    pendingRef.current?.resolve(evidence);
    pendingRef.current = null;
    setPending(null);
    form.resetFields();
  };

  const signature = pending?.need === 'signature';
  return (
    <Modal
      open={pending !== null}
      title={t(signature ? 'evidence.signatureTitle' : 'evidence.reasonTitle')}
      okText={t(signature ? 'evidence.sign' : 'evidence.confirm')}
      cancelText={t('evidence.cancel')}
      onOk={() => form.validateFields().then(settle, () => undefined)}
      onCancel={() => settle(null)}
      destroyOnHidden
      data-testid="evidence-prompt"
    >
      {pending?.message ? <Alert type="info" showIcon title={pending.message} style={{ marginBottom: 16 }} /> : null}
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item
          name="reason"
          label={t(signature ? 'evidence.meaning' : 'evidence.reason')}
          rules={[
            { required: true, whitespace: true, message: t('evidence.reasonRequired') },
            { max: MAX_REASON_LENGTH, message: t('evidence.reasonTooLong', { max: MAX_REASON_LENGTH }) },
          ]}
        >
          <Input.TextArea rows={3} maxLength={MAX_REASON_LENGTH} showCount data-testid="evidence-reason" />
        </Form.Item>
        {signature ? (
          <>
            <Form.Item
              name="userName"
              label={t('evidence.userName')}
              rules={[{ required: true, whitespace: true, message: t('evidence.userNameRequired') }]}
            >
              <Input autoComplete="username" data-testid="evidence-user" />
            </Form.Item>
            <Form.Item
              name="password"
              label={t('evidence.password')}
              rules={[{ required: true, message: t('evidence.passwordRequired') }]}
            >
              <Input.Password autoComplete="current-password" data-testid="evidence-password" />
            </Form.Item>
            <Alert type="warning" title={t('evidence.binding')} />
          </>
        ) : null}
      </Form>
    </Modal>
  );
}
