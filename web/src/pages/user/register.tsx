import { RegisterView } from '@/components/account/RegisterView';
import { sitePageProps } from '@/server/pageProps';
import { LOGIN_PATH } from '@/api/constants';

/** Spec 2.1: the register route leads to sign-in when the site has enableRegister set. */
export const getServerSideProps = sitePageProps(['account', 'login'], 200, (site) =>
  site.kind === 'ok' && site.branding.enableRegister ? LOGIN_PATH : null,
);

export default function RegisterPage() {
  return <RegisterView />;
}
