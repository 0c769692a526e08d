import { Tabs } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { EmailLoginForm } from './EmailLoginForm';
import { PasswordLoginForm } from './PasswordLoginForm';
import { QuickQueryForm } from './QuickQueryForm';

/** Sign In, Email Sign In and Quick Query (spec section 2.3). */
export function LoginTabs() {
  const { t } = useTranslation('login');
  return (
    <Tabs
      centered
      defaultActiveKey="password"
      items={[
        { key: 'password', label: t('tabs.password'), children: <PasswordLoginForm /> },
        { key: 'email', label: t('tabs.email'), children: <EmailLoginForm /> },
        { key: 'quick', label: t('tabs.quick'), children: <QuickQueryForm /> },
      ]}
    />
  );
}
