import { describe, expect, it } from 'vitest';
import { buildTheme } from './buildTheme';
import { getStyleModel, STYLE_MODELS } from './styleModels';

describe('buildTheme', () => {
  const junjia = getStyleModel('junjia').tokens;

  it('uses the tenant theme colour as the primary colour of both libraries', () => {
    const theme = buildTheme({ themeColor: '#123456' }, junjia);
    expect(theme.antd.token?.colorPrimary).toBe('#123456');
    expect(theme.styled.colors.primary).toBe('#123456');
    expect(theme.styled.chartPalette[0]).toBe('#123456');
  });

  it('takes radius, font, layout colours and palette from the style model', () => {
    const theme = buildTheme({ themeColor: '#0f8a5f' }, junjia);
    expect(theme.antd.token?.borderRadius).toBe(junjia.borderRadius);
    expect(theme.antd.token?.fontFamily).toBe(junjia.fontFamily);
    expect(theme.styled.colors).toMatchObject({
      siderBg: junjia.siderBg,
      layoutBg: junjia.layoutBg,
      loginPanelBg: junjia.loginPanelBg,
    });
    expect(theme.styled.chartPalette).toHaveLength(junjia.chartPalette.length);
    expect(theme.styled.breakpoints).toEqual({ tablet: 576, desktop: 1350 });
  });

  it('falls back on the style model colour without a valid tenant colour', () => {
    expect(buildTheme(null, junjia).styled.colors.primary).toBe(junjia.colorPrimary);
    expect(buildTheme({ themeColor: 'red;}' }, junjia).antd.token?.colorPrimary).toBe(junjia.colorPrimary);
  });

  it('derives neutral colours from antd', () => {
    const { colors } = buildTheme(null, junjia).styled;
    for (const value of [colors.text, colors.textSecondary, colors.textOnPrimary, colors.border, colors.container]) {
      expect(value).toMatch(/^(#|rgba?\()/);
    }
  });
});

describe('style models', () => {
  it('are read from themes/ and unknown names give the default', () => {
    expect(Object.keys(STYLE_MODELS).sort()).toEqual(['default', 'junjia']);
    expect(getStyleModel('nope').name).toBe('default');
    expect(getStyleModel(undefined).tokens.colorPrimary).toBe('#ec6c00');
  });
});
