import { theme as antdTheme, type ThemeConfig } from 'antd';
import type { DefaultTheme } from 'styled-components';
import type { StyleTokens } from './styleModels';

/** The branding fields that shape the look (spec section 3, customised data). */
export interface ThemeBranding {
  themeColor?: string | null;
}

export interface BuiltTheme {
  antd: ThemeConfig;
  styled: DefaultTheme;
}

/** Spec breakpoints: mobile below 576 px, desktop from 1350 px. */
export const BREAKPOINTS = { tablet: 576, desktop: 1350 } as const;

const HEX_COLOUR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/**
 * One theme for both libraries: antd (components) and styled-components (layout). The tenant's
 * theme colour wins over the style model's primary colour; everything else comes from the tokens
 * of the style model, and the neutral colours from antd's algorithm so both stay consistent.
 */
export function buildTheme(branding: ThemeBranding | null, tokens: StyleTokens): BuiltTheme {
  const colorPrimary =
    branding?.themeColor && HEX_COLOUR.test(branding.themeColor) ? branding.themeColor : tokens.colorPrimary;
  const antd: ThemeConfig = {
    token: { colorPrimary, colorLink: colorPrimary, borderRadius: tokens.borderRadius, fontFamily: tokens.fontFamily },
    components: {
      Layout: { siderBg: tokens.siderBg, headerBg: tokens.headerBg, bodyBg: tokens.layoutBg },
      // The sidebar menu (dark) on the style model's sidebar colours, selection in the theme colour.
      Menu: {
        darkItemBg: tokens.siderBg,
        darkSubMenuItemBg: tokens.siderBg,
        darkPopupBg: tokens.siderBg,
        darkItemColor: tokens.siderText,
        darkItemSelectedBg: colorPrimary,
      },
    },
  };
  const design = antdTheme.getDesignToken(antd);
  const styled: DefaultTheme = {
    colors: {
      primary: colorPrimary,
      primaryHover: design.colorPrimaryHover,
      primaryBg: design.colorPrimaryBg,
      siderBg: tokens.siderBg,
      siderText: tokens.siderText,
      headerBg: tokens.headerBg,
      layoutBg: tokens.layoutBg,
      loginPanelBg: tokens.loginPanelBg,
      text: design.colorText,
      textSecondary: design.colorTextSecondary,
      textOnPrimary: design.colorTextLightSolid,
      border: design.colorBorderSecondary,
      container: design.colorBgContainer,
      shadow: design.boxShadowSecondary,
    },
    radius: tokens.borderRadius,
    fontFamily: tokens.fontFamily,
    chartPalette: [colorPrimary, ...tokens.chartPalette.slice(1)],
    breakpoints: BREAKPOINTS,
  };
  return { antd, styled };
}
