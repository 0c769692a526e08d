import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Form, Input, Result, Spin } from 'antd';
import Link from 'next/link';
import { useRouter } from 'next/router';
import { useTranslation } from 'next-i18next/pages';
import { useEffect, useRef, useState } from 'react';
import styled from 'styled-components';
import { bindSocial, socialFinish, type SocialProvider, type SocialResult } from '@/api/account';
import { ApiError, failureText } from '@/api/errors';
import { LOGIN_PATH } from '@/api/constants';
import { AuthLayout } from '@/components/login/AuthLayout';
import { takeSocialRedirect } from '@/components/login/socialRedirect';
import { useSignedIn } from '@/components/login/useSignedIn';
import { useSiteBranding } from '@/lib/SiteContext';
import { SUBMIT_DEBOUNCE_MS } from '@/components/ui/constants';
import { useDebouncedCallback } from '@/hooks/useDebouncedCallback';
import { showServerErrors } from '@/lib/serverErrors';

const PROVIDERS: readonly SocialProvider[] = ['wechat', 'qq', 'facebook'];

type State =
  | { kind: 'working' }
  | { kind: 'failed'; message: string }
  | { kind: 'binding'; ticket: string; provider: SocialProvider };

interface BindingValues {
  userName: string;
  password: string;
}

const Footer = styled.p`
  margin: 8px 0 0;
  text-align: center;
`;

function queryValue(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/**
 * The social sign-in callback (/user/login-result?provider=&code=&state=): finishes the sign-in
 * with the api; a token signs in, a binding ticket (first time with this identity) asks for an
 * existing account to bind, or offers to register a new one bound to it.
 */
export function LoginResultView() {
  const { t } = useTranslation('account');
  const { t: tc } = useTranslation('common');
  const router = useRouter();
  const branding = useSiteBranding();
  const signedIn = useSignedIn();
  const [result, setResult] = useState<State>({ kind: 'working' });
  const redirect = useRef<string | undefined>(undefined);
  const [form] = Form.useForm<BindingValues>();
  const [submitting, setSubmitting] = useState(false);
  const started = useRef(false);

  const provider = queryValue(router.query.provider) as SocialProvider;
  const code = queryValue(router.query.code);
  const stateValue = queryValue(router.query.state);
  const valid = PROVIDERS.includes(provider) && Boolean(code) && Boolean(stateValue);
  const state: State = router.isReady && !valid ? { kind: 'failed', message: t('social.cancelled') } : result;

  useEffect(() => {
    if (!router.isReady || !valid || started.current) return;
    started.current = true; // a code is good for one try
    redirect.current = takeSocialRedirect();
    socialFinish(provider, code, stateValue).then(
      (answer: SocialResult) => {
        if (answer.token) signedIn(answer.token, redirect.current);
        else if (answer.bindingTicket) setResult({ kind: 'binding', ticket: answer.bindingTicket, provider });
        else setResult({ kind: 'failed', message: t('social.failed') });
      },
      (error: unknown) => {
        const message = error instanceof ApiError ? failureText(error.failure, tc).message : t('social.failed');
        setResult({ kind: 'failed', message });
      },
    );
  }, [router.isReady, valid, provider, code, stateValue, signedIn, t, tc]);

  const bind = useDebouncedCallback(async (values: BindingValues) => {
    if (state.kind !== 'binding') return;
    setSubmitting(true);
    try {
      const { token } = await bindSocial({
        bindingTicket: state.ticket,
        userName: values.userName.trim(),
        password: values.password,
      });
      signedIn(token, redirect.current);
    } catch (error) {
      showServerErrors(form, error);
    } finally {
      setSubmitting(false);
    }
  }, SUBMIT_DEBOUNCE_MS);

  if (state.kind === 'working') {
    return (
      <AuthLayout route="loginResult" heading={t('social.working')}>
        <Result icon={<Spin size="large" />} title={t('social.working')} />
      </AuthLayout>
    );
  }

  if (state.kind === 'failed') {
    return (
      <AuthLayout route="loginResult" heading={t('social.failedTitle')}>
        <Result
          status="warning"
          title={state.message}
          extra={
            <Button type="primary" href={LOGIN_PATH}>
              {t('backToLogin')}
            </Button>
          }
        />
      </AuthLayout>
    );
  }

  const providerName = t(`social.provider.${state.provider}`);
  return (
    <AuthLayout route="loginResult" heading={t('social.bindTitle', { provider: providerName })}>
      <p>{t('social.bindIntro', { provider: providerName })}</p>
      <Form<BindingValues> form={form} size="large" onFinish={bind} autoComplete="on">
        <Form.Item name="userName" rules={[{ required: true, whitespace: true, message: t('rules.account.required') }]}>
          <Input prefix={<UserOutlined />} placeholder={t('fields.account')} autoComplete="username" maxLength={254} />
        </Form.Item>
        <Form.Item name="password" rules={[{ required: true, message: t('rules.password.required') }]}>
          <Input.Password
            prefix={<LockOutlined />}
            placeholder={t('fields.password')}
            autoComplete="current-password"
          />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" block loading={submitting}>
            {t('social.bindSubmit')}
          </Button>
        </Form.Item>
      </Form>
      <Footer>
        {branding?.enableRegister ? null : (
          <Link href={{ pathname: '/user/register', query: { bindingTicket: state.ticket } }}>
            {t('social.registerAndBind')}
          </Link>
        )}
      </Footer>
    </AuthLayout>
  );
}
