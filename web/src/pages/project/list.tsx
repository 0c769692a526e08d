import { ProjectListView } from '@/components/organization/ProjectListView';
import { consolePageProps } from '@/server/pageProps';

export const getServerSideProps = consolePageProps(['organization']);

export default function Page() {
  return <ProjectListView />;
}
