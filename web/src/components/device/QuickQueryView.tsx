import { Button, Card, Descriptions, Form, Input, Result, Skeleton, Space, Statistic, Typography } from 'antd';
import Link from 'next/link';
import { useRouter } from 'next/router';
import { useTranslation } from 'next-i18next/pages';
import styled from 'styled-components';
import useSWR from 'swr';
import { quickQuery } from '@/api/device';
import { ApiError } from '@/api/errors';
import { LanguageSwitch } from '@/components/ui/LanguageSwitch';
import { PageHead } from '@/components/ui/PageHead';
import { formatTime } from './format';
import { DEVICE_GUID_MAX, formatValue, GUID_PATTERN, sensorParams, unitLabel, valueOf } from './helpers';
import { SensorChart } from './SensorChart';
import { StatusTag } from './StatusTag';

const Page = styled.main`
  max-width: 1100px;
  margin: 0 auto;
  padding: 24px 16px;
  min-height: 100vh;
  box-sizing: border-box;
`;

const Grid = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(160px, 1fr));
  gap: 12px;
`;

function firstOf(value: string | string[] | undefined): string {
  return ((Array.isArray(value) ? value[0] : value) ?? '').trim();
}

/**
 * Public quick query (no sign-in): a device found by its complete GUID, its latest values and its
 * last 24 hours, nothing else.
 */
export function QuickQueryView() {
  const { t } = useTranslation('device');
  const router = useRouter();
  const guid = firstOf(router.query.guid);
  const valid = GUID_PATTERN.test(guid) && guid.length <= DEVICE_GUID_MAX;
  const { data, error, isLoading } = useSWR(valid ? ['quick-query', guid] : null, () => quickQuery(guid), { shouldRetryOnError: false, revalidateOnFocus: false });
  const sensors = data ? sensorParams(data.params) : [];

  return (
    <Page data-testid="quick-query">
      <PageHead name={t('quick.title')} />
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 16 }} wrap>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {t('quick.title')}
        </Typography.Title>
        <Space>
          <LanguageSwitch />
          <Link href="/user/login">{t('quick.back')}</Link>
        </Space>
      </Space>
      <Form
        layout="inline"
        key={guid}
        initialValues={{ guid }}
        onFinish={(values: { guid: string }) => void router.push({ pathname: '/quick/query', query: { guid: values.guid.trim() } })}
        style={{ marginBottom: 24 }}
      >
        <Form.Item
          name="guid"
          rules={[
            { required: true, whitespace: true, message: t('form.guidRequired') },
            { pattern: GUID_PATTERN, message: t('form.guidDigits') },
            { max: DEVICE_GUID_MAX, message: t('form.guidMax', { max: DEVICE_GUID_MAX }) },
          ]}
        >
          <Input placeholder={t('quick.guid')} inputMode="numeric" autoComplete="off" style={{ width: 260 }} />
        </Form.Item>
        <Button type="primary" htmlType="submit">
          {t('action.query')}
        </Button>
      </Form>
      {valid && isLoading ? <Skeleton active /> : null}
      {error ? <Result status="warning" title={error instanceof ApiError && error.failure.serverMessage ? error.failure.serverMessage : t('quick.notFound')} data-testid="quick-not-found" /> : null}
      {data ? (
        <Space orientation="vertical" size="large" style={{ width: '100%' }}>
          <Descriptions bordered size="small" column={{ xs: 1, md: 2 }}>
            <Descriptions.Item label={t('column.name')}>{data.deviceName}</Descriptions.Item>
            <Descriptions.Item label={t('column.guid')}>{data.deviceGuid}</Descriptions.Item>
            <Descriptions.Item label={t('column.type')}>{data.typeName}</Descriptions.Item>
            <Descriptions.Item label={t('column.status')}>
              <StatusTag status={data.status} />
            </Descriptions.Item>
            <Descriptions.Item label={t('column.lastData')}>{formatTime(data.lastDataTime)}</Descriptions.Item>
          </Descriptions>
          <Grid data-testid="quick-values">
            {sensors.map((param) => (
              <Card size="small" key={param.paramKey}>
                <Statistic title={param.paramName} value={formatValue(valueOf(data.values, param), param.precision)} suffix={unitLabel(param, 'C')} />
              </Card>
            ))}
          </Grid>
          <Card size="small" title={t('quick.last24h')}>
            <SensorChart params={sensors} series={data.chart} bucketSeconds={0} unit="C" height={320} />
          </Card>
        </Space>
      ) : null}
    </Page>
  );
}
