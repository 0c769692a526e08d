import { BankOutlined, IdcardOutlined, LockOutlined, UserOutlined } from '@ant-design/icons';
import { Alert, Button, Form, Input, Tabs } from 'antd';
import Link from 'next/link';
import { useRouter } from 'next/router';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import styled from 'styled-components';
import { bindSocial, register, type AccountType, type CodeChannel, type RegisterPayload } from '@/api/account';
import { AuthLayout } from '@/components/login/AuthLayout';
import { useSignedIn } from '@/components/login/useSignedIn';
import { SUBMIT_DEBOUNCE_MS } from '@/components/ui/constants';
import { useDebouncedCallback } from '@/hooks/useDebouncedCallback';
import { ContactFields } from './ContactFields';
import {
  cleanPhone,
  companyRules,
  confirmPasswordRules,
  passwordRules,
  realNameRules,
  userNameRules,
} from '@/lib/formRules';
import { showServerErrors } from '@/lib/serverErrors';

interface RegisterValues {
  userName: string;
  phone?: string;
  email?: string;
  code: string;
  password: string;
  confirmPassword: string;
  companyName?: string;
  realName?: string;
}

const Footer = styled.p`
  margin: 8px 0 0;
  text-align: center;
`;

export function registerPayload(
  accountType: AccountType,
  channel: CodeChannel,
  values: RegisterValues,
): RegisterPayload {
  return {
    accountType,
    userName: values.userName.trim(),
    ...(channel === 'phone' ? { phone: cleanPhone(values.phone ?? '') } : { email: (values.email ?? '').trim() }),
    code: values.code.trim(),
    password: values.password,
    confirmPassword: values.confirmPassword,
    ...(accountType === 'enterprise' ? { companyName: values.companyName?.trim() } : {}),
    ...(values.realName?.trim() ? { realName: values.realName.trim() } : {}),
  };
}

/**
 * Register a business (enterprise) or personal account with a phone or email code (spec 2.3).
 * With a `bindingTicket` in the query (a first social sign-in), the new account is bound to it.
 */
export function RegisterView() {
  const { t } = useTranslation('account');
  const router = useRouter();
  const signedIn = useSignedIn();
  const [form] = Form.useForm<RegisterValues>();
  const [accountType, setAccountType] = useState<AccountType>('enterprise');
  const [channel, setChannel] = useState<CodeChannel>('phone');
  const [submitting, setSubmitting] = useState(false);
  const bindingTicket = typeof router.query.bindingTicket === 'string' ? router.query.bindingTicket : '';

  const submit = useDebouncedCallback(async (values: RegisterValues) => {
    setSubmitting(true);
    try {
      const payload = registerPayload(accountType, channel, values);
      const { token } = bindingTicket
        ? await bindSocial({ bindingTicket, register: payload })
        : await register(payload);
      signedIn(token);
    } catch (error) {
      showServerErrors(form, error);
    } finally {
      setSubmitting(false);
    }
  }, SUBMIT_DEBOUNCE_MS);

  return (
    <AuthLayout route="register" heading={t('register.title')} wide>
      {bindingTicket ? <Alert type="info" showIcon title={t('register.binding')} style={{ marginBottom: 16 }} /> : null}
      <Tabs
        centered
        activeKey={accountType}
        onChange={(key) => setAccountType(key as AccountType)}
        items={[
          { key: 'enterprise', label: t('register.enterprise') },
          { key: 'personal', label: t('register.personal') },
        ]}
      />
      <Form<RegisterValues> form={form} size="large" onFinish={submit} autoComplete="off">
        <Form.Item name="userName" rules={userNameRules(t)} extra={t('register.userNameHint')}>
          <Input prefix={<UserOutlined />} placeholder={t('fields.userName')} autoComplete="username" maxLength={50} />
        </Form.Item>
        {accountType === 'enterprise' ? (
          <Form.Item name="companyName" rules={companyRules(t)}>
            <Input
              prefix={<BankOutlined />}
              placeholder={t('fields.companyName')}
              autoComplete="organization"
              maxLength={50}
            />
          </Form.Item>
        ) : null}
        <Form.Item name="realName" rules={realNameRules(t)}>
          <Input prefix={<IdcardOutlined />} placeholder={t('fields.realName')} autoComplete="name" maxLength={20} />
        </Form.Item>
        <ContactFields form={form} channel={channel} onChannelChange={setChannel} purpose="register" />
        <Form.Item name="password" rules={passwordRules(t)} extra={t('register.passwordHint')}>
          <Input.Password
            prefix={<LockOutlined />}
            placeholder={t('fields.password')}
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
          <Button type="primary" htmlType="submit" block loading={submitting} data-testid="register-submit">
            {t('register.submit')}
          </Button>
        </Form.Item>
      </Form>
      <Footer>
        {t('register.haveAccount')} <Link href="/user/login">{t('backToLogin')}</Link>
      </Footer>
    </AuthLayout>
  );
}
