import type { GetServerSideProps } from 'next';
import { sitePageProps, type SitePageProps } from './pageProps';

/** getServerSideProps of the calibration service's two route files: the area's bare prefix redirects to its home. */
type Area = 'desktop' | 'mobile';

const REDIRECTS: Record<Area, Record<string, string>> = {
  desktop: { '': '/calibration/home', admin: '/calibration/admin/orders' },
  mobile: { '': '/mobile/calibration/home' },
};

// billing: the payment area's components (the WeChat QR code, pay methods) pay an order here.
const withProps = sitePageProps(['calibration', 'billing', 'login', 'shell']);

export function calibrationProps(area: Area): GetServerSideProps<SitePageProps> {
  return async (context) => {
    const slug = context.params?.slug;
    const key = Array.isArray(slug) ? slug.join('/') : (slug ?? '');
    const target = REDIRECTS[area][key];
    if (target) return { redirect: { destination: target, permanent: false } };
    return withProps(context);
  };
}
