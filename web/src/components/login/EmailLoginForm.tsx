import { MailOutlined, SafetyOutlined } from '@ant-design/icons';
import { App, Button, Form, Input } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import { loginByEmail, sendEmailCode } from '@/api/account';
import { CODE_RESEND_SECONDS, SUBMIT_DEBOUNCE_MS } from '@/components/ui/constants';
import { useCountdown } from '@/hooks/useCountdown';
import { useDebouncedCallback } from '@/hooks/useDebouncedCallback';
import { useCodeCaptcha } from './CodeCaptcha';
import { InputWithAction } from './FormRow';
import { useSignedIn } from './useSignedIn';

interface EmailLoginValues {
  email: string;
  code: string;
}

/** Sign in with an email address and the code sent to it. */
export function EmailLoginForm() {
  const { t } = useTranslation('login');
  const { message } = App.useApp();
  const [form] = Form.useForm<EmailLoginValues>();
  const countdown = useCountdown(CODE_RESEND_SECONDS);
  const signedIn = useSignedIn();
  const [sending, setSending] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const { withCaptcha, dialog } = useCodeCaptcha();

  const sendCode = async () => {
    const { email } = await form.validateFields(['email']).catch(() => ({ email: '' }));
    if (!email) return;
    setSending(true);
    try {
      if (!(await withCaptcha((captcha) => sendEmailCode(email.trim(), captcha)))) return;
      countdown.start();
      void message.success(t('emailCode.sent'));
    } catch {
      // shown by the request client
    } finally {
      setSending(false);
    }
  };

  const submit = useDebouncedCallback(async (values: EmailLoginValues) => {
    setSubmitting(true);
    try {
      const { token } = await loginByEmail({ email: values.email.trim(), code: values.code.trim() });
      signedIn(token);
    } catch {
      // shown by the request client
    } finally {
      setSubmitting(false);
    }
  }, SUBMIT_DEBOUNCE_MS);

  return (
    <Form<EmailLoginValues> form={form} size="large" onFinish={submit}>
      <Form.Item
        name="email"
        rules={[
          { required: true, whitespace: true, message: t('email.required') },
          { type: 'email', message: t('email.invalid') },
        ]}
      >
        <Input prefix={<MailOutlined />} placeholder={t('email.placeholder')} autoComplete="email" maxLength={100} />
      </Form.Item>
      <InputWithAction>
        <Form.Item name="code" rules={[{ required: true, whitespace: true, message: t('emailCode.required') }]}>
          <Input
            prefix={<SafetyOutlined />}
            placeholder={t('emailCode.placeholder')}
            autoComplete="one-time-code"
            maxLength={8}
          />
        </Form.Item>
        <Button onClick={sendCode} loading={sending} disabled={countdown.running}>
          {countdown.running ? t('emailCode.resend', { seconds: countdown.left }) : t('emailCode.send')}
        </Button>
      </InputWithAction>
      {dialog}
      <Form.Item>
        <Button type="primary" htmlType="submit" block loading={submitting}>
          {t('submit')}
        </Button>
      </Form.Item>
    </Form>
  );
}
