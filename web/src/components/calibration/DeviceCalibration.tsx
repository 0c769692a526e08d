import { SafetyCertificateOutlined } from '@ant-design/icons';
import { Space, Tag, Typography } from 'antd';
import Link from 'next/link';
import { useTranslation } from 'next-i18next/pages';
import { deviceCertificateKey, type DeviceCertificate } from '@/api/calibration';
import { formatTime } from '@/lib/format';
import { useRead } from '@/hooks/useRead';

/** The device detail's link to the calibration service: the next due date and the latest certificate, when one exists. */
export function DeviceCalibration({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation('calibration');
  const { data, isLoading } = useRead<DeviceCertificate | null>(deviceCertificateKey(deviceId), {
    shouldRetryOnError: false,
  });
  if (isLoading) return null;
  if (!data) {
    return (
      <Link href="/calibration/form" data-testid="device-calibration-order">
        <SafetyCertificateOutlined /> {t('certificate.order')}
      </Link>
    );
  }
  const certificate = data.applicationId ? (
    <Link href={`/calibration/order/${data.applicationId}`}>{data.certificateNumber}</Link>
  ) : (
    <a href={data.verifyUrl} target="_blank" rel="noreferrer">
      {data.certificateNumber}
    </a>
  );
  return (
    <Space size={4} data-testid="device-calibration">
      <SafetyCertificateOutlined />
      <Typography.Text type="secondary">{t('certificate.due')}:</Typography.Text>
      <Typography.Text data-testid="device-calibration-due">{formatTime(data.nextDueAt, 'YYYY-MM-DD')}</Typography.Text>
      {data.overdue ? <Tag color="error">{t('certificate.overdue')}</Tag> : null}
      {certificate}
    </Space>
  );
}
