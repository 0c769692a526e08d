import { PackageAdminView } from '@/components/billing/PackageAdminView';
import { consolePageProps } from '@/server/pageProps';

export const getServerSideProps = consolePageProps(['billing']);

export default function Page() {
  return <PackageAdminView />;
}
