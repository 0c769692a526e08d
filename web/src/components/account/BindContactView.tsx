import { App, Button, Form } from 'antd';
import Link from 'next/link';
import { useRouter } from 'next/router';
import { useTranslation } from 'next-i18next/pages';
import { useEffect, useState } from 'react';
import styled from 'styled-components';
import { bindEmail, bindPhone, type CodeChannel } from '@/api/account';
import { getAccessToken, loginRedirectFor } from '@/api/session';
import { AuthLayout } from '@/components/login/AuthLayout';
import { useSiteBranding } from '@/lib/SiteContext';
import { SUBMIT_DEBOUNCE_MS } from '@/components/ui/constants';
import { useDebouncedCallback } from '@/hooks/useDebouncedCallback';
import { modelLanding } from '@/routes/access';
import { safeRedirect } from '@/utils/redirect';
import { ContactFields } from './ContactFields';
import { cleanPhone } from '@/lib/formRules';
import { showServerErrors } from '@/lib/serverErrors';

interface BindValues {
  phone?: string;
  email?: string;
  code: string;
}

const Footer = styled.p`
  margin: 8px 0 0;
  text-align: center;
`;

/** Bind a phone number or an email address to the signed-in account (a code proves it is theirs). */
export function BindContactView({ channel }: { channel: CodeChannel }) {
  const { t } = useTranslation('account');
  const { message } = App.useApp();
  const router = useRouter();
  const branding = useSiteBranding();
  const [form] = Form.useForm<BindValues>();
  const [submitting, setSubmitting] = useState(false);
  const next = safeRedirect(router.query.redirect, modelLanding(branding?.styleModel));

  // A public path, but binding needs a signed-in account: sign in first, then come back.
  useEffect(() => {
    if (router.isReady && !getAccessToken()) void router.replace(loginRedirectFor(router.asPath));
  }, [router]);

  const submit = useDebouncedCallback(async (values: BindValues) => {
    setSubmitting(true);
    try {
      if (channel === 'phone') await bindPhone({ phone: cleanPhone(values.phone ?? ''), code: values.code.trim() });
      else await bindEmail({ email: (values.email ?? '').trim(), code: values.code.trim() });
      void message.success(t(channel === 'phone' ? 'bind.phoneDone' : 'bind.emailDone'));
      void router.replace(next);
    } catch (error) {
      showServerErrors(form, error);
    } finally {
      setSubmitting(false);
    }
  }, SUBMIT_DEBOUNCE_MS);

  return (
    <AuthLayout
      route={channel === 'phone' ? 'bindPhone' : 'bindEmail'}
      heading={t(channel === 'phone' ? 'bind.phoneTitle' : 'bind.emailTitle')}
    >
      <Form<BindValues> form={form} size="large" onFinish={submit} autoComplete="off">
        <ContactFields form={form} channel={channel} purpose="bind" />
        <Form.Item>
          <Button type="primary" htmlType="submit" block loading={submitting}>
            {t('bind.submit')}
          </Button>
        </Form.Item>
      </Form>
      <Footer>
        <Link href={next}>{t('bind.later')}</Link>
      </Footer>
    </AuthLayout>
  );
}
