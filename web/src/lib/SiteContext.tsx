import { createContext, useContext } from 'react';
import type { Branding } from '@/api/customPage';

const SiteContext = createContext<Branding | null>(null);

/** Provides the branding of the current host to every component (null while unknown). */
export const BrandingProvider = SiteContext.Provider;

export function useSiteBranding(): Branding | null {
  return useContext(SiteContext);
}
