import { Tabs } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { HelpAdminView } from '@/components/help/HelpAdminView';
import { NoticeListView } from '@/components/notice/NoticeListView';
import { useSession } from '@/lib/SessionContext';
import { hasPermission } from '@/routes/permissions';
import { consolePageProps } from '@/server/pageProps';

export const getServerSideProps = consolePageProps(['operation', 'help']);

/** /notice/list: the site's announcements and, for who holds help.list, its help centre articles. */
export default function Page() {
  const { t } = useTranslation(['operation', 'help']);
  const { granted } = useSession();
  if (!hasPermission(granted, 'help.list')) return <NoticeListView />;
  return (
    <Tabs
      items={[
        { key: 'notice', label: t('operation:notice.tab'), children: <NoticeListView /> },
        { key: 'help', label: t('help:admin.tab'), children: <HelpAdminView /> },
      ]}
    />
  );
}
