import { Tabs, Typography } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import { BackupView } from '@/components/report/BackupView';
import { ScheduledReportsView } from '@/components/report/ScheduledReportsView';
import { consolePageProps } from '@/server/pageProps';

export const getServerSideProps = consolePageProps(['report']);

/** Data centre: scheduled backup (spec 2): periodic archives of the account's data, and its scheduled reports beside them. */
export default function ScheduledBackupPage() {
  const { t } = useTranslation('report');
  const [tab, setTab] = useState('backup');
  return (
    <div data-testid="scheduled-backup-page">
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t('backup.title')}
      </Typography.Title>
      <Tabs
        activeKey={tab}
        onChange={setTab}
        destroyOnHidden
        items={[
          { key: 'backup', label: t('backup.tab'), children: <BackupView /> },
          { key: 'reports', label: t('scheduled.title'), children: <ScheduledReportsView embedded /> },
        ]}
      />
    </div>
  );
}
