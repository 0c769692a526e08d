import { Button, Card, Descriptions, List, Result, Skeleton, Space, Tag, Typography } from 'antd';
import { useRouter } from 'next/router';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import {
  verifyKey,
  verifySealKey,
  versionPdfUrl,
  type PublicVerification,
  type RecordVersion,
  type VersionSeal,
} from '@/api/fda';
import { formatTime } from '@/lib/format';
import { CenteredPage } from '@/components/ui/CenteredPage';
import { LanguageSwitch } from '@/components/ui/LanguageSwitch';
import { PageHead } from '@/components/ui/PageHead';
import { useRead } from '@/hooks/useRead';

/**
 * /fda/verify?code=: the verification link (and QR code) printed on a signed PDF. Public: it shows
 * who signed the document, when and with which meaning, whether the record still matches its signed
 * hash, the SHA-256 of the signed PDF to compare a copy with, and every stored version of the signed
 * file (what it printed: device names and limits; its hashes; whether the stored copy is intact; the
 * site's seal and its trusted timestamp), each downloadable as sealed and checkable as a PDF reader would.
 */
export function VerifyView() {
  const { t } = useTranslation('fda');
  const router = useRouter();
  const raw = router.query.code;
  const code = Array.isArray(raw) ? raw[0] : raw;
  const { data, error, isLoading } = useRead<PublicVerification>(code ? verifyKey(code) : null, {
    shouldRetryOnError: false,
  });
  return (
    <CenteredPage>
      <PageHead name={t('verify.title')} />
      <Card
        title={t('verify.title')}
        extra={<LanguageSwitch />}
        style={{ width: '100%', maxWidth: 720 }}
        data-testid="fda-verify"
      >
        {isLoading ? <Skeleton active /> : null}
        {error || (!isLoading && !data) ? <Result status="warning" title={t('verify.notFound')} /> : null}
        {data ? (
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={t('file.name')}>{data.fileName}</Descriptions.Item>
            <Descriptions.Item
              label={t('file.window')}
            >{`${formatTime(data.collectBegin)} ~ ${formatTime(data.collectEnd)}`}</Descriptions.Item>
            <Descriptions.Item label={t('signature.printedName')}>{data.signature.printedName}</Descriptions.Item>
            <Descriptions.Item label={t('signature.signedAt')}>{data.signature.signedAtText}</Descriptions.Item>
            <Descriptions.Item label={t('signature.meaning')}>{data.signature.meaning}</Descriptions.Item>
            {(data.signatures ?? []).length > 1 && (
              <Descriptions.Item label={t('steps.title')}>
                <Space direction="vertical" size={0} data-testid="fda-verify-steps">
                  {data.signatures.map((s) => (
                    <span
                      key={s.step}
                    >{`${t('steps.label', { n: s.step, role: s.roleName })}: ${s.printedName} (#${s.signerAccountId ?? '-'}) · ${s.meaning} · ${s.signedAtText}`}</span>
                  ))}
                </Space>
              </Descriptions.Item>
            )}
            <Descriptions.Item label={t('signature.integrity')}>
              {data.integrity.intact && data.integrity.signatureValid ? (
                <Tag color="success">{t('signature.intact')}</Tag>
              ) : data.integrity.lateReadings > 0 ? (
                <Tag color="warning">{t('signature.changed', { n: data.integrity.lateReadings })}</Tag>
              ) : (
                <Tag color="error">{t('signature.altered')}</Tag>
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
        {data && code ? <Versions code={code} versions={data.versions ?? []} /> : null}
      </Card>
    </CenteredPage>
  );
}

function Versions({ code, versions }: { code: string; versions: RecordVersion[] }) {
  const { t } = useTranslation('fda');
  return (
    <List
      header={<Typography.Text strong>{t('verify.versions')}</Typography.Text>}
      locale={{ emptyText: t('verify.noVersions') }}
      dataSource={versions}
      data-testid="fda-verify-versions"
      renderItem={(v) => (
        <List.Item key={v.version}>
          <Space direction="vertical" size={2} style={{ width: '100%' }}>
            <Space wrap>
              <Typography.Text strong>{`${t('verify.version')} ${v.version}`}</Typography.Text>
              <span>{`${t('verify.createdAt')}: ${formatTime(v.createdAt)}`}</span>
              <span>{`${t('verify.reason')}: ${v.reason}`}</span>
              {v.intact ? (
                <Tag color="success">{t('verify.versionIntact')}</Tag>
              ) : (
                <Tag color="error">{t('verify.versionBroken')}</Tag>
              )}
            </Space>
            <span>{`${t('verify.sealSubject')}: ${v.sealSubject ?? '-'}`}</span>
            <span>{`${t('verify.timestampAt')}: ${v.timestampAt ? formatTime(v.timestampAt) : '-'}`}</span>
            <span>{`${t('verify.printed')}: ${v.deviceNames.join(', ')}${v.timeZone ? ` (${v.timeZone})` : ''}`}</span>
            {v.sensors
              .filter((s) => s.lower !== null || s.upper !== null)
              .map((s) => (
                <span key={`${s.deviceName}-${s.name}`}>
                  {t('verify.limits', {
                    sensor: s.name,
                    lower: s.lower ?? '-',
                    upper: s.upper ?? '-',
                    unit: s.unit,
                    n: s.excursions,
                  })}
                </span>
              ))}
            <Typography.Text type="secondary">{t('verify.hashes')}</Typography.Text>
            {(['pdfHash', 'snapshotHash', 'sealHash'] as const).map((key) => (
              <Typography.Text key={key} code style={{ wordBreak: 'break-all' }}>
                {`${t(`verify.${key}`)}: ${v[key]}`}
              </Typography.Text>
            ))}
            <SealCheck code={code} version={v.version} />
          </Space>
        </List.Item>
      )}
    />
  );
}

/** Download one version as it was sealed, and check its seal (asked only when the reader wants it). */
function SealCheck({ code, version }: { code: string; version: number }) {
  const { t } = useTranslation('fda');
  const [asked, setAsked] = useState(false);
  const { data, isLoading } = useRead<VersionSeal>(asked ? verifySealKey(code, version) : null, {
    shouldRetryOnError: false,
  });
  return (
    <Space wrap data-testid={`fda-verify-version-${version}`}>
      <Typography.Link href={versionPdfUrl(code, version)} download>
        {t('verify.download')}
      </Typography.Link>
      <Button size="small" onClick={() => setAsked(true)} loading={isLoading} disabled={asked && !!data}>
        {t('verify.checkSeal')}
      </Button>
      {data ? (
        data.sealValid && data.hashMatches ? (
          <Tag color="success">{t('verify.sealValid')}</Tag>
        ) : (
          <Tag color="error">
            {!data.intact || !data.hashMatches
              ? t('verify.sealBroken')
              : !data.trusted
                ? t('verify.sealUntrusted')
                : t('verify.timestampInvalid')}
          </Tag>
        )
      ) : null}
    </Space>
  );
}
