import { Button, Card, Input, Result, Skeleton, Space, Tabs, Typography } from 'antd';
import Link from 'next/link';
import { useRouter } from 'next/router';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import styled from 'styled-components';
import { ApiError } from '@/api/errors';
import { quickWaybillKey, viewShareKey, type PublicWaybill, type SharedWaybill } from '@/api/waybill';
import { useRead } from '@/hooks/useRead';
import { formatTime } from '@/lib/format';
import { LanguageSwitch } from '@/components/ui/LanguageSwitch';
import { PageHead } from '@/components/ui/PageHead';
import { AlarmTab, ChartTab, StateTag, StatusTab, formatDistance } from './StatusPanel';

const Page = styled.main<{ $mobile: boolean }>`
  max-width: ${({ $mobile }) => ($mobile ? '640px' : '1100px')};
  margin: 0 auto;
  padding: ${({ $mobile }) => ($mobile ? '12px' : '24px 16px')};
  min-height: 100vh;
  box-sizing: border-box;
`;

export type PublicVariant = 'pc' | 'mobileList' | 'mobileDetail';
const PATHS: Record<PublicVariant, string> = {
  pc: '/pcQuick/waybill',
  mobileList: '/mobileQuick/waybill',
  mobileDetail: '/mobileQuick/waybill/detail',
};

function firstOf(value: string | string[] | undefined): string {
  return ((Array.isArray(value) ? value[0] : value) ?? '').trim();
}

function Header({ title }: { title: string }) {
  const { t } = useTranslation('waybill');
  return (
    <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 12 }} wrap>
      <Typography.Title level={4} style={{ margin: 0 }}>
        {title}
      </Typography.Title>
      <Space>
        <LanguageSwitch />
        <Link href="/user/login">{t('public.login')}</Link>
      </Space>
    </Space>
  );
}

/** What a visitor sees of one waybill: status, route, temperatures and alarms, nothing else. */
export function PublicWaybillBody({ waybill, mobile }: { waybill: PublicWaybill; mobile: boolean }) {
  const { t } = useTranslation('waybill');
  return (
    <Card
      size="small"
      title={waybill.trackingNumber ?? waybill.waybillNum}
      extra={<StateTag state={waybill.state} />}
      data-testid="public-waybill"
    >
      <Tabs
        items={[
          { key: 'status', label: t('tab.status'), children: <StatusTab status={waybill} compact={mobile} /> },
          { key: 'chart', label: t('tab.chart'), children: <ChartTab status={waybill} height={mobile ? 260 : 340} /> },
          { key: 'alarm', label: t('tab.alarm'), children: <AlarmTab status={waybill} /> },
        ]}
      />
    </Card>
  );
}

/** /pcQuick/waybill, /mobileQuick/waybill and /mobileQuick/waybill/detail: look a waybill up by its complete number. */
export function PublicWaybillView({ variant }: { variant: PublicVariant }) {
  const { t } = useTranslation('waybill');
  const router = useRouter();
  const mobile = variant !== 'pc';
  const id = firstOf(router.query.id);
  const [input, setInput] = useState(id);
  // A quiet read: the page shows a public look-up's failure itself.
  const { data, error, isLoading } = useRead<PublicWaybill>(id ? quickWaybillKey(id) : null, {
    shouldRetryOnError: false,
  });
  const search = (value: string) =>
    void router.push({
      pathname: PATHS[variant === 'mobileDetail' ? 'mobileList' : variant],
      query: { id: value.trim() },
    });
  return (
    <Page $mobile={mobile}>
      <PageHead name={t('public.title')} />
      <Header title={t('public.title')} />
      {variant !== 'mobileDetail' ? (
        <Input.Search
          value={input}
          onChange={(e) => setInput(e.target.value)}
          onSearch={search}
          enterButton={t('public.search')}
          placeholder={t('public.placeholder')}
          maxLength={40}
          style={{ marginBottom: 12 }}
          data-testid="public-waybill-input"
        />
      ) : null}
      {isLoading ? <Skeleton active /> : null}
      {error ? (
        <Result
          status="warning"
          title={
            error instanceof ApiError && error.failure.serverMessage
              ? error.failure.serverMessage
              : t('public.notFound')
          }
          data-testid="public-waybill-missing"
        />
      ) : null}
      {data && variant === 'mobileList' ? (
        <Card
          size="small"
          title={data.trackingNumber}
          extra={<StateTag state={data.state} />}
          data-testid="public-waybill-card"
        >
          <Typography.Paragraph>
            {formatDistance(data.distanceMeters)} · {data.lastValue === null ? '-' : `${data.lastValue} °C`} ·{' '}
            {formatTime(data.lastDataAt)}
          </Typography.Paragraph>
          <Link href={{ pathname: PATHS.mobileDetail, query: { id } }} data-testid="public-waybill-detail-link">
            {t('action.detail')}
          </Link>
        </Card>
      ) : null}
      {data && variant !== 'mobileList' ? <PublicWaybillBody waybill={data} mobile={mobile} /> : null}
    </Page>
  );
}

/** /share/waybill/{token}: a share link, with its PIN when set; expired or revoked links say so. */
export function SharedWaybillView() {
  const { t } = useTranslation('waybill');
  const router = useRouter();
  const token = firstOf(router.query.token);
  const [pin, setPin] = useState('');
  const [tried, setTried] = useState('');
  // A quiet read: the page handles the failure itself (PIN asked, expired, revoked).
  const { data, error, isLoading } = useRead<SharedWaybill>(token ? viewShareKey(token, tried) : null, {
    shouldRetryOnError: false,
    revalidateOnFocus: false,
  });
  const failure = error instanceof ApiError ? error : null;
  const needPin = Boolean(failure && (failure.body as { data?: { needPin?: boolean } } | undefined)?.data?.needPin);
  return (
    <Page $mobile={false}>
      <PageHead name={t('public.shareTitle')} />
      <Header title={t('public.shareTitle')} />
      {isLoading ? <Skeleton active /> : null}
      {needPin ? (
        <Card size="small" title={t('public.pin')} data-testid="share-pin">
          {tried ? <Typography.Paragraph type="danger">{failure?.failure.serverMessage}</Typography.Paragraph> : null}
          <Space>
            <Input.Password
              value={pin}
              maxLength={8}
              onChange={(e) => setPin(e.target.value)}
              onPressEnter={() => setTried(pin)}
              data-testid="share-pin-input"
            />
            <Button type="primary" onClick={() => setTried(pin)}>
              {t('public.open')}
            </Button>
          </Space>
        </Card>
      ) : null}
      {failure && !needPin ? (
        <Result
          status="warning"
          title={failure.failure.serverMessage ?? t('public.notFound')}
          data-testid="share-refused"
        />
      ) : null}
      {data ? (
        <>
          <Typography.Paragraph type="secondary" data-testid="share-valid-until">
            {data.expiresAtText
              ? `${t('public.validUntil')} ${data.expiresAtText} (${data.timeZone})`
              : t('public.noExpiry')}
          </Typography.Paragraph>
          <PublicWaybillBody waybill={data} mobile={false} />
        </>
      ) : null}
    </Page>
  );
}
