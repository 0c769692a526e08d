import { useRouter } from 'next/router';
import { StorageDetailView } from '@/components/storage/StorageDetailView';
import { consolePageProps } from '@/server/pageProps';

export const getServerSideProps = consolePageProps(['storage', 'alarm']);

export default function FreezerDetailPage() {
  const { query } = useRouter();
  const id = typeof query.id === 'string' && /^\d+$/.test(query.id) ? Number(query.id) : null;
  return <StorageDetailView key={id ?? 'none'} kind="freezer" storageId={id} />;
}
