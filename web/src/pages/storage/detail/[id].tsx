import { useRouter } from 'next/router';
import { StorageDetailView } from '@/components/storage/StorageDetailView';
import { consolePageProps } from '@/server/pageProps';

export const getServerSideProps = consolePageProps(['storage', 'alarm', 'budget']);

/** A cold storage, or a virtual storage (`?kind=virtual`). */
export default function StorageDetailPage() {
  const { query } = useRouter();
  const id = typeof query.id === 'string' && /^\d+$/.test(query.id) ? Number(query.id) : null;
  const kind = query.kind === 'virtual' ? 'virtual' : 'storage';
  return <StorageDetailView key={`${kind}-${id ?? 'none'}`} kind={kind} storageId={id} />;
}
