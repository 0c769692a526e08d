import { Card, Descriptions, Result, Skeleton, Tag, Typography } from 'antd';
import { useRouter } from 'next/router';
import { useTranslation } from 'next-i18next/pages';
import { verifyKey, type PublicVerification } from '@/api/fda';
import { formatTime } from '@/components/device/format';
import { CenteredPage } from '@/components/ui/CenteredPage';
import { LanguageSwitch } from '@/components/ui/LanguageSwitch';
import { PageHead } from '@/components/ui/PageHead';
import { useRead } from '@/hooks/useRead';

/**
 * /fda/verify?code=: the verification link (and QR code) printed on a signed PDF. Public: it shows
 * who signed the document, when and with which meaning, whether the record still matches its signed
 * hash, and the SHA-256 of the signed PDF to compare a copy with.
 */
export function VerifyView() {
  const { t } = useTranslation('fda');
  const router = useRouter();
  const raw = router.query.code;
  const code = Array.isArray(raw) ? raw[0] : raw;
  const { data, error, isLoading } = useRead<PublicVerification>(code ? verifyKey(code) : null, { shouldRetryOnError: false });
  return (
    <CenteredPage>
      <PageHead name={t('verify.title')} />
      <Card title={t('verify.title')} extra={<LanguageSwitch />} style={{ width: '100%', maxWidth: 720 }} data-testid="fda-verify">
        {isLoading ? <Skeleton active /> : null}
        {error || (!isLoading && !data) ? <Result status="warning" title={t('verify.notFound')} /> : null}
        {data ? (
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={t('file.name')}>{data.fileName}</Descriptions.Item>
            <Descriptions.Item label={t('file.window')}>{`${formatTime(data.collectBegin)} ~ ${formatTime(data.collectEnd)}`}</Descriptions.Item>
            <Descriptions.Item label={t('signature.printedName')}>{data.signature.printedName}</Descriptions.Item>
            <Descriptions.Item label={t('signature.signedAt')}>{data.signature.signedAtText}</Descriptions.Item>
            <Descriptions.Item label={t('signature.meaning')}>{data.signature.meaning}</Descriptions.Item>
            <Descriptions.Item label={t('signature.integrity')}>
              {data.integrity.intact && data.integrity.signatureValid ? (
                <Tag color="success">{t('signature.intact')}</Tag>
              ) : (
                <Tag color="warning">{t('signature.changed', { n: data.integrity.lateReadings })}</Tag>
              )}
            </Descriptions.Item>
            <Descriptions.Item label={t('signature.recordHash')}>
              <Typography.Text code style={{ wordBreak: 'break-all' }}>
                {data.signature.recordHash}
              </Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('verify.documentHash')}>
              <Typography.Text code style={{ wordBreak: 'break-all' }}>
                {data.documentHash ?? '-'}
              </Typography.Text>
            </Descriptions.Item>
          </Descriptions>
        ) : null}
      </Card>
    </CenteredPage>
  );
}
