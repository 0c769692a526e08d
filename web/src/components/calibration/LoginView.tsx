import { Card, Space, Typography } from 'antd';
import Link from 'next/link';
import { useTranslation } from 'next-i18next/pages';
import styled from 'styled-components';
import { PasswordLoginForm } from '@/components/login/PasswordLoginForm';
import { CenteredPage } from '@/components/ui/CenteredPage';
import { LanguageSwitch } from '@/components/ui/LanguageSwitch';
import { PageHead } from '@/components/ui/PageHead';

const Panel = styled(Card)`
  width: 100%;
  max-width: 420px;
`;

export type LoginKind = 'customer' | 'admin' | 'mobile';

const LANDING: Record<LoginKind, string> = {
  customer: '/calibration/orders',
  admin: '/calibration/admin/orders',
  mobile: '/mobile/calibration/home',
};

/** /calibration/login, /calibration/admin/login and /mobile/calibration/login: the account sign-in, landing in the service. */
export function CalibrationLoginView({ kind }: { kind: LoginKind }) {
  const { t } = useTranslation('calibration');
  return (
    <CenteredPage>
      <PageHead fixed={t('title')} />
      <Panel
        title={kind === 'admin' ? t('login.adminTitle') : t('login.title')}
        extra={<LanguageSwitch compact={kind === 'mobile'} />}
        data-testid={`calibration-login-${kind}`}
      >
        <Typography.Paragraph type="secondary">
          {kind === 'admin' ? t('login.adminHint') : t('login.hint')}
        </Typography.Paragraph>
        <PasswordLoginForm landing={LANDING[kind]} />
        <Space wrap>
          {kind === 'admin' ? null : (
            <Link href={kind === 'mobile' ? '/mobile/calibration/home' : '/calibration/home'}>{t('login.browse')}</Link>
          )}
          {kind === 'admin' ? null : <Link href="/user/register">{t('login.register')}</Link>}
        </Space>
      </Panel>
    </CenteredPage>
  );
}
