import {
  DownOutlined,
  LockOutlined,
  LogoutOutlined,
  MailOutlined,
  MobileOutlined,
  UserDeleteOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { App, Avatar, Button, Dropdown } from 'antd';
import { useRouter } from 'next/router';
import { useTranslation } from 'next-i18next/pages';
import styled from 'styled-components';
import { cancelAccount } from '@/api/account';
import { useSession } from '@/lib/SessionContext';

const Name = styled.span`
  max-width: 160px;
  overflow: hidden;
  text-overflow: ellipsis;
  white-space: nowrap;
`;

/** The account menu of the header: name, change password, bind phone / email, logout, cancel account. */
export function UserMenu({ compact, onChangePassword }: { compact: boolean; onChangePassword: () => void }) {
  const { t } = useTranslation('shell');
  const { modal } = App.useApp();
  const router = useRouter();
  const { info, logout } = useSession();
  const account = info?.baseAccount;
  if (!account) return null;

  const confirmCancel = () =>
    modal.confirm({
      title: t('user.cancelTitle'),
      content: t('user.cancelContent'),
      okText: t('user.cancelOk'),
      okButtonProps: { danger: true },
      cancelText: t('user.cancelKeep'),
      onOk: async () => {
        await cancelAccount();
        await logout();
      },
    });

  const here = encodeURIComponent(router.asPath);
  return (
    <Dropdown
      trigger={['click']}
      placement="bottomRight"
      menu={{
        items: [
          ...(compact
            ? [
                { key: 'account', icon: <UserOutlined />, label: account.userName, disabled: true },
                { type: 'divider' as const },
              ]
            : []),
          { key: 'password', icon: <LockOutlined />, label: t('user.changePassword') },
          { key: 'phone', icon: <MobileOutlined />, label: t(account.phone ? 'user.changePhone' : 'user.bindPhone') },
          { key: 'email', icon: <MailOutlined />, label: t(account.email ? 'user.changeEmail' : 'user.bindEmail') },
          { type: 'divider' },
          { key: 'logout', icon: <LogoutOutlined />, label: t('user.logout') },
          { key: 'cancel', icon: <UserDeleteOutlined />, label: t('user.cancel'), danger: true },
        ],
        onClick: ({ key }) => {
          if (key === 'password') onChangePassword();
          if (key === 'phone') void router.push(`/user/bind-phone?redirect=${here}`);
          if (key === 'email') void router.push(`/user/bind-email?redirect=${here}`);
          if (key === 'logout') void logout();
          if (key === 'cancel') confirmCancel();
        },
      }}
    >
      <Button type="text" data-testid="user-menu" aria-label={t('user.menu')}>
        <Avatar size="small" src={account.accountPhoto || undefined} icon={<UserOutlined />} />
        {compact ? null : <Name data-testid="account-name">{account.userName}</Name>}
        {compact ? null : <DownOutlined style={{ fontSize: 10 }} />}
      </Button>
    </Dropdown>
  );
}
