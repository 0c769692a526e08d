/** The device detail's top-up tab: the service end and what is left, and the way to renew it. */
import { Button, Descriptions } from 'antd';
import Link from 'next/link';
import { useTranslation } from 'next-i18next/pages';
import type { DeviceDetail } from '@/api/device';
import { formatTime } from '@/lib/format';

export function TopUpTab({ device }: { device: DeviceDetail & { smsCount?: number; voiceCount?: number } }) {
  const { t } = useTranslation('billing');
  return (
    <div data-testid="device-topup">
      <Descriptions bordered size="small" column={1} style={{ maxWidth: 560, marginBottom: 16 }}>
        <Descriptions.Item label={t('topUp.expires')}>
          {formatTime(device.serviceExpiredDate, 'YYYY-MM-DD HH:mm')}
        </Descriptions.Item>
        {device.smsCount !== undefined ? (
          <Descriptions.Item label={t('topUp.sms')}>{device.smsCount}</Descriptions.Item>
        ) : null}
        {device.voiceCount !== undefined ? (
          <Descriptions.Item label={t('topUp.voice')}>{device.voiceCount}</Descriptions.Item>
        ) : null}
      </Descriptions>
      <Link href={`/consumer/recharge?deviceIds=${device.id}`}>
        <Button type="primary">{t('topUp.renew')}</Button>
      </Link>
    </div>
  );
}
