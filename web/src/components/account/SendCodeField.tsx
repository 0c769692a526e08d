import { SafetyOutlined } from '@ant-design/icons';
import { App, Button, Form, Input, type FormInstance } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import { sendCode, type CodeChannel, type CodePurpose } from '@/api/account';
import { useCodeCaptcha } from '@/components/login/CodeCaptcha';
import { InputWithAction } from '@/components/login/FormRow';
import { CODE_RESEND_SECONDS } from '@/components/ui/constants';
import { useCountdown } from '@/hooks/useCountdown';
import { cleanPhone, codeRules } from '@/lib/formRules';

interface SendCodeFieldProps {
  form: FormInstance;
  /** The form field holding the phone number or email address the code goes to. */
  targetField: string;
  channel: CodeChannel;
  purpose: CodePurpose;
  /** Form field of the code. */
  name?: string;
}

/**
 * The verification code input with its send button: the button checks the phone or email field,
 * asks the api to send a code and then counts down 60 s before another may be sent.
 */
export function SendCodeField({ form, targetField, channel, purpose, name = 'code' }: SendCodeFieldProps) {
  const { t } = useTranslation('account');
  const { message } = App.useApp();
  const countdown = useCountdown(CODE_RESEND_SECONDS);
  const [sending, setSending] = useState(false);
  const { withCaptcha, dialog } = useCodeCaptcha();

  const send = async () => {
    let target: string;
    try {
      const values = await form.validateFields([targetField]);
      target = String(values[targetField] ?? '').trim();
    } catch {
      return; // the field shows what is wrong
    }
    setSending(true);
    try {
      const address = channel === 'phone' ? cleanPhone(target) : target;
      if (!(await withCaptcha((captcha) => sendCode(channel, address, purpose, captcha)))) return;
      countdown.start();
      void message.success(t(channel === 'phone' ? 'code.sentPhone' : 'code.sentEmail'));
    } catch {
      // shown by the request client
    } finally {
      setSending(false);
    }
  };

  return (
    <InputWithAction>
      <Form.Item name={name} rules={codeRules(t)}>
        <Input
          prefix={<SafetyOutlined />}
          placeholder={t('code.placeholder')}
          autoComplete="one-time-code"
          inputMode="numeric"
          maxLength={6}
        />
      </Form.Item>
      <Button onClick={() => void send()} loading={sending} disabled={countdown.running} data-testid="send-code">
        {countdown.running ? t('code.resend', { seconds: countdown.left }) : t('code.send')}
      </Button>
      {dialog}
    </InputWithAction>
  );
}
