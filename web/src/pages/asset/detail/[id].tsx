import { useRouter } from 'next/router';
import { AssetDetailView } from '@/components/organization/AssetViews';
import { consolePageProps } from '@/server/pageProps';

export const getServerSideProps = consolePageProps(['organization']);

export default function AssetDetailPage() {
  const { query } = useRouter();
  const id = typeof query.id === 'string' && /^\d+$/.test(query.id) ? Number(query.id) : null;
  return <AssetDetailView key={id ?? 'none'} assetId={id} />;
}
