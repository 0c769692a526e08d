import { App, Button, Popconfirm } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import type { ReactNode } from 'react';
import { Permitted } from './Permitted';

/** A delete (or other risky) link guarded by its permission and a confirmation. */
export function ConfirmAction({
  route,
  action,
  title,
  onConfirm,
  children,
  danger = true,
  testId,
}: {
  route: string;
  action: string;
  title: ReactNode;
  onConfirm: () => Promise<unknown>;
  children: ReactNode;
  danger?: boolean;
  testId?: string;
}) {
  const { t } = useTranslation('common');
  const { message } = App.useApp();
  return (
    <Permitted route={route} action={action}>
      <Popconfirm
        title={title}
        okText={t('confirm.ok')}
        cancelText={t('confirm.cancel')}
        onConfirm={() =>
          onConfirm()
            .then(() => void message.success(t('confirm.done')))
            .catch(() => undefined)
        }
      >
        <Button type="link" size="small" danger={danger} data-testid={testId}>
          {children}
        </Button>
      </Popconfirm>
    </Permitted>
  );
}
