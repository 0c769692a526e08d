import { Button, Card, Descriptions, Form, Input, Result, Skeleton, Space, Statistic, Typography } from 'antd';
import Link from 'next/link';
import { useRouter } from 'next/router';
import { useTranslation } from 'next-i18next/pages';
import styled from 'styled-components';
import { quickQueryKey, type QuickQueryAnswer } from '@/api/device';
import { useRead } from '@/hooks/useRead';
import { ApiError } from '@/api/errors';
import { LanguageSwitch } from '@/components/ui/LanguageSwitch';
import { PageHead } from '@/components/ui/PageHead';
import { formatValue, formatZoned } from '@/lib/format';
import { DEVICE_GUID_MAX, GUID_PATTERN, sensorParams, unitLabel, valueOf } from './helpers';
import { SensorChart } from './SensorChart';
import { StatusTag } from './StatusTag';
import { useRemRoot } from '@/hooks/useRemRoot';

const Page = styled.main<{ $mobile: boolean }>`
  max-width: ${({ $mobile }) => ($mobile ? '640px' : '1100px')};
  margin: 0 auto;
  padding: ${({ $mobile }) => ($mobile ? '12px' : '24px 16px')};
  min-height: 100vh;
  box-sizing: border-box;
`;

const MobileBar = styled.header`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: 8px;
  margin: -12px -12px 12px;
  padding: 10px 12px;
  background: ${({ theme }) => theme.colors.primary};
  color: ${({ theme }) => theme.colors.textOnPrimary};

  a,
  .ant-typography {
    color: ${({ theme }) => theme.colors.textOnPrimary};
  }
`;

const Grid = styled.div<{ $mobile: boolean }>`
  display: grid;
  grid-template-columns: ${({ $mobile }) => ($mobile ? 'repeat(2, minmax(0, 1fr))' : 'repeat(auto-fill, minmax(160px, 1fr))')};
  gap: ${({ $mobile }) => ($mobile ? 8 : 12)}px;
`;

/** The two quick query pages: the desktop one and the mobile one (spec routes quick.query, mobileQuick.query). */
export const QUICK_QUERY_PATHS = { pc: '/quick/query', mobile: '/mobileQuick/query' } as const;
export type QuickQueryVariant = keyof typeof QUICK_QUERY_PATHS;

function firstOf(value: string | string[] | undefined): string {
  return ((Array.isArray(value) ? value[0] : value) ?? '').trim();
}

/**
 * Public quick query (no sign-in): a device found by its complete GUID, its latest values and its
 * last 24 hours, nothing else.
 */
export function QuickQueryView({ variant = 'pc' }: { variant?: QuickQueryVariant }) {
  const { t } = useTranslation('device');
  const mobile = variant === 'mobile';
  useRemRoot(mobile);
  const router = useRouter();
  const guid = firstOf(router.query.guid);
  const valid = GUID_PATTERN.test(guid) && guid.length <= DEVICE_GUID_MAX;
  // A quiet read: the page shows a public look-up's failure itself.
  const { data, error, isLoading } = useRead<QuickQueryAnswer>(valid ? quickQueryKey(guid) : null, {
    shouldRetryOnError: false,
    revalidateOnFocus: false,
  });
  const sensors = data ? sensorParams(data.params) : [];

  return (
    <Page data-testid="quick-query" data-variant={variant} $mobile={mobile}>
      <PageHead name={t('quick.title')} />
      {mobile ? (
        <MobileBar>
          <Typography.Text strong style={{ fontSize: 16 }}>
            {t('quick.title')}
          </Typography.Text>
          <Space size={8}>
            <LanguageSwitch />
            <Link href="/user/login">{t('quick.back')}</Link>
          </Space>
        </MobileBar>
      ) : (
        <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 16 }} wrap>
          <Typography.Title level={3} style={{ margin: 0 }}>
            {t('quick.title')}
          </Typography.Title>
          <Space>
            <LanguageSwitch />
            <Link href="/user/login">{t('quick.back')}</Link>
          </Space>
        </Space>
      )}
      <Form
        layout={mobile ? 'vertical' : 'inline'}
        key={guid}
        initialValues={{ guid }}
        onFinish={(values: { guid: string }) =>
          void router.push({ pathname: QUICK_QUERY_PATHS[variant], query: { guid: values.guid.trim() } })
        }
        style={{ marginBottom: mobile ? 12 : 24 }}
      >
        <Form.Item
          name="guid"
          rules={[
            { required: true, whitespace: true, message: t('form.guidRequired') },
            { pattern: GUID_PATTERN, message: t('form.guidDigits') },
            { max: DEVICE_GUID_MAX, message: t('form.guidMax', { max: DEVICE_GUID_MAX }) },
          ]}
          style={mobile ? { marginBottom: 8 } : undefined}
        >
          <Input
            placeholder={t('quick.guid')}
            inputMode="numeric"
            autoComplete="off"
            size={mobile ? 'large' : 'middle'}
            style={mobile ? undefined : { width: 260 }}
          />
        </Form.Item>
        <Button type="primary" htmlType="submit" block={mobile} size={mobile ? 'large' : 'middle'}>
          {t('action.query')}
        </Button>
      </Form>
      {valid && isLoading ? <Skeleton active /> : null}
      {error || (guid && !valid) ? (
        <Result
          status="warning"
          title={
            error instanceof ApiError && error.failure.serverMessage ? error.failure.serverMessage : t('quick.notFound')
          }
          data-testid="quick-not-found"
        />
      ) : null}
      {data ? (
        <Space orientation="vertical" size="large" style={{ width: '100%' }}>
          <Descriptions bordered size="small" column={mobile ? 1 : { xs: 1, md: 2 }}>
            <Descriptions.Item label={t('column.guid')}>{data.deviceGuid}</Descriptions.Item>
            <Descriptions.Item label={t('column.type')}>{data.typeName}</Descriptions.Item>
            <Descriptions.Item label={t('column.status')}>
              <StatusTag status={data.status} />
            </Descriptions.Item>
            <Descriptions.Item label={t('column.lastData')}>{formatZoned(data.lastDataTime)}</Descriptions.Item>
          </Descriptions>
          <Grid data-testid="quick-values" $mobile={mobile}>
            {sensors.map((param) => (
              <Card size="small" key={param.paramKey}>
                <Statistic
                  title={param.paramName}
                  value={formatValue(valueOf(data.values, param), param.precision)}
                  suffix={unitLabel(param, 'C')}
                />
              </Card>
            ))}
          </Grid>
          <Card size="small" title={t('quick.last24h')}>
            <SensorChart params={sensors} series={data.chart} bucketSeconds={0} unit="C" height={mobile ? 240 : 320} />
          </Card>
        </Space>
      ) : null}
    </Page>
  );
}
