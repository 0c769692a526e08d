import { App, Button } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useEffect } from 'react';
import type { BaseAccount } from '@/api/account';
import { passwordAgeWarning } from '@/utils/passwordAge';

/** Accounts already warned in this page load (the warning comes once per visit). */
const warned = new Set<number>();

/** Spec 5: from day 75 after the last change, a warning says in how many days the password expires. */
export function usePasswordAgeing(account: BaseAccount | undefined, onChange: () => void): void {
  const { t } = useTranslation('shell');
  const { notification } = App.useApp();
  useEffect(() => {
    if (!account || warned.has(account.id)) return;
    const warning = passwordAgeWarning(account.prevResetAt);
    if (!warning) return;
    warned.add(account.id);
    const key = `password-age-${account.id}`;
    notification.warning({
      key,
      title: t('passwordAge.title'),
      description:
        warning.daysLeft > 0 ? t('passwordAge.expiresIn', { days: warning.daysLeft }) : t('passwordAge.expired'),
      actions: (
        <Button
          type="primary"
          size="small"
          onClick={() => {
            notification.destroy(key);
            onChange();
          }}
        >
          {t('passwordAge.change')}
        </Button>
      ),
    });
  }, [account, notification, onChange, t]);
}
