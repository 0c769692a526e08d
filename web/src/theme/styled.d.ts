import 'styled-components';

declare module 'styled-components' {
  export interface DefaultTheme {
    colors: {
      primary: string;
      primaryHover: string;
      primaryBg: string;
      siderBg: string;
      siderText: string;
      headerBg: string;
      layoutBg: string;
      loginPanelBg: string;
      text: string;
      textSecondary: string;
      textOnPrimary: string;
      border: string;
      container: string;
      shadow: string;
    };
    radius: number;
    fontFamily: string;
    chartPalette: string[];
    breakpoints: { tablet: number; desktop: number };
  }
}
