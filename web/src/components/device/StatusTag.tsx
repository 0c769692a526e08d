import { Badge } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { statusTone } from './helpers';

/** A device state as a coloured dot and its name (antd preset status colours). */
export function StatusTag({ status }: { status: string }) {
  const { t } = useTranslation('device');
  return (
    <Badge
      status={statusTone(status)}
      text={t(`status.${status}`, { defaultValue: status })}
      data-testid="device-status"
    />
  );
}
