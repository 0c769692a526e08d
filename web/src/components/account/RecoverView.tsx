import { LockOutlined } from '@ant-design/icons';
import { App, Button, Form, Input } from 'antd';
import Link from 'next/link';
import { useRouter } from 'next/router';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import styled from 'styled-components';
import { forgotPassword, type CodeChannel } from '@/api/account';
import { LOGIN_PATH } from '@/api/constants';
import { AuthLayout } from '@/components/login/AuthLayout';
import { SUBMIT_DEBOUNCE_MS } from '@/components/ui/constants';
import { useDebouncedCallback } from '@/hooks/useDebouncedCallback';
import { ContactFields } from './ContactFields';
import { cleanPhone, confirmPasswordRules, passwordRules } from '@/lib/formRules';
import { showServerErrors } from '@/lib/serverErrors';

interface RecoverValues {
  phone?: string;
  email?: string;
  code: string;
  password: string;
  confirmPassword: string;
}

const Footer = styled.p`
  margin: 8px 0 0;
  text-align: center;
`;

/** Forgot password: a code to the account's phone or email, then a new password twice. */
export function RecoverView() {
  const { t } = useTranslation('account');
  const { message } = App.useApp();
  const router = useRouter();
  const [form] = Form.useForm<RecoverValues>();
  const [channel, setChannel] = useState<CodeChannel>('phone');
  const [submitting, setSubmitting] = useState(false);

  const submit = useDebouncedCallback(async (values: RecoverValues) => {
    setSubmitting(true);
    try {
      await forgotPassword({
        ...(channel === 'phone' ? { phone: cleanPhone(values.phone ?? '') } : { email: (values.email ?? '').trim() }),
        code: values.code.trim(),
        password: values.password,
        confirmPassword: values.confirmPassword,
      });
      void message.success(t('recover.done'));
      void router.replace(LOGIN_PATH);
    } catch (error) {
      showServerErrors(form, error);
    } finally {
      setSubmitting(false);
    }
  }, SUBMIT_DEBOUNCE_MS);

  return (
    <AuthLayout route="recover" heading={t('recover.title')}>
      <Form<RecoverValues> form={form} size="large" onFinish={submit} autoComplete="off">
        <ContactFields form={form} channel={channel} onChannelChange={setChannel} purpose="forgot" />
        <Form.Item name="password" rules={passwordRules(t)} extra={t('register.passwordHint')}>
          <Input.Password
            prefix={<LockOutlined />}
            placeholder={t('fields.newPassword')}
            autoComplete="new-password"
            maxLength={20}
          />
        </Form.Item>
        <Form.Item name="confirmPassword" dependencies={['password']} rules={confirmPasswordRules(t)}>
          <Input.Password
            prefix={<LockOutlined />}
            placeholder={t('fields.confirmPassword')}
            autoComplete="new-password"
            maxLength={20}
          />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" block loading={submitting}>
            {t('recover.submit')}
          </Button>
        </Form.Item>
      </Form>
      <Footer>
        <Link href={LOGIN_PATH}>{t('backToLogin')}</Link>
      </Footer>
    </AuthLayout>
  );
}
