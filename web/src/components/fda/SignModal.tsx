import { Alert, Form, Input, Modal, Select } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import type { ReactNode } from 'react';
import type { Credentials } from '@/api/fda';
import { useFormSubmit } from '@/hooks/useFormSubmit';

export interface SignValues extends Credentials {
  reason?: string;
  endorsementId?: number;
}

/**
 * The electronic-signature prompt (21 CFR 11.200(a)): user name AND password again, for every
 * signing; optionally the meaning (endorsement) and a reason. A refusal (wrong password, lock) is
 * shown on the password field in the reader's language, as the api says it.
 */
export function SignModal({
  open,
  title,
  summary,
  userName,
  endorsements,
  reasonRequired = false,
  askReason = false,
  onSign,
  onClose,
}: {
  open: boolean;
  title: ReactNode;
  summary?: ReactNode;
  userName: string;
  endorsements?: { value: number; label: string }[];
  reasonRequired?: boolean;
  askReason?: boolean;
  onSign: (values: SignValues) => Promise<unknown>;
  onClose: () => void;
}) {
  const { t } = useTranslation('fda');
  const [form] = Form.useForm<SignValues>();
  const { submit, submitting } = useFormSubmit<SignValues>(form, onSign, {
    fallbackField: 'checkPassword',
    onDone: () => {
      form.resetFields();
      onClose();
    },
  });
  return (
    <Modal
      open={open}
      title={title}
      okText={t('sign.submit')}
      confirmLoading={submitting}
      onOk={() => form.submit()}
      onCancel={() => {
        form.resetFields();
        onClose();
      }}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'sign-submit' } as never}
    >
      <div data-testid="sign-modal">
        {summary}
        <Alert type="info" showIcon style={{ marginBottom: 12 }} message={t('sign.notice')} />
        <Form
          form={form}
          layout="vertical"
          onFinish={submit}
          initialValues={{ checkUserName: userName }}
          preserve={false}
        >
          {endorsements && (
            <Form.Item
              name="endorsementId"
              label={t('sign.meaning')}
              rules={[{ required: true, message: t('sign.meaningRequired') }]}
            >
              <Select options={endorsements} data-testid="sign-meaning" placeholder={t('sign.meaningRequired')} />
            </Form.Item>
          )}
          {(askReason || reasonRequired) && (
            <Form.Item
              name="reason"
              label={t('sign.reason')}
              rules={[{ required: reasonRequired, message: t('sign.reasonRequired') }, { max: 200 }]}
            >
              <Input.TextArea maxLength={200} rows={2} data-testid="sign-reason" />
            </Form.Item>
          )}
          <Form.Item
            name="checkUserName"
            label={t('sign.userName')}
            rules={[{ required: true, message: t('sign.userNameRequired') }]}
          >
            <Input autoComplete="off" maxLength={50} data-testid="sign-username" />
          </Form.Item>
          <Form.Item
            name="checkPassword"
            label={t('sign.password')}
            rules={[{ required: true, message: t('sign.passwordRequired') }]}
          >
            <Input.Password autoComplete="current-password" maxLength={128} data-testid="sign-password" />
          </Form.Item>
        </Form>
      </div>
    </Modal>
  );
}
