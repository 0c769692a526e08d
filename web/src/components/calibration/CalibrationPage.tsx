import { useRouter } from 'next/router';
import type { ReactNode } from 'react';
import { ErrorView } from '@/components/errors/ErrorView';
import { AdminOrdersView, AdminQuickView, LabOnly } from './AdminViews';
import { ApplyForm, ApplySuccessView, PreviewView } from './ApplyViews';
import { CalibrationLayout } from './CalibrationLayout';
import { CalibrationLoginView } from './LoginView';
import { OrderDetailView, OrdersView } from './OrderViews';
import { ExampleView, HomeView, QuickView, VerifyView } from './PublicViews';

/**
 * The calibration service's pages, one route file per area (pages/calibration/[[...slug]] and
 * pages/mobile/calibration/[[...slug]]): the path after the area's prefix picks the view. Which
 * paths are public and which need a sign-in is src/routes/routes.ts (the shell's gate).
 */
export type Area = 'desktop' | 'mobile';

const HOMES: Record<Area, string> = { desktop: '/calibration/home', mobile: '/mobile/calibration/home' };

function orderId(part: string | undefined): number | null {
  return part && /^\d{1,9}$/.test(part) ? Number(part) : null;
}

function desktopView(slug: string[]): ReactNode | null {
  const key = slug.join('/');
  const simple: Record<string, ReactNode> = {
    home: <HomeView />,
    form: <ApplyForm />,
    'form/example': <ExampleView />,
    quickly: <QuickView />,
    preview: <PreviewView />,
    verify: <VerifyView />,
    orders: <OrdersView />,
    'admin/orders': (
      <LabOnly>
        <AdminOrdersView />
      </LabOnly>
    ),
    'admin/quick': (
      <LabOnly>
        <AdminQuickView />
      </LabOnly>
    ),
  };
  if (key in simple) return simple[key];
  if (slug.length === 2 && slug[0] === 'order' && orderId(slug[1]))
    return <OrderDetailView key={slug[1]} id={orderId(slug[1]) as number} />;
  if (slug.length === 3 && slug[0] === 'admin' && slug[1] === 'order' && orderId(slug[2])) {
    return (
      <LabOnly>
        <OrderDetailView key={slug[2]} id={orderId(slug[2]) as number} admin />
      </LabOnly>
    );
  }
  return null;
}

function mobileView(slug: string[]): ReactNode | null {
  const key = slug.join('/');
  const simple: Record<string, ReactNode> = {
    home: <HomeView />,
    apply: <ApplyForm />,
    'apply/success': <ApplySuccessView />,
    preview: <PreviewView />,
    quickly: <QuickView />,
    'device/example': <ExampleView />,
  };
  if (key in simple) return simple[key];
  if (slug.length === 2 && slug[0] === 'order' && orderId(slug[1]))
    return <OrderDetailView key={slug[1]} id={orderId(slug[1]) as number} />;
  return null;
}

export function CalibrationPage({ area }: { area: Area }) {
  const router = useRouter();
  const raw = router.query.slug;
  const slug = Array.isArray(raw) ? raw : raw ? [raw] : [];
  const key = slug.join('/');
  if (area === 'desktop' && key === 'login') return <CalibrationLoginView kind="customer" />;
  if (area === 'desktop' && key === 'admin/login') return <CalibrationLoginView kind="admin" />;
  if (area === 'mobile' && key === 'login') return <CalibrationLoginView kind="mobile" />;
  const view = area === 'desktop' ? desktopView(slug) : mobileView(slug);
  return <CalibrationLayout>{view ?? <ErrorView status={404} home={HOMES[area]} />}</CalibrationLayout>;
}
