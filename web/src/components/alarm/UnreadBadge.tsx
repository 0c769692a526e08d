import { BellOutlined } from '@ant-design/icons';
import { Badge, Button, Tooltip } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useSession } from '@/lib/SessionContext';
import { useUnreadCount } from '@/hooks/useAlarms';

/** The header's message bell: unread alarm and system messages, polled; opens /message/list. */
export function UnreadBadge({ onNavigate }: { onNavigate: (path: string) => void }) {
  const { t } = useTranslation('shell');
  const { access } = useSession();
  const allowed = Boolean(access?.permitted.has('message.list'));
  const { data } = useUnreadCount(allowed);
  if (!allowed) return null;
  const count = data?.total ?? 0;
  return (
    <Tooltip title={t('header.messages')}>
      <Badge
        count={count}
        size="small"
        offset={[-6, 6]}
        overflowCount={99}
        data-testid="unread-badge"
        data-count={count}
      >
        <Button
          type="text"
          icon={<BellOutlined />}
          aria-label={t('header.messages')}
          onClick={() => onNavigate('/message/list')}
        />
      </Badge>
    </Tooltip>
  );
}
