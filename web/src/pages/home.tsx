import { HomeView } from '@/components/home/HomeView';
import { consolePageProps } from '@/server/pageProps';

export const getServerSideProps = consolePageProps();

export default function HomePage() {
  return <HomeView />;
}
