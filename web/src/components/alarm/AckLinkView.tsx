import { Button, Card, Descriptions, Result, Skeleton, Tag } from 'antd';
import { useRouter } from 'next/router';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import { ackLinkKey, confirmAckLink, type AckLink } from '@/api/alarm';
import { ApiError } from '@/api/errors';
import { CenteredPage } from '@/components/ui/CenteredPage';
import { LanguageSwitch } from '@/components/ui/LanguageSwitch';
import { PageHead } from '@/components/ui/PageHead';
import { useRead } from '@/hooks/useRead';
import { formatTime } from '@/lib/format';

/**
 * /alarm/ack?code=: the link of an alarm's email. Public: it shows the alarm and an Acknowledge
 * button; acknowledging stops the alarm's repeats and escalation. A used link shows who acknowledged
 * it and how; an expired or forged one gets the server's (localized) message.
 */
export function AckLinkView() {
  const { t } = useTranslation('alarm');
  const router = useRouter();
  // `code`, not `token`: a `token` query parameter is taken as a sign-in token (api/session.ts).
  const raw = router.query.code;
  const token = Array.isArray(raw) ? raw[0] : raw;
  const { data, error, isLoading, mutate } = useRead<AckLink>(token ? ackLinkKey(token) : null, {
    shouldRetryOnError: false,
  });
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const failure = problem ?? (error ? (error instanceof ApiError ? error.message : t('ackLink.invalid')) : null);
  const acknowledge = () => {
    if (!token) return;
    setBusy(true);
    confirmAckLink(token, { handleErrors: false })
      .then((answer) => mutate(answer, { revalidate: false }))
      .catch((reason: unknown) => setProblem(reason instanceof ApiError ? reason.message : t('ackLink.invalid')))
      .finally(() => setBusy(false));
  };
  return (
    <CenteredPage>
      <PageHead name={t('ackLink.title')} />
      <Card
        title={t('ackLink.title')}
        extra={<LanguageSwitch />}
        style={{ width: '100%', maxWidth: 560 }}
        data-testid="alarm-ack-page"
      >
        {isLoading ? <Skeleton active /> : null}
        {!token || failure ? (
          <Result status="warning" title={failure ?? t('ackLink.invalid')} data-testid="alarm-ack-problem" />
        ) : null}
        {data && !failure ? (
          <>
            <Descriptions column={1} size="small" bordered>
              <Descriptions.Item label={t('ackLink.alarm')}>{data.kindText}</Descriptions.Item>
              <Descriptions.Item label={t('ackLink.device')}>{data.deviceName ?? '-'}</Descriptions.Item>
              <Descriptions.Item label={t('ackLink.place')}>{data.place ?? '-'}</Descriptions.Item>
              <Descriptions.Item label={t('ackLink.value')}>
                {`${data.lastValue ?? '-'} ${data.unit ?? ''} (${t('ackLink.limit')} ${data.limitValue ?? '-'})`}
              </Descriptions.Item>
              <Descriptions.Item label={t('ackLink.opened')}>{formatTime(data.openTime ?? null)}</Descriptions.Item>
            </Descriptions>
            <div style={{ marginTop: 16, textAlign: 'center' }}>
              {data.acknowledged ? (
                <Tag color="green" data-testid="alarm-ack-done">
                  {t('ackLink.done', {
                    via: t(`ack.via.${data.ackVia ?? 'email'}`),
                    by: data.ackBy ?? '',
                    time: formatTime(data.ackTime ?? null),
                  })}
                </Tag>
              ) : data.status === 'open' ? (
                <Button type="primary" loading={busy} onClick={acknowledge} data-testid="alarm-ack-confirm">
                  {t('action.acknowledge')}
                </Button>
              ) : (
                <Tag>{t('ackLink.closed')}</Tag>
              )}
            </div>
          </>
        ) : null}
      </Card>
    </CenteredPage>
  );
}
