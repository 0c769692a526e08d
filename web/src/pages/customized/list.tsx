import { CustomizedListView } from '@/components/customization/CustomizedListView';
import { consolePageProps } from '@/server/pageProps';

export const getServerSideProps = consolePageProps(['customization']);

export default function Page() {
  return <CustomizedListView />;
}
