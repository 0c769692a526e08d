import { MembersPanel } from '@/components/organization/MembersPanel';
import { consolePageProps } from '@/server/pageProps';

export const getServerSideProps = consolePageProps(['organization']);

export default function Page() {
  return <MembersPanel />;
}
