import { SafetyOutlined } from '@ant-design/icons';
import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useCallback, useRef, useState, type ReactNode } from 'react';
import type { CodeCaptcha } from '@/api/account';
import { useCaptcha } from '@/hooks/useCaptcha';
import { CaptchaImage } from './CaptchaImage';
import { sendAskingCaptcha } from './sendAskingCaptcha';
import { InputWithAction } from './FormRow';

interface CaptchaDialogProps {
  onDone: (answer: CodeCaptcha | null) => void;
}

/** The image captcha asked for once an address received many codes lately (answer code 1014). */
function CaptchaDialog({ onDone }: CaptchaDialogProps) {
  const { t } = useTranslation('login');
  const { captcha, failed, refresh } = useCaptcha();
  const [form] = Form.useForm<{ verifyCode: string }>();
  const submit = async () => {
    const { verifyCode } = await form.validateFields();
    onDone({ verifyKey: captcha?.verifyKey ?? '', verifyCode: verifyCode.trim() });
  };
  return (
    <Modal
      open
      title={t('codeCaptcha.title')}
      okText={t('codeCaptcha.ok')}
      onOk={() => void submit()}
      onCancel={() => onDone(null)}
    >
      <p>{t('codeCaptcha.why')}</p>
      <Form form={form} size="large" onFinish={() => void submit()}>
        <InputWithAction>
          <Form.Item name="verifyCode" rules={[{ required: true, whitespace: true, message: t('captcha.required') }]}>
            <Input
              prefix={<SafetyOutlined />}
              placeholder={t('captcha.placeholder')}
              maxLength={10}
              autoComplete="off"
              data-testid="code-captcha-input"
            />
          </Form.Item>
          <CaptchaImage captcha={captcha} failed={failed} onRefresh={refresh} />
        </InputWithAction>
      </Form>
    </Modal>
  );
}

/**
 * Sends a verification code; when the api asks for the image captcha first (the address is hot),
 * shows it and sends again with the answer. `dialog` must be rendered by the caller.
 */
export function useCodeCaptcha() {
  const [asking, setAsking] = useState(false);
  const pending = useRef<((answer: CodeCaptcha | null) => void) | null>(null);

  const withCaptcha = useCallback(
    <T,>(send: (captcha?: CodeCaptcha) => Promise<T>): Promise<T | null> =>
      sendAskingCaptcha(send, async () => {
        const answer = await new Promise<CodeCaptcha | null>((resolve) => {
          pending.current = resolve;
          setAsking(true);
        });
        setAsking(false);
        return answer;
      }),
    [],
  );

  const dialog: ReactNode = asking ? <CaptchaDialog onDone={(answer) => pending.current?.(answer)} /> : null;
  return { withCaptcha, dialog };
}
