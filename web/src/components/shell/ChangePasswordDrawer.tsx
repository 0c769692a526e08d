import { App } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useMemo } from 'react';
import { updatePassword } from '@/api/account';
import { passwordRules } from '@/lib/formRules';
import { useSession } from '@/lib/SessionContext';
import { DrawerForm, type DrawerField } from '@/components/ui/DrawerForm';

interface ChangePasswordValues extends Record<string, unknown> {
  oldPassword: string;
  password: string;
  confirmPassword: string;
}

/**
 * Change the password (updatePassword) in the generic drawer form. The api ends every session of
 * the account, this one included, so the user signs in again with the new password.
 */
export function ChangePasswordDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('shell');
  const { t: ta } = useTranslation('account');
  const { message } = App.useApp();
  const { logout } = useSession();
  const fields = useMemo<DrawerField[]>(
    () => [
      {
        type: 'password',
        name: 'oldPassword',
        label: t('password.old'),
        rules: [{ required: true, message: ta('rules.password.required') }],
      },
      {
        type: 'password',
        name: 'password',
        label: t('password.new'),
        extra: ta('register.passwordHint'),
        rules: [
          ...passwordRules(ta),
          ({ getFieldValue }) => ({
            validator: async (_, value?: string) => {
              if (value && value === getFieldValue('oldPassword')) throw new Error(ta('rules.password.same'));
            },
          }),
        ],
      },
      { type: 'confirmPassword', name: 'confirmPassword', label: t('password.confirm'), passwordField: 'password' },
    ],
    [t, ta],
  );
  return (
    <DrawerForm<ChangePasswordValues>
      open={open}
      title={t('password.title')}
      fields={fields}
      onClose={onClose}
      onSubmit={async (values) => {
        await updatePassword({
          oldPassword: values.oldPassword,
          password: values.password,
          confirmPassword: values.confirmPassword,
        });
        void message.success(t('password.done'));
        void logout();
      }}
    />
  );
}
