import defaultModel from '@themes/default/theme.json';
import junjiaModel from '@themes/junjia/theme.json';

/** Design tokens of a style model (themes/<name>/theme.json, read at build time). */
export interface StyleTokens {
  colorPrimary: string;
  borderRadius: number;
  fontFamily: string;
  siderBg: string;
  siderText: string;
  headerBg: string;
  layoutBg: string;
  loginPanelBg: string;
  chartPalette: string[];
}

export interface MenuEntry {
  key: string;
  path?: string;
  icon?: string;
  children?: MenuEntry[];
}

export interface StyleModel {
  name: string;
  label: Record<string, string>;
  tokens: StyleTokens;
  landing: string;
  menu: MenuEntry[];
}

export const STYLE_MODELS: Record<string, StyleModel> = {
  default: defaultModel,
  junjia: junjiaModel,
};

export const DEFAULT_STYLE_MODEL = 'default';

export function getStyleModel(name: string | null | undefined): StyleModel {
  return (name && STYLE_MODELS[name]) || STYLE_MODELS[DEFAULT_STYLE_MODEL];
}
