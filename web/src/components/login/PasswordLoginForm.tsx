import { LockOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Form, Input } from 'antd';
import { useRouter } from 'next/router';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import { login } from '@/api/account';
import { SUBMIT_DEBOUNCE_MS } from '@/components/ui/constants';
import { useCaptcha } from '@/hooks/useCaptcha';
import { useDebouncedCallback } from '@/hooks/useDebouncedCallback';
import { CaptchaImage } from './CaptchaImage';
import { InputWithAction } from './FormRow';
import { useSignedIn } from './useSignedIn';

interface PasswordLoginValues {
  userName: string;
  password: string;
  verifyCode: string;
}

/**
 * Sign in with user name, phone or email, password and the image captcha. `landing`: where to go
 * without a redirect query (the calibration service's sign-in pages land in their own area).
 */
export function PasswordLoginForm({ landing }: { landing?: string } = {}) {
  const { t } = useTranslation('login');
  const router = useRouter();
  const { captcha, failed, required, refresh } = useCaptcha();
  const signedIn = useSignedIn();
  const [submitting, setSubmitting] = useState(false);

  const submit = useDebouncedCallback(async (values: PasswordLoginValues) => {
    setSubmitting(true);
    try {
      const { token } = await login({
        ...values,
        userName: values.userName.trim(),
        verifyKey: captcha?.verifyKey ?? '',
      });
      signedIn(token, router.query.redirect ?? landing);
    } catch {
      refresh(); // a captcha is good for one try; the client already showed the error
    } finally {
      setSubmitting(false);
    }
  }, SUBMIT_DEBOUNCE_MS);

  return (
    <Form<PasswordLoginValues>
      size="large"
      onFinish={submit}
      autoComplete="on"
      data-captcha={required === undefined ? 'loading' : required ? 'required' : 'off'}
    >
      <Form.Item name="userName" rules={[{ required: true, whitespace: true, message: t('userName.required') }]}>
        <Input
          prefix={<UserOutlined />}
          placeholder={t('userName.placeholder')}
          autoComplete="username"
          maxLength={100}
        />
      </Form.Item>
      <Form.Item name="password" rules={[{ required: true, message: t('password.required') }]}>
        <Input.Password
          prefix={<LockOutlined />}
          placeholder={t('password.placeholder')}
          autoComplete="current-password"
        />
      </Form.Item>
      {required === false ? null : (
        <InputWithAction>
          <Form.Item name="verifyCode" rules={[{ required: true, whitespace: true, message: t('captcha.required') }]}>
            <Input
              prefix={<SafetyOutlined />}
              placeholder={t('captcha.placeholder')}
              autoComplete="off"
              maxLength={8}
            />
          </Form.Item>
          <CaptchaImage captcha={captcha} failed={failed} onRefresh={refresh} />
        </InputWithAction>
      )}
      <Form.Item>
        <Button type="primary" htmlType="submit" block loading={submitting} data-testid="login-submit">
          {t('submit')}
        </Button>
      </Form.Item>
    </Form>
  );
}
