import { useRouter } from 'next/router';
import { DeviceDetailView } from '@/components/device/DeviceDetailView';
import { consolePageProps } from '@/server/pageProps';

export const getServerSideProps = consolePageProps(['alarm', 'report', 'billing', 'calibration']);

export default function DeviceDetailPage() {
  const { query } = useRouter();
  const id = typeof query.deviceId === 'string' && /^\d+$/.test(query.deviceId) ? Number(query.deviceId) : null;
  return <DeviceDetailView key={id ?? 'none'} deviceId={id} />;
}
