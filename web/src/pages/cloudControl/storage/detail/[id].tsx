import { useRouter } from 'next/router';
import { CloudControlView } from '@/components/storage/CloudControlView';
import { consolePageProps } from '@/server/pageProps';

export const getServerSideProps = consolePageProps(['storage', 'alarm']);

export default function CloudControlStoragePage() {
  const { query } = useRouter();
  const id = typeof query.id === 'string' && /^\d+$/.test(query.id) ? Number(query.id) : null;
  return <CloudControlView key={id ?? 'none'} storageId={id} />;
}
