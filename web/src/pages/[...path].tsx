import { NotFound } from '@/components/errors/NotFound';
import { sitePageProps } from '@/server/pageProps';

/** Every path without a page yet: the 404 page, rendered per host and language (status 404). */
export const getServerSideProps = sitePageProps([], 404);

export default NotFound;
